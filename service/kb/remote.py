"""A SPARQL 1.1 server as the KB's store ($STORE_URL): what the engine, the entity pages and /sparql ask of the
embedded Oxigraph store, asked over the SPARQL 1.1 Protocol instead.

`RemoteStore.query()` answers as `pyoxigraph.Store.query()` does (QuerySolutions, QueryBoolean, or triples),
so the stored-query catalog and the SPARQL workers use either store unchanged. The KB's three graphs are the
default graph of every query that does not name its own dataset (`default-graph-uri`, the protocol's way of
saying `use_default_graph_as_union`) and its named graphs. Results come as TSV and N-Triples, one term per
cell and one triple per line: a result longer than its byte budget is cut at a line, never mid-term.

The SPARQL run here lives in service/kb/sparql/*.rq: this module fills and sends it, and never writes any.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.client
import re
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pyoxigraph as ox

from service import sparql_text
from service.errors import FolioError
from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY

SPARQL_DIR = Path(__file__).parent / "sparql"
KB_GRAPHS = (GRAPH_ONTOLOGY, GRAPH_DATA, GRAPH_INFERRED)
GRAPH_MARKER = GRAPH_DATA.rsplit("/", 1)[0] + "/build"  # which build the store holds (service/kb/publish.py)
ACCEPT = "text/tab-separated-values, application/n-triples;q=0.9, application/sparql-results+json;q=0.8"
# for a store whose TSV is not SPARQL's (Virtuoso quotes the header's names and writes IRIs as plain strings)
JSON_ACCEPT = "application/sparql-results+json, application/n-triples;q=0.9"
_POSITION = re.compile(r"(\d+):(\d+)")
IDLE_LIMIT = 30.0  # seconds a kept-alive connection may rest before it is opened again
_STALE = b"os error 11"  # Oxigraph's answer on a connection it stopped reading (EAGAIN after its read timeout)


class StoreUnavailable(FolioError):
    """The store did not answer: refused, timed out, or said something that is not a SPARQL result."""


class StoreGone(StoreUnavailable):
    """The one connection of a sandboxed worker closed, and the worker may not open another."""


@functools.cache
def internal_query(name: str) -> str:
    """One of the engine's own queries (service/kb/sparql/), read once: readiness and keep-alive ask them often."""
    return (SPARQL_DIR / name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Address:
    """Where a SPARQL service listens; credentials in the URL (`http://user:pass@host/...`) become a Basic
    Authorization header and are never shown."""

    scheme: str
    host: str
    port: int
    path: str
    authorization: str = ""

    @classmethod
    def parse(cls, url: str) -> Address:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise StoreUnavailable(f"a store URL is http(s)://host[:port]/path, not {shown(url)!r}")
        auth = ""
        if parts.username is not None:
            pair = f"{parts.username}:{parts.password or ''}".encode()
            auth = "Basic " + base64.b64encode(pair).decode()
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return cls(parts.scheme, parts.hostname, parts.port or (443 if parts.scheme == "https" else 80), path, auth)

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)

    def with_path(self, path: str) -> Address:
        return Address(self.scheme, self.host, self.port, path, self.authorization)


def shown(url: str) -> str:
    """A URL without the credentials it may hold, for logs, pages and the manifest."""
    parts = urlsplit(url)
    if parts.username is None:
        return url
    host = parts.hostname or ""
    return parts._replace(netloc=host + (f":{parts.port}" if parts.port else "")).geturl()


