"""The Starlette app. The KB is opened once (copied into memory) when the app starts, with the planner."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
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
from service.config import setting
from service.errors import FolioError
from service.kb import KB, default_kb_path
from service.model_settings import Settings
from service.questionlog import open_log
from service.web import api, console, lab, linkeddata, owner, pages, sparql, wellknown
from service.web.caching import PublicHeaders
from service.web.errors import http_error, server_error
from service.web.headmeta import article_head, entity_head
from service.web.limits import ClientSlots
from service.web.memory import FreezeLongLived
from service.web.plans import new_cache
from service.web.server import AccessLog
from service.web.sparql import new_pool, new_results, open_endpoint, pool_source
from service.web.templating import TEMPLATES

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("service.web")


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


class Served:
    """What one build serves: the KB, the planner and its caches, and the SPARQL workers over its store."""

    def __init__(self, path: Path) -> None:
        self.kb = KB.open(path, in_memory=True, hold=True)
        with ThreadPoolExecutor(1) as starting:  # the SPARQL workers' process loads its store while the engine loads
            pool = starting.submit(new_pool, pool_source(self.kb), self.kb.site.entity_base)
            try:
                self.planner = engine.load(self.kb)
            except BaseException:
                with contextlib.suppress(Exception):
                    pool.result().close()
                raise
            self.pool = pool.result()
        self.plans = new_cache(self.planner)
        self.results = new_results()
        self.target = self.kb.path
        self.store_build: str | None = self.kb.digest  # the build the caches were filled from

    def store_moved(self, held: str | None) -> bool:
        """The remote store now holds another build than the caches were filled from: they start afresh. (The
        caches are per process and belong to one build: a plan cached under one build is never served under
        another.)"""
        if held == self.store_build:
            return False
        self.store_build = held
        self.plans.clear()
        self.results.clear()
        self.kb.catalog.keep_runs(self.kb.catalog.cache_size)
        return True

    def install(self, state: object) -> None:
        """Make this the build the app serves (one assignment after another, with no await between)."""
        state.served = self  # type: ignore[attr-defined]
        state.kb, state.planner, state.plans = self.kb, self.planner, self.plans  # type: ignore[attr-defined]
        state.sparql_pool, state.sparql_results = self.pool, self.results  # type: ignore[attr-defined]

    def retire(self) -> None:
        self.pool.close()
        self.kb.release()


async def _reload_when_built(app: Starlette, path: Path) -> None:
    """Serve a newer build as soon as it is finished, without a restart and without a failed request: the new
    KB, planner and SPARQL workers are made beside the old ones, then swapped in; the old workers finish what
    they run before they stop, and the old build may be pruned once nothing here serves it."""
    interval = float(setting("RELOAD_INTERVAL"))
    grace = float(setting("SPARQL_TIMEOUT")) + 2
    while True:
        await asyncio.sleep(interval)
        try:
            served: Served = app.state.served
            if served.kb.remote and served.store_moved(await asyncio.to_thread(served.kb.store_build)):
                log.info("the store holds build %s: the caches start afresh", served.store_build)
            target = path.resolve()
            if target == served.target or not (target / "manifest.json").exists():
                continue
            new = await asyncio.to_thread(Served, target)
        except (OSError, FolioError, RuntimeError) as e:  # a build that vanished or cannot open: keep serving
            log.warning("not reloading %s: %s", path, e)
            continue
        old = app.state.served
        new.install(app.state)
        asyncio.get_running_loop().call_later(grace, old.retire)
        log.info("serving the build of %s", new.kb.manifest.get("built_at"))


def create_app(kb_path: Path | None = None) -> Starlette:
    path = kb_path or default_kb_path()
    TEMPLATES.env.globals.update(entity_head=entity_head, article_head=article_head)  # the pages' <head> metadata

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        Served(path).install(app.state)
        app.state.sparql_clients = ClientSlots(int(setting("SPARQL_CLIENT_LIMIT")))
        app.state.qlog = open_log()
        app.state.model_settings = Settings.load()  # the fallback's settings, read once per worker
        # The KB and engine are hundreds of thousands of long-lived objects; a full garbage collection
        # walking them all stalls every request queued on this worker. Freeze them out of the collector.
        gc.collect()
        gc.freeze()
        watcher = asyncio.create_task(_reload_when_built(app, path))
        warming = asyncio.create_task(owner.warm(app.state))
        yield
        watcher.cancel()
        warming.cancel()
        app.state.served.retire()
        app.state.sparql_clients.close()
        if app.state.qlog is not None:
            app.state.qlog.close()

    routes = [
        Route("/sparql", sparql.endpoint, methods=["GET", "POST", "OPTIONS"]),  # the busiest paths first: the
        Route("/api/ask", api.ask, methods=["GET", "POST"]),  # router tries each route's pattern in this order
        Route("/", pages.home),
        Route("/api/preview", api.preview_endpoint),
        Route("/api/next", api.next_endpoint, methods=["POST"]),
        Route("/api/opened", api.opened_endpoint, methods=["POST"]),
        Route("/openapi.json", api.openapi),
        Route("/wiki/{name}", pages.wiki),
        Route("/api/article", pages.article_endpoint),
        Route("/lab", lab.lab),
        Route("/id/{name}", linkeddata.entity, methods=["GET", "HEAD", "OPTIONS"]),
        Route("/.well-known/void", wellknown.void),
        Route("/dump/", wellknown.dump_listing),
        Route("/dump/{name}", wellknown.dump_file),
        Route("/sitemap.xml", wellknown.sitemap),
        Route("/robots.txt", wellknown.robots),
        Route("/healthz", pages.healthz),
        Route("/readyz", pages.readyz),
        Route("/console", console.page_handler),
        Route("/console/vocabulary.json", console.vocabulary),
        Route("/-/misses", owner.misses_page),
        Route("/-/login", owner.login, methods=["GET", "POST"]),
        Route("/-/logout", owner.logout, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    logged = [Middleware(AccessLog)] if setting("ACCESS_LOG").lower() in ("on", "1", "true", "yes") else []
    if logged:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            *logged,
            Middleware(FreezeLongLived),
            Middleware(SecurityHeaders),
            Middleware(PublicHeaders),
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
        middleware=[Middleware(PublicHeaders)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )  # fmt: skip
