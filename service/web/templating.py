"""Jinja2 templates (autoescaped) and the one function that renders a page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
TEMPLATES.env.filters["urlquote"] = lambda text: quote(str(text), safe="")


def tracked(url: str, answer: str | None) -> str:
    """A link of the site's own (/wiki/..., /id/...) marked with the answer it belongs to, so the question log
    can note that a source was opened; other links unchanged."""
    if not answer or not url.startswith("/") or url.startswith("//"):
        return url
    path, hash_, fragment = url.partition("#")
    joiner = "&" if "?" in path else "?"
    return f"{path}{joiner}from={answer}{hash_}{fragment}"


TEMPLATES.env.filters["tracked"] = tracked
SEPARATORS = "/#:?&=."
_BREAK_AFTER = re.compile(r"([/#:?&=.])")


def breakable(text: str) -> Markup:
    """Text (an IRI) escaped, with a line-break opportunity (<wbr>) after each of its separators, so a narrow
    column wraps it between its parts instead of in the middle of a word."""
    out: list[str] = []
    for piece in _BREAK_AFTER.split(str(text)):
        out.append(escape(piece))
        if len(piece) == 1 and piece in SEPARATORS:
            out.append(Markup("<wbr>"))
    return Markup("").join(out)


TEMPLATES.env.filters["breakable"] = breakable


def page(
    request: Request, name: str, context: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> HTMLResponse:
    kb = getattr(request.app.state, "kb", None)
    site = kb.site if kb is not None else None
    planner = getattr(request.app.state, "planner", None)
    words = {
        "say": planner.engine.say if planner is not None else (lambda message, **_: ""),
        "samples": planner.engine.samples if planner is not None else [],
    }
    response: HTMLResponse = TEMPLATES.TemplateResponse(
        request, name, {"site": site, **words, **context}, status_code=status, headers=headers
    )
    return response
