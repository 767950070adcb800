"""GET /lab?q=…: the retrieval lab for one question, side by side, as a page (no script needed) or as JSON
(&format=json). Bad input gets the same 4xx as /api/ask (service/web/inputs.py), never a 500."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service.lab import prepare, run_lab
from service.web.errors import ApiError, error_body
from service.web.inputs import MAX_QUESTION, clean_question
from service.web.templating import page

FORMATS = ("html", "json")


async def lab(request: Request) -> Response:
    params = request.query_params
    fmt = params.get("format", "html")
    try:
        if fmt not in FORMATS:
            raise ApiError(422, "`format` is html or json.")
        question = clean_question(params.get("q"), "q")
    except ApiError as e:
        if fmt == "json" or "text/html" not in request.headers.get("accept", ""):
            return JSONResponse(error_body(e.status_code, str(e.detail)), status_code=e.status_code)
        return page(request, "lab.html", {"q": "", "report": None, "error": e.detail, "limit": MAX_QUESTION},
                    status=e.status_code)  # fmt: skip
    assert question is not None
    engine = request.app.state.planner.engine
    setup_ms = await asyncio.to_thread(prepare, engine)  # the first time only: off the event loop
    report = run_lab(engine, question)
    report.setup_ms = max(report.setup_ms, setup_ms)
    if fmt == "json":
        return JSONResponse(report.to_json())
    return page(request, "lab.html", {"q": question, "report": report, "error": None, "limit": MAX_QUESTION})
