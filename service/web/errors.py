"""One error shape for every 4xx and 5xx: {"error": {"status": 404, "code": "not_found", "message": "..."}}.

API paths (and clients that accept only JSON) get it as JSON; browsers get the same facts as a small page.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service.web.caching import CORS, OWNER_PREFIX
from service.web.templating import page

log = logging.getLogger("service.web")

CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_input",
    429: "too_many_requests",
    500: "internal_error",
    503: "unavailable",
    504: "timeout",
}


class ApiError(HTTPException):
    """An error with a status and a message meant for the person who sent the request (and headers such as
    Retry-After)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)


def error_body(status: int, message: str) -> dict[str, dict[str, object]]:
    return {"error": {"status": status, "code": CODES.get(status, "error"), "message": message}}


def _wants_json(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    api = request.url.path.startswith("/api/") or request.url.path in ("/openapi.json", "/healthz")
    return api or "text/html" not in accept


def render(request: Request, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    extra = dict(headers or {})  # CORS comes from service/web/caching.py, on errors too
    if _wants_json(request):
        return JSONResponse(error_body(status, message), status_code=status, headers=extra)
    return page(request, "error.html", {"status": status, "message": message}, status=status, headers=extra)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = exc.detail if isinstance(exc.detail, str) else "error"
    if exc.status_code == 404 and message == "Not Found":
        message = f"Nothing here: {request.url.path}"
    return render(request, exc.status_code, message, dict(exc.headers or {}))


async def server_error(request: Request, exc: Exception) -> Response:
    """A 500 is answered outside every middleware (Starlette's outermost one): it says CORS itself."""
    log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    cors = {} if request.url.path.startswith(OWNER_PREFIX) else CORS
    return render(request, 500, "Something went wrong on our side; it has been logged.", cors)
