"""The JSON API: /api/ask (GET and POST), /api/preview, /api/next, /api/opened, and its OpenAPI description."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service import engine
from service.engine.followups import next_questions
from service.engine.plan import Planner
from service.web.asked import new_answer_id, question_log, remember
from service.web.errors import ApiError
from service.web.generated import warm_meaning, with_fallback
from service.web.inputs import MAX_BODY, MAX_QUESTION, body_json, clean_question, flag
from service.web.plans import plan_for
from service.web.strip import strip


def planner_of(request: Request) -> Planner:
    planner: Planner = request.app.state.planner
    return planner


async def _question(request: Request) -> tuple[str, str | None, bool]:
    """The question, the question before it, and whether the trace is asked for."""
    if request.method == "POST":
        doc = await body_json(request)
        q, previous, trace = doc.get("question", doc.get("q")), doc.get("previous"), doc.get("trace")
    else:
        q, previous = request.query_params.get("q"), request.query_params.get("previous")
        trace = request.query_params.get("trace")
    question = clean_question(q)
    assert question is not None
    return question, clean_question(previous, "previous", required=False), flag(trace, "trace")


async def ask(request: Request) -> Response:
    question, previous, trace = await _question(request)
    await warm_meaning(request, question)
    plan = await with_fallback(request, plan_for(request, question, previous, trace=trace))
    answer = new_answer_id(request)
    body = plan.to_json() | ({"answer_id": answer} if answer else {})
    return remember(request, JSONResponse(body), plan, "api", answer)


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
    return JSONResponse(strip(planner_of(request), text))


async def next_endpoint(request: Request) -> Response:
    question, previous, _ = await _question(request)
    plan = plan_for(request, question, previous)
    return JSONResponse({"question": question, "followups": next_questions(planner_of(request), plan, engine.today())})


def _question_params() -> list[dict[str, Any]]:
    return [
        {"name": "q", "in": "query", "required": True, "description": "the question",
         "schema": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION}},
        {"name": "previous", "in": "query", "required": False, "description": "the question asked before",
         "schema": {"type": "string", "maxLength": MAX_QUESTION}},
        {"name": "trace", "in": "query", "required": False, "description": "1: add `trace`, every step the plan "
         "took (spelling, linking, intent, branches tried and undone, stored queries, fusion, confidence)",
         "schema": {"type": "string", "enum": ["0", "1", "true", "false"]}},
    ]  # fmt: skip


_ERROR = {"$ref": "#/components/schemas/Error"}
_ERRORS = {str(s): {"description": d, "content": {"application/json": {"schema": _ERROR}}}
           for s, d in ((400, "bad request"), (413, "body too large"), (422, "invalid input"))}  # fmt: skip
_BODY = {
    "required": True,
    "content": {"application/json": {"schema": {
        "type": "object", "required": ["question"],
        "properties": {"question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION},
                       "previous": {"type": "string", "maxLength": MAX_QUESTION}},
    }}},
}  # fmt: skip


def openapi_spec() -> dict[str, Any]:
    required = ["question", "normalized", "intent", "route", "confidence", "results"]
    schema = {"type": "object", "required": required}
    plan = {"description": "the Plan (see docs/ARCHITECTURE.md)", "content": {"application/json": {"schema": schema}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Portfolio question engine", "version": "1.0.0",
                 "description": f"Ask questions about the portfolio. Bodies are limited to {MAX_BODY} bytes."},
        "paths": {
            "/api/ask": {
                "get": {"summary": "Plan a question", "parameters": _question_params(),
                        "responses": {"200": plan, **_ERRORS}},
                "post": {"summary": "Plan a question", "requestBody": _BODY, "responses": {"200": plan, **_ERRORS}},
            },
            "/api/preview": {"get": {
                "summary": "The live preview strip: best match so far and the next few (`matches`), cheap enough for "
                           "every keystroke",
                "parameters": [{"name": "q", "in": "query", "required": False,
                                "schema": {"type": "string", "maxLength": MAX_QUESTION}}],
                "responses": {"200": {"description": "best match, label, tier, score"}, **_ERRORS}}},
            "/api/article": {"get": {
                "summary": "Ask one wiki article: its best passage for the question, or not covered (seed 003)",
                "parameters": [
                    {"name": "name", "in": "query", "required": True, "description": "the article, as in /wiki/NAME",
                     "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "required": True, "description": "the question",
                     "schema": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION}}],
                "responses": {"200": {"description": "answered, score, label, passage (id, heading, text, url), "
                                      "or fallback and contact_url"},
                              "404": {"description": "no such article",
                                      "content": {"application/json": {"schema": _ERROR}}}, **_ERRORS}}},
            "/api/next": {"post": {
                "summary": "Follow-up questions, each checked to be answerable",
                "requestBody": _BODY, "responses": {"200": {"description": "followups"}, **_ERRORS}}},
            "/api/opened": {"post": {
                "summary": "Say that a source or follow-up of an answer was opened (for the question log)",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["answer", "kind"], "properties": {
                        "answer": {"type": "string", "description": "the answer_id /api/ask returned"},
                        "kind": {"type": "string", "enum": ["source", "followup"]}}}}}},
                "responses": {"204": {"description": "noted"}, **_ERRORS}}},
            "/healthz": {"get": {"summary": "Liveness, ontology version, build time, question log counts",
                                 "responses": {"200": {"description": "ok"}}}},
        },
        "components": {"schemas": {"Error": {
            "type": "object", "required": ["error"],
            "properties": {"error": {"type": "object", "required": ["status", "code", "message"], "properties": {
                "status": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"}}}}}}},
    }  # fmt: skip


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_spec())
