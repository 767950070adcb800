"""Reading a question from a request, with limits and clear errors (never a 500)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from starlette.requests import Request

from service.web.errors import ApiError

MAX_QUESTION = 500
MAX_BODY = 16 * 1024


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it passes `limit` bytes (declared or streamed)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"The request body is limited to {limit} bytes.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"The request body is limited to {limit} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)


async def body_json(request: Request) -> dict[str, Any]:
    raw = await read_body(request, MAX_BODY)
    if not raw:
        return {}
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if kind not in ("application/json", ""):
        raise ApiError(415, "Send JSON (Content-Type: application/json), or use GET with ?q=.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "The request body is not valid UTF-8.") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ApiError(400, f"The request body is not valid JSON: {e.msg} at line {e.lineno}.") from None
    if not isinstance(doc, dict):
        raise ApiError(400, 'The request body is a JSON object, such as {"question": "Rust projects"}.')
    return doc


def clean_question(value: Any, name: str = "question", *, required: bool = True) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ApiError(422, f"`{name}` is required: a question of 1 to {MAX_QUESTION} characters.")
        return None
    if not isinstance(value, str):
        raise ApiError(422, f"`{name}` must be a string.")
    if "\ufffd" in value:
        raise ApiError(400, f"`{name}` is not valid UTF-8.")
    if any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in value):
        raise ApiError(422, f"`{name}` contains control characters.")
    if len(value) > MAX_QUESTION:
        raise ApiError(422, f"`{name}` is limited to {MAX_QUESTION} characters (got {len(value)}).")
    return value.strip()
