"""The Starlette app. The KB is opened once (copied into memory) when the app starts, with the planner."""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import engine
from service.kb import KB, default_kb_path
from service.kb.store import STORE_DIR
from service.web import api, console, linkeddata, pages, sparql
from service.web.errors import http_error, server_error
from service.web.memory import FreezeLongLived
from service.web.plans import new_cache
from service.web.sparql import open_endpoint

STATIC = Path(__file__).parent / "static"


class SecurityHeaders:
    """A strict content policy: the pages load scripts and styles only from this site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
                ]
                message["headers"] = headers
            await send(message)

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send_with_headers)


def create_app(kb_path: Path | None = None) -> Starlette:
    path = kb_path or default_kb_path()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        kb = KB.open(path, in_memory=True)
        app.state.kb = kb
        app.state.planner = engine.load(kb)
        app.state.plans = new_cache(app.state.planner)
        open_endpoint(app.state, str(kb.path / STORE_DIR), kb.site.entity_base)
        # The KB and engine are hundreds of thousands of long-lived objects; a full garbage collection
        # walking them all stalls every request queued on this worker. Freeze them out of the collector.
        gc.collect()
        gc.freeze()
        yield
        app.state.sparql_pool.close()

    routes = [
        Route("/", pages.home),
        Route("/api/ask", api.ask, methods=["GET", "POST"]),
        Route("/api/preview", api.preview_endpoint),
        Route("/api/next", api.next_endpoint, methods=["POST"]),
        Route("/openapi.json", api.openapi),
        Route("/wiki/{name}", pages.wiki),
        Route("/id/{name}", linkeddata.entity),
        Route("/healthz", pages.healthz),
        Route("/sparql", sparql.endpoint, methods=["GET", "POST", "OPTIONS"]),
        Route("/console", console.page_handler),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(FreezeLongLived),
            Middleware(SecurityHeaders),
            Middleware(GZipMiddleware, minimum_size=2048),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    return app


def app_factory() -> Starlette:
    """For `uvicorn --factory service.web.app:app_factory` (the KB comes from $KB_DIR)."""
    return create_app()


def sparql_app_factory() -> Starlette:
    """/sparql alone over any Oxigraph store ($STORE_DIR): the W3C conformance tests run against this."""
    store_dir = os.environ["STORE_DIR"]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        open_endpoint(app.state, store_dir, os.environ.get("ENTITY_BASE", "http://example.org/id/"))
        yield
        app.state.sparql_pool.close()

    return Starlette(
        routes=[Route("/sparql", sparql.endpoint, methods=["GET", "POST", "OPTIONS"]),
                Route("/sparql/", sparql.endpoint, methods=["GET", "POST", "OPTIONS"])],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )  # fmt: skip
