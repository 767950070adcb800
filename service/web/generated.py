"""The web side of the model fallback: after planning, a weak or unanswered plan may get a checked model
answer (service/fallback). Off (LLM_ENABLED false, or no LLM_BASE_URL), this returns the plan it is given
and nothing is sent anywhere. The model's SPARQL goes through `run_query`: the path, limits, refusals and
per-client slots of /sparql, in the worker pool, never in this process."""

from __future__ import annotations

import asyncio

from starlette.requests import Request

from service.engine.model import Plan
from service.fallback import run
from service.fallback.tools import ACCEPT, ROW_CAP, SparqlResult, from_outcome
from service.model_settings import Settings
from service.web.errors import ApiError
from service.web.sparql import run_query


async def with_fallback(request: Request, plan: Plan) -> Plan:
    settings: Settings = getattr(request.app.state, "model_settings", None) or Settings.load()  # (read at start)
    if not settings.enabled or not run.eligible(plan):
        return plan

    async def sparql(query: str) -> SparqlResult:
        try:
            return from_outcome(await run_query(request, query, ACCEPT, row_cap=ROW_CAP))
        except ApiError as e:
            return SparqlResult(e.status_code, str(e.detail))

    outcome = await run.answer(plan, request.app.state.planner.engine, settings, sparql)
    return outcome.plan


async def warm_meaning(request: Request, question: str) -> None:
    """With an embeddings server, embed the question in a thread before planning (which then finds its vector
    cached), so a slow server never holds up the event loop. Off, or with the built-in model, nothing happens."""
    engine = request.app.state.planner.engine
    meaning = engine.meaning
    if meaning is None or meaning.local:  # the built-in model embeds in microseconds: no thread needed
        return
    await asyncio.to_thread(meaning.vector, question)
