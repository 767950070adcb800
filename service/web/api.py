"""The JSON API: /api/ask (GET and POST), /api/preview, /api/next, /api/opened, and its OpenAPI description."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service import engine
from service.engine.followups import next_questions
from service.engine.plan import Planner
from service.web import paging
from service.web.asked import new_answer_id, question_log, remember
from service.web.encoded import Encoded, with_answer_id
from service.web.errors import ApiError
from service.web.generated import warm_meaning, with_fallback
from service.web.inputs import body_json, clean_question, flag
from service.web.openapi import spec as openapi_spec
from service.web.plans import plan_for
from service.web.strip import strip

ENCODED = Encoded()  # this worker's encoded pages of the plans it keeps


def planner_of(request: Request) -> Planner:
    planner: Planner = request.app.state.planner
    return planner


async def _asked(request: Request) -> dict[str, Any]:
    """What the request sends: the JSON body of a POST, the query parameters of a GET."""
    if request.method == "POST":
        doc = await body_json(request)
        return doc | {"question": doc.get("question", doc.get("q"))}
    return {k: request.query_params.get(k) for k in ("previous", "trace", "page", "per_page")} | {
        "question": request.query_params.get("q")}  # fmt: skip


def _question(doc: dict[str, Any]) -> tuple[str, str | None, bool]:
    """The question, the question before it, and whether the trace is asked for."""
    question = clean_question(doc["question"])
    assert question is not None
    return question, clean_question(doc.get("previous"), "previous", required=False), flag(doc.get("trace"), "trace")


async def ask(request: Request) -> Response:
    doc = await _asked(request)
    question, previous, trace = _question(doc)
    number, size = paging.asked(planner_of(request), doc.get("page"), doc.get("per_page"))
    await warm_meaning(request, question)
    plan = await with_fallback(request, plan_for(request, question, previous, trace=trace))
    page = paging.of(planner_of(request), plan, number, size)
    answer = new_answer_id(request)
    encoded = ENCODED.page(plan, page.number, page.size, lambda: plan.to_json() | {
        "results": [r.to_json() for r in page.results], "results_page": page.to_json()},
        keep=bool(request.app.state.plans.size) and not trace)  # fmt: skip
    links = []
    if request.method == "GET":
        params = {"q": question, "previous": previous, "per_page": doc.get("per_page"), "trace": doc.get("trace")}
        links = [f'<{page.link("/api/ask", params, n)}>; rel="{rel}"' for rel, n in
                 (("prev", page.number - 1), ("next", page.number + 1)) if 1 <= n <= page.pages]  # fmt: skip
    response = Response(with_answer_id(encoded, answer), media_type="application/json",
                        headers={"Link": ", ".join(links)} if links else None)  # fmt: skip
    return remember(request, response, plan, "api", answer)


async def opened_endpoint(request: Request) -> Response:
    """POST {"answer": id, "kind": "source" | "followup"}: a client says a source or follow-up was opened."""
    doc = await body_json(request)
    qlog = question_log(request)
    answer, kind = doc.get("answer"), doc.get("kind")
    if not isinstance(answer, str) or kind not in ("source", "followup"):
        raise ApiError(422, '{"answer": "<answer_id of /api/ask>", "kind": "source" or "followup"}')
    if qlog is not None:
        qlog.mark_opened(answer, str(kind))
    return Response(status_code=204)


async def preview_endpoint(request: Request) -> Response:
    raw = request.query_params.get("q", "")
    text = clean_question(raw, "q", required=False) or ""
    return JSONResponse(strip(planner_of(request), text, lambda q: plan_for(request, q, None)))


async def next_endpoint(request: Request) -> Response:
    question, previous, _ = _question(await _asked(request))
    plan = plan_for(request, question, previous)
    return JSONResponse({"question": question, "followups": next_questions(planner_of(request), plan, engine.today())})


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_spec())
