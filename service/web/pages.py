"""HTML pages: the ask page (rendered on the server, so it works without JavaScript), wiki articles, health."""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service import engine
from service.engine.followups import next_questions
from service.kb.remote import StoreUnavailable
from service.web import paging
from service.web.article import ask_article
from service.web.asked import new_answer_id, opened, question_log, remember
from service.web.errors import ApiError
from service.web.generated import warm_meaning, with_fallback
from service.web.inputs import clean_question, flag
from service.web.plans import plan_for
from service.web.templating import page
from service.web.wikipage import render as render_article

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
    samples: list[str] = planner.engine.samples
    context: dict[str, Any] = {"q": "", "plan": None, "followups": [], "answer_id": None, "previous": None,
                               "placeholder": min(samples, key=len, default="")}  # the shortest fits a phone
    plan = None
    if raw is not None and raw.strip():
        question = clean_question(raw)
        previous = clean_question(request.query_params.get("previous"), "previous", required=False)
        today = engine.today()
        number, size = paging.asked(planner, request.query_params.get("page"), request.query_params.get("per_page"))
        await warm_meaning(request, question or "")
        plan = plan_for(request, question or "", previous, trace=flag(request.query_params.get("trace"), "trace"))
        plan = await with_fallback(request, plan)
        results = paging.of(planner, plan, number, size)
        params = {"q": question, "previous": previous, "per_page": request.query_params.get("per_page")}
        near = (("prev", number - 1), ("next", number + 1))
        context.update(
            page=results,
            pager={rel: f'{results.link("/", params, n)}#results-heading' for rel, n in near if 0 < n <= results.pages},
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


def _article(request: Request, name: str) -> str:
    markdown: str | None = request.app.state.kb.articles.get(name)
    if markdown is None:
        raise ApiError(404, f"No wiki article named {name!r}.")
    return markdown


async def wiki(request: Request) -> Response:
    """An article with its headings' anchors, a table of contents and its own ask box (answered on the server
    with ?q=, so it works without JavaScript)."""
    name = request.path_params["name"]
    title, _, body = _article(request, name).partition("\n")
    engine_ = request.app.state.planner.engine
    question = clean_question(request.query_params.get("q"), "q", required=False)
    opened(request, "source")  # a source of an answer was opened
    rendered = render_article(body)
    return page(request, "wiki.html", {
        "title": title.lstrip("# ").strip(), "html": rendered.html, "toc": rendered.toc, "name": name,
        "entity": engine_.by_name.get(name), "asked": ask_article(engine_, name, question) if question else None,
    })  # fmt: skip


async def article_endpoint(request: Request) -> Response:
    """GET /api/article?name=NAME&q=QUESTION: the question answered from that article alone, or not covered."""
    name = request.query_params.get("name")
    if not name:
        raise ApiError(422, "`name` is required: the article's name, as in /wiki/NAME.")
    _article(request, name)
    question = clean_question(request.query_params.get("q"), "q")
    assert question is not None
    return JSONResponse(ask_article(request.app.state.planner.engine, name, question).to_json())


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