class Client:
    """Requests to one SPARQL service over kept-alive connections, one per thread. `pinned`: the connection is
    opened once, up front (`connect()`), and never again, for a process that gives up opening sockets."""

    def __init__(self, address: Address, timeout: float, *, pinned: bool = False) -> None:
        self.address = address
        self.timeout = timeout
        self.pinned = pinned
        self._local = threading.local()
        self._opened: list[http.client.HTTPConnection] = []  # every thread's, closed with the client
        weakref.finalize(self, _close_all, self._opened)

    def close(self) -> None:
        _close_all(self._opened)

    def connect(self) -> None:
        conn = self._connection()
        conn.connect()

    def _connection(self) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.address.connection(self.timeout)
            self._local.conn = conn
            self._opened.append(conn)
        return conn

    def _drop(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            with contextlib.suppress(ValueError):
                self._opened.remove(conn)
        self._local.conn = None


    def post(self, body: bytes, content_type: str, accept: str = "*/*", *, path: str | None = None,
             limit: int = 0) -> tuple[int, str, bytes, bool]:  # fmt: skip
        """(status, media type, body, cut): the body read to at most `limit` bytes (0: all), cut at a line."""
        headers = {"Content-Type": content_type, "Accept": accept}
        if self.address.authorization:
            headers["Authorization"] = self.address.authorization
        for attempt in range(2):
            used = float(getattr(self._local, "used", 0.0))
            if not self.pinned and time.monotonic() - used > IDLE_LIMIT:
                self._drop()  # servers close idle connections (Oxigraph after a minute): start afresh
            conn = self._connection()
            if self.pinned and conn.sock is None and used:
                raise StoreGone("the connection to the store closed")
            try:
                conn.request("POST", path or self.address.path, body, headers)
                response = conn.getresponse()
                self._local.used = time.monotonic()
                data, cut = _read(response, limit)
                media = (response.getheader("Content-Type") or "").split(";", 1)[0].strip().lower()
                if response.will_close or cut:
                    self._drop()
                if response.status == 500 and _STALE in data and not attempt:  # a connection the server timed out
                    self._drop()
                    if self.pinned:
                        raise StoreGone("the store timed the connection out")
                    continue
                return response.status, media, data, cut
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as e:
                self._drop()  # a kept-alive connection the server had closed: once more on a new one
                if self.pinned:
                    raise StoreGone("the connection to the store closed") from e
                if attempt:
                    raise StoreUnavailable(f"the store at {shown(self.address.host)} closed the connection") from e
            except (OSError, http.client.HTTPException) as e:
                self._drop()
                if self.pinned and isinstance(e, PermissionError):
                    raise StoreGone("this process may not open a connection") from e
                raise StoreUnavailable(f"the store did not answer: {type(e).__name__}: {e}") from e
        raise StoreUnavailable("the store did not answer")


def _close_all(connections: list[http.client.HTTPConnection]) -> None:
    for conn in list(connections):
        conn.close()
    connections.clear()


def _read(response: http.client.HTTPResponse, limit: int) -> tuple[bytes, bool]:
    if not limit:
        return response.read(), False
    data = response.read(limit + 1)
    if len(data) <= limit:
        return data, False
    return data[: data.rfind(b"\n", 0, limit) + 1], True


class RemoteStore:
    """The KB's graphs on a SPARQL 1.1 server. `max_bytes` bounds what one result may bring (0: unbounded);
    `cut` says whether the last result was cut by it."""

    def __init__(self, url: str, *, timeout: float = 10.0, max_bytes: int = 0, pinned: bool = False,
                 graphs: tuple[str, ...] = KB_GRAPHS) -> None:  # fmt: skip
        self.url = url
        self.client = Client(Address.parse(url), timeout, pinned=pinned)
        self.max_bytes = max_bytes
        self.graphs = graphs
        self.cut = False
        self.accept = ACCEPT
        self._subject_quads = internal_query("subject-quads.rq")

    def connect(self) -> None:
        self.client.connect()

    def close(self) -> None:
        self.client.close()

    def query(self, query: str, *, use_default_graph_as_union: bool = False, default_graph: Any = None,
              named_graphs: Any = None, prefixes: dict[str, str] | None = None, base_iri: str | None = None,
              **_: Any) -> Any:  # fmt: skip
        """As `pyoxigraph.Store.query`; raises SyntaxError for a query the store cannot parse, RuntimeError for
        one it cannot evaluate, StoreUnavailable when it does not answer."""
        head = sparql_text.prologue(query, prefixes or {}, base_iri)
        fields: list[tuple[str, str]] = [("query", head + query)]
        defaults = _iris(default_graph)
        named = _iris(named_graphs)
        if use_default_graph_as_union and not defaults and not named:
            defaults = named = list(self.graphs)
        fields += [("default-graph-uri", g) for g in defaults] + [("named-graph-uri", g) for g in named]
        status, media, body, self.cut = self.client.post(
            urlencode(fields).encode(), "application/x-www-form-urlencoded", self.accept, limit=self.max_bytes
        )
        if status == 200 and media == "text/tab-separated-values" and not _sparql_tsv(body):
            self.accept = JSON_ACCEPT  # from now on: this store's TSV cannot say an IRI from a string
            return self.query(query, use_default_graph_as_union=use_default_graph_as_union,
                              default_graph=default_graph, named_graphs=named_graphs, prefixes=prefixes,
                              base_iri=base_iri)  # fmt: skip
        if status != 200:
            message = _shift(body.decode("utf-8", "replace").strip()[:500], head.count("\n"))
            if status == 400:
                raise SyntaxError(message or "the store could not parse the query")
            if status in (408, 502, 503, 504):
                raise StoreUnavailable(f"the store answered {status}: {message}")
            raise RuntimeError(message or f"the store answered {status}")
        return parse_result(media, body)

    def quads_for_pattern(
        self, subject: Any, predicate: Any = None, obj: Any = None, graph: Any = None
    ) -> Iterator[ox.Quad]:
        """Quads about one subject (the only pattern the KB asks a remote store for)."""
        if not isinstance(subject, ox.NamedNode):
            raise ValueError("a remote store is asked about one named subject at a time")
        text = sparql_text.substitute(self._subject_quads, {"subject": str(subject)})
        for row in self.query(text, named_graphs=[ox.NamedNode(g) for g in self.graphs]):
            p, o, g = row[0], row[1], row[2]
            if (predicate is None or p == predicate) and (obj is None or o == obj) and (graph is None or g == graph):
                yield ox.Quad(subject, p, o, g)

    def ping(self) -> bool:
        """The store answers a query about the KB's graphs."""
        self.build()
        return True

    def build(self) -> str | None:
        """The digest of the build the store holds, or None when no build was ever published to it."""
        marker = ox.NamedNode(GRAPH_MARKER)
        text = sparql_text.substitute(internal_query("build-marker.rq"), {"marker": str(marker)})
        for row in self.query(text, named_graphs=[marker]):
            return str(row[0].value)
        return None


def _iris(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list | tuple) else [value]
    return [v.value if isinstance(v, ox.NamedNode) else str(v) for v in items]


def _shift(message: str, lines: int) -> str:
    """A position in the store's message, moved back by the lines of prologue added in front of the query."""
    if not lines:
        return message

    def back(m: re.Match[str]) -> str:
        return f"{max(1, int(m.group(1)) - lines)}:{m.group(2)}"

    return _POSITION.sub(back, message, count=1)


def _sparql_tsv(body: bytes) -> bool:
    """Whether a TSV result is SPARQL 1.1's: its header names variables (?x), or it is an ASK's true or false."""
    head = body.split(b"\n", 1)[0].strip()
    return head in (b"true", b"false", b"") or all(name.startswith((b"?", b"$")) for name in head.split(b"\t"))


def parse_result(media: str, body: bytes) -> Any:
    """A SPARQL result as pyoxigraph's own objects, from the formats a store answers in."""
    try:
        if media == "text/tab-separated-values":
            text = body.strip()
            if text in (b"true", b"false"):  # an ASK answered in TSV (Oxigraph does)
                return ox.parse_query_results(b'{"head":{},"boolean":%s}' % text, ox.QueryResultsFormat.JSON)
            return ox.parse_query_results(body, ox.QueryResultsFormat.TSV)
        results = {"application/sparql-results+json": ox.QueryResultsFormat.JSON,
                   "application/json": ox.QueryResultsFormat.JSON,
                   "application/sparql-results+xml": ox.QueryResultsFormat.XML}  # fmt: skip
        if media in results:
            return ox.parse_query_results(body, results[media])
        graphs = {"application/n-triples": ox.RdfFormat.N_TRIPLES, "text/turtle": ox.RdfFormat.TURTLE,
                  "application/rdf+xml": ox.RdfFormat.RDF_XML}  # fmt: skip
        if media in graphs:
            return [ox.Triple(q.subject, q.predicate, q.object) for q in ox.parse(body, graphs[media])]
    except SyntaxError as e:
        raise StoreUnavailable(f"the store's {media} result could not be read: {e}") from None
    raise StoreUnavailable(f"the store answered in {media or 'an unnamed format'}, not a SPARQL result format")
