"""Running the app under uvicorn with the limits a public server needs.

uvicorn closes idle keep-alive connections, but has no limit on how long a client may take to send a request's
headers or body: a client dripping a byte at a time holds a connection (and a worker's memory) for as long as
it likes. `GuardedHttpTools` closes a connection whose headers take longer than HEADER_TIMEOUT, or whose body
takes longer than BODY_TIMEOUT; MAX_CONNECTIONS bounds what one worker takes at once (503 beyond).

Client addresses come from X-Forwarded-For only from the proxies in FORWARDED_ALLOW_IPS (none by default).
The access log (`serve --access-log`) is written here, without the client's address and without the query
string (which holds the visitor's question): method, path, status and time only.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import tempfile
import time
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.config import setting
from service.web.limits import KEY_ENV, SLOTS_ENV

access = logging.getLogger("service.access")


SWEEP = 0.5  # seconds between two looks at the connections' deadlines


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request's headers and for its body. A connection
    notes when its deadline falls (a number, set and cleared at each step of a request: no timer made and
    cancelled per request), and one sweep per event loop closes every connection past its deadline, every SWEEP
    seconds while any connection is open."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._due: float | None = None  # the loop's time by which the headers or the body must be in
        self.header_timeout = float(setting("HEADER_TIMEOUT"))  # read in each worker process, from its environment
        self.body_timeout = float(setting("BODY_TIMEOUT"))

    def _arm(self, seconds: float) -> None:
        self._due = self.loop.time() + seconds

    def _disarm(self) -> None:
        self._due = None

    def _too_slow(self) -> None:
        self._due = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _watch(self)
        self._arm(self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm(self.body_timeout)  # the body, if any, must follow in time

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()  # the whole request is in: the app takes the time it needs

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm(self.header_timeout + self.timeout_keep_alive)  # the next request's headers

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        _watched.get(self.loop, set()).discard(self)
        super().connection_lost(exc)


_watched: dict[asyncio.AbstractEventLoop, set[GuardedHttpTools]] = {}  # the open connections of each event loop


def _watch(protocol: GuardedHttpTools) -> None:
    """Keep the connection in its loop's sweep, starting the sweep with the loop's first open connection."""
    live = _watched.get(protocol.loop)
    if live is None:
        live = _watched[protocol.loop] = set()
        protocol.loop.call_later(SWEEP, _sweep, protocol.loop)
    live.add(protocol)


def _sweep(loop: asyncio.AbstractEventLoop) -> None:
    """Close the connections past their deadline; look again in SWEEP seconds while any is open."""
    live = _watched.get(loop, set())
    now = loop.time()
    for late in [p for p in live if p._due is not None and p._due <= now]:
        late._too_slow()
    if live:
        loop.call_later(SWEEP, _sweep, loop)
    else:
        _watched.pop(loop, None)


class AccessLog:
    """One line per request: method, path, status, milliseconds. No address, no query string."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, status = time.perf_counter(), 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            ms = (time.perf_counter() - started) * 1000
            access.info("%s %s %d %.1fms", scope["method"], scope["path"], status, ms)


def serve(host: str, port: int, workers: int, access_log: bool) -> None:
    if not os.environ.get(SLOTS_ENV):  # one file and key for every worker: the client limit is counted across
        handle, path = tempfile.mkstemp(prefix="folio-slots-")
        os.close(handle)
        os.environ[SLOTS_ENV], os.environ[KEY_ENV] = path, secrets.token_hex(16)
    if access_log:
        os.environ["ACCESS_LOG"] = "on"
    allowed = setting("FORWARDED_ALLOW_IPS").strip()
    uvicorn.run(
        "service.web.app:app_factory",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=GuardedHttpTools,
        access_log=False,  # uvicorn's would write client addresses and questions
        proxy_headers=bool(allowed),
        forwarded_allow_ips=allowed or None,
        limit_concurrency=int(setting("MAX_CONNECTIONS")),
        log_level="info",
    )
