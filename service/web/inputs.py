"""Reading a question from a request, with limits and clear errors (never a 500)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from starlette.requests import Request

from service.web.errors import ApiError

MAX_QUESTION = 500
MAX_BODY = 16 * 1024


async def body_json(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"The request body is limited to {MAX_BODY} bytes.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"The request body is limited to {MAX_BODY} bytes.")
        chunks.append(chunk)
    raw = b"".join(chunks)
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
