"""HTML pages: the ask page (rendered on the server, so it works without JavaScript), wiki articles, health."""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service import engine
from service.engine.followups import next_questions
from service.kb.remote import StoreUnavailable
from service.web.asked import new_answer_id, opened, question_log, remember
from service.web.errors import ApiError
from service.web.generated import warm_meaning, with_fallback
from service.web.inputs import clean_question, flag
from service.web.plans import plan_for
from service.web.templating import page

_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_CITE = re.compile(r"\s*\[(S\d+(?:, S\d+)*)\]")


def citations(text: str) -> list[tuple[str, list[str]]]:
    """The answer split into (sentence text, the sources it cites), so the page can render source chips."""
    out: list[tuple[str, list[str]]] = []
    last = 0
    for m in _CITE.finditer(text):
        out.append((text[last : m.start()], m.group(1).split(", ")))
        last = m.end()
    if text[last:].strip():
        out.append((text[last:], []))
    return out


async def home(request: Request) -> Response:
    planner = request.app.state.planner
    raw = request.query_params.get("q")
    context: dict[str, Any] = {"q": "", "plan": None, "followups": [], "answer_id": None, "previous": None}
    plan = None
    if raw is not None and raw.strip():
        question = clean_question(raw)
        previous = clean_question(request.query_params.get("previous"), "previous", required=False)
        today = engine.today()
        await warm_meaning(request, question or "")
        plan = plan_for(request, question or "", previous, trace=flag(request.query_params.get("trace"), "trace"))
        plan = await with_fallback(request, plan)
        context.update(
            q=question,
            previous=previous,
            plan=plan,
            segments=citations(plan.answer.text) if plan.answer else [],
            followups=next_questions(planner, plan, today),
            console_links=[f"/console?query={quote(run.query, safe='')}" for run in plan.sparql],
            answer_id=new_answer_id(request),
        )
        opened(request, "followup")  # a follow-up chip of an earlier answer brought the visitor here
    response = page(request, "ask.html", context)
    if plan is not None:
        channel = "followup" if request.query_params.get("from") else "page"
        remember(request, response, plan, channel, context["answer_id"])
    return response


async def wiki(request: Request) -> Response:
    kb = request.app.state.kb
    name = request.path_params["name"]
    markdown = kb.articles.get(name)
    if markdown is None:
        raise ApiError(404, f"No wiki article named {name!r}.")
    entity = request.app.state.planner.engine.by_name.get(name)
    opened(request, "source")  # a source of an answer was opened
    title, _, body = markdown.partition("\n")
    return page(request, "wiki.html", {"title": title.lstrip("# ").strip(), "html": _markdown.render(body),
                                        "entity": entity, "name": name})  # fmt: skip


async def healthz(request: Request) -> Response:
    """Liveness: the build served now, and which walls keep SPARQL workers off the network."""
    kb = request.app.state.kb
    return JSONResponse({
        "status": "ok",
        "ontology_version": kb.manifest["ontology_version"],
        "built_at": kb.manifest["built_at"],
        "triples": kb.manifest["counts"]["triples"]["store"],
        "build": kb.digest,
        "store": "remote" if kb.remote else "embedded",
        "sparql_network": {"closed_by": request.app.state.sparql_pool.walls},
        "question_log": qlog.health() if (qlog := question_log(request)) is not None else {"backend": "off"},
    })  # fmt: skip


async def readyz(request: Request) -> Response:
    """Readiness: the KB is open, its store answers, and the store holds the build this process serves (a
    replica whose KB folder and remote store disagree is not ready until it serves the store's build)."""
    kb = getattr(request.app.state, "kb", None)
    if kb is None:
        return JSONResponse({"ready": False, "reason": "the KB is not open yet"}, status_code=503)
    body: dict[str, Any] = {"store": "remote" if kb.remote else "embedded", "build": kb.digest}
    try:
        held = await asyncio.to_thread(kb.store_build)
    except (StoreUnavailable, OSError, RuntimeError) as e:
        body |= {"ready": False, "reason": f"the store did not answer: {e}"}
        return JSONResponse(body, status_code=503)
    body |= {"store_build": held, "ready": held == kb.digest}
    if held != kb.digest:
        body["reason"] = "the store holds another build than this process serves"
    return JSONResponse(body, status_code=200 if body["ready"] else 503)
