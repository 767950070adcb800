"""Jinja2 templates (autoescaped) and the one function that renders a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
TEMPLATES.env.filters["urlquote"] = lambda text: quote(str(text), safe="")


def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    kb = getattr(request.app.state, "kb", None)
    site = kb.site if kb is not None else None
    response: HTMLResponse = TEMPLATES.TemplateResponse(request, name, {"site": site, **context}, status_code=status)
    return response
