"""Headers every public response carries: CORS, and for read-only GETs an ETag, Last-Modified and Cache-Control,
answering 304.

The KB changes only when a new build lands, so a read-only page, an entity, a /sparql result or a dump is the
same until then: its ETag is the build's digest (with a stamp of the app's templates and static files, and the
media type, so a new build, a new release of the pages, or another representation each get another tag). A
request whose If-None-Match holds the current tag gets 304 and no body; without If-None-Match, so does one whose
If-Modified-Since is not before Last-Modified (the later of the build's time and the pages'). The app reloads a
new build on its own (service/web/app.py); the tag is read from the build served at the time of the response,
so it changes with it.

What is cached is the list below: paths that answer the same thing to everyone for one build. The ask page
with a question (`/?q=`), the JSON API, the owner's pages and the health checks are never cached (each ask is
logged; health is live). CORS (`Access-Control-Allow-Origin: *`, no credentials) is on every response of the
public site, errors included, so a script elsewhere can read the data and the reason for a refusal; the
owner's pages (/-/) are left without it.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime
from functools import lru_cache
from pathlib import Path

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.config import setting

WEB = Path(__file__).parent
CACHED_PREFIXES = ("/id/", "/wiki/", "/static/", "/dump/", "/.well-known/")
CACHED_PATHS = ("/", "/sparql", "/console", "/lab", "/openapi.json", "/sitemap.xml", "/robots.txt")
UNCACHED_QUERIES = {"/": ("q",), "/wiki/": ("q",)}  # a page with a question is an ask: logged, never cached
OWNER_PREFIX = "/-/"
CORS = {
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "ETag, Link, X-SPARQL-Truncated, X-SPARQL-Rows, X-SPARQL-Cache",
}
_DROPPED_ON_304 = ("content-length", "content-type", "content-encoding", "content-disposition")


def _code_stamp() -> str:
    """A digest of the templates and static files, so a new release of the pages changes every tag."""
    h = hashlib.sha256()
    for path in sorted((*WEB.glob("templates/*"), *WEB.glob("static/*"))):
        if path.is_file():
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:8]


CODE_STAMP = _code_stamp()
CODE_TIME = max((p.stat().st_mtime for p in (*WEB.glob("templates/*"), *WEB.glob("static/*")) if p.is_file()),
                default=0.0)  # fmt: skip


def last_modified(built_at: str) -> datetime | None:
    """When a representation last changed: the later of the build and the app's pages (to the second)."""
    try:
        built = datetime.fromisoformat(built_at)
    except ValueError:
        return None
    return max(built, datetime.fromtimestamp(int(CODE_TIME), UTC))


@lru_cache(maxsize=16)
def _modified(built_at: str) -> tuple[datetime | None, str]:
    """When a build's representations last changed, and that time as a Last-Modified header ("" when unknown)."""
    changed = last_modified(built_at)
    return changed, format_datetime(changed, usegmt=True) if changed is not None else ""


def _not_modified_since(asked: str, changed: datetime) -> bool:
    try:
        since = parsedate_to_datetime(asked)
    except (TypeError, ValueError):
        return False  # a date that cannot be read is ignored (RFC 9110 13.1.3)
    return since.tzinfo is not None and changed <= since


@lru_cache(maxsize=256)
def entity_tag(build: str, media: str) -> str:
    """The weak ETag of a representation: the build, the app's pages, the media type."""
    kind = hashlib.sha256(media.split(";", maxsplit=1)[0].strip().lower().encode()).hexdigest()[:6]
    return f'W/"{build[:20]}-{CODE_STAMP}-{kind}"'


def _matches(if_none_match: str, tag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2): W/ is ignored on both sides."""
    opaque = tag.removeprefix("W/")
    for part in if_none_match.split(","):
        candidate = part.strip()
        if candidate == "*" or candidate.removeprefix("W/") == opaque:
            return True
    return False


def cacheable(scope: Scope) -> bool:
    if scope["method"] not in ("GET", "HEAD"):
        return False
    path: str = scope["path"]
    if not (path.startswith(CACHED_PREFIXES) or path in CACHED_PATHS):
        return False
    names = [n for where, listed in UNCACHED_QUERIES.items() if path == where or (where != "/" and
             path.startswith(where)) for n in listed]  # fmt: skip
    if names:
        query = scope.get("query_string", b"").decode("latin-1")
        if any(part.split("=", 1)[0] in names for part in query.split("&")):
            return False
    return True


class PublicHeaders:
    """CORS on every public response; ETag, Cache-Control and 304 on read-only ones (see the module's doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.cache_control = f"public, max-age={int(setting('CACHE_MAX_AGE'))}"  # read once, when the app is made

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(OWNER_PREFIX):
            await self.app(scope, receive, send)
            return
        cached = cacheable(scope)
        not_modified = False

        async def sending(message: Message) -> None:
            nonlocal not_modified
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in CORS.items():
                    if name not in headers:
                        headers[name] = value
                if cached and message["status"] == 200 and "set-cookie" not in headers:
                    not_modified = self._tag(scope, headers, self.cache_control)
                if not_modified:
                    for name in _DROPPED_ON_304:
                        if name in headers:
                            del headers[name]
                    message["status"] = 304
            elif message["type"] == "http.response.body" and not_modified:
                if message.get("more_body", False):
                    return  # the body of a 304 is never sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app(scope, receive, sending)

    @staticmethod
    def _tag(scope: Scope, headers: MutableHeaders, cache_control: str) -> bool:
        """Give the response its ETag and Cache-Control; whether the request already holds it (304)."""
        kb = getattr(scope["app"].state, "kb", None) if "app" in scope else None
        build = getattr(kb, "digest", "") if kb is not None else ""
        if not build:
            return False
        tag = entity_tag(build, headers.get("content-type", ""))
        headers["etag"] = tag
        changed, stamp = _modified(str(getattr(kb, "manifest", {}).get("built_at", "")))
        if stamp:
            headers["last-modified"] = stamp
        if "cache-control" not in headers:
            headers["cache-control"] = cache_control
        request = Headers(scope=scope)
        asked = request.get("if-none-match")
        if asked is not None:  # the tag decides when the request has one (RFC 9110 13.2.2)
            return _matches(asked, tag)
        since = request.get("if-modified-since")
        return since is not None and changed is not None and _not_modified_since(since, changed)
