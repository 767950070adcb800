"""Reading a question from a request, with limits and clear errors (never a 500)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import ClientDisconnect, Request

from service.web.errors import ApiError

MAX_QUESTION = 500
MAX_BODY = 16 * 1024


DRAIN = 8 * 1024 * 1024  # bytes of an oversize body read and dropped, so the client can read the 413


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 once it passes `limit` bytes (declared or streamed). The rest of an
    oversize body, up to DRAIN bytes, is read and dropped first: a client that sends it without waiting for an
    answer then reads the 413 instead of a reset connection."""
    declared = request.headers.get("content-length", "")
    too_large = ApiError(413, f"The request body is limited to {limit} bytes.")
    stream = request.stream()  # read once: asking Starlette for the stream again fails ("Stream consumed")
    if declared.isdigit() and int(declared) > limit:
        if int(declared) <= DRAIN:
            await _drain(stream, DRAIN)
        raise too_large
    chunks, size = [], 0
    try:
        async for chunk in stream:
            size += len(chunk)
            if size > limit:
                await _drain(stream, DRAIN - size)
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:  # the client left (or was cut off by BODY_TIMEOUT): nobody reads the answer
        raise ApiError(400, "The request body ended before it was complete.") from None
    return b"".join(chunks)


async def _drain(stream: AsyncIterator[bytes], budget: int) -> None:
    """Read and drop the rest of a body (chunked or not) from the stream already begun, up to `budget` bytes."""
    try:
        async for chunk in stream:
            budget -= len(chunk)
            if budget < 0:
                return
    except ClientDisconnect:
        return


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
    except RecursionError:
        raise ApiError(400, "The request body nests JSON too deeply.") from None
    if not isinstance(doc, dict):
        raise ApiError(400, 'The request body is a JSON object, such as {"question": "Rust projects"}.')
    return doc


# Unicode's control characters (category Cc: U+0000-U+001F, U+007F-U+009F) but tab and line breaks, the
# replacement character a bad byte decodes to, and lone surrogates: one search of the question for all of them
_UNWELCOME = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ud800-\udfff]")


def clean_question(value: Any, name: str = "question", *, required: bool = True) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ApiError(422, f"`{name}` is required: a question of 1 to {MAX_QUESTION} characters.")
        return None
    if not isinstance(value, str):
        raise ApiError(422, f"`{name}` must be a string.")
    bad = _UNWELCOME.search(value)
    if bad is not None and (bad.group() == "\ufffd" or "\ud800" <= bad.group() <= "\udfff"):
        raise ApiError(400, f"`{name}` is not valid UTF-8 (or holds a lone surrogate).")
    if bad is not None:
        raise ApiError(422, f"`{name}` contains control characters.")
    if len(value) > MAX_QUESTION:
        raise ApiError(422, f"`{name}` is limited to {MAX_QUESTION} characters (got {len(value)}).")
    return value.strip()


_FLAGS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def flag(value: Any, name: str) -> bool:
    """An on/off parameter (`trace=1`): absent is off; anything but 1/0, true/false, yes/no, on/off is a 422."""
    if value is None or value is False or value is True:
        return bool(value)
    found = _FLAGS.get(str(value).strip().lower())
    if found is None:
        raise ApiError(422, f"`{name}` is 1 or 0 (true or false), not {str(value)[:40]!r}.")
    return found


MAX_PAGE = 10_000  # pages of an answer's results
MAX_PER_PAGE = 100


def whole_number(value: Any, name: str, default: int, top: int) -> int:
    """A count from 1 to `top` (`page=2`); absent is `default`; anything else is a 422."""
    if value is None or value == "":
        return default
    text = str(value).strip()
    digits = text.isascii() and text.isdigit() and len(text) <= 6  # "²" is a digit to Python, and int() fails
    if isinstance(value, bool) or not digits or not 1 <= int(text) <= top:
        raise ApiError(422, f"`{name}` is a whole number from 1 to {top}, not {text[:40]!r}.")
    return int(text)
