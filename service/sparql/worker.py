"""What runs inside a SPARQL worker process: the query types, and the loop that runs one query at a time.

A worker is forked from the zygote (service/sparql/zygote.py), which holds the store in memory: it closes its
network (service/sparql/sandbox.py), limits its address space to what the store already takes plus
SPARQL_MEMORY_MB, says it is ready, and answers queries from its pipe until the pipe closes. With a remote store
it opens its one connection to the store before it closes the network.
"""

from __future__ import annotations

import logging
import resource
from collections.abc import Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import pyoxigraph as ox

from service import sparql_text
from service.accept import choose
from service.kb.remote import RemoteStore, StoreGone, StoreUnavailable
from service.queries import parse_error
from service.sparql import results
from service.sparql.sandbox import close_network
from service.sparql_safety import names_its_dataset

log = logging.getLogger("service.sparql.worker")

T = TypeVar("T")
KEEP_ALIVE = 20.0  # seconds between pings from an idle worker to the remote store


@dataclass(frozen=True)
class Request:
    query: str
    accept: str
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()
    row_cap: int = 10_000
    base_iri: str | None = None  # relative IRIs in a query resolve against the endpoint's own address
    max_bytes: int = 16 * 1024 * 1024


@dataclass
class Outcome:
    status: int  # 200, or 400 (syntax, evaluation), 406 (no acceptable format), 503 (a limit)
    media_type: str = "text/plain"
    body: bytes = b""
    rows: int = 0
    truncated: bool = False
    message: str = ""
    line: int | None = None
    column: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cut_by: str = ""  # what cut a truncated result: "rows" or "bytes"
    cached: bool = False  # read from the answers kept for the build (service/sparql/cache.py), not run again


@dataclass(frozen=True)
class Limits:
    size: int = 2
    timeout: float = 10.0
    memory_mb: int = 1024
    queue: int = 64  # queries that may wait for a worker, per web process
    queue_wait: float = 5.0  # seconds a query may wait for one
    sandbox: bool = True
    share: float = 0.5  # seconds a query runs before a waiting query of a client that used less may stop it
    budget: float = 60.0  # seconds of query time a client may have used lately (0: no budget)
    window: float = 60.0  # time constant, in seconds, with which a client's use decays


@dataclass(frozen=True)
class RemoteSource:
    """Workers that send their queries to a remote store ($STORE_URL) instead of holding a copy of the KB: each
    opens its one connection to the store before it closes its network, so it can reach the store and
    nothing else; when that connection closes, the worker stops and another takes its place."""

    url: str
    timeout: float
    max_bytes: int


Source = str | RemoteSource  # a store folder, or a remote store


def take(items: Iterable[T], cap: int, max_bytes: int = 0, size: Any = len) -> tuple[list[T], str]:
    """At most `cap` items and `max_bytes` of their size, and what cut them ("rows", "bytes" or ""): a result is
    cut without being read to its end."""
    out: list[T] = []
    total = 0
    for item in items:
        if len(out) == cap:
            return out, "rows"
        total += size(item)
        if max_bytes and total > max_bytes:
            return out, "bytes"
        out.append(item)
    return out, ""


def _row_size(row: list[Any]) -> int:
    return sum(len(str(t)) for t in row) + 16  # the terms and the markup around them


def _error(e: Exception) -> Outcome:
    """An evaluation error, without anything a remote service may have said."""
    text = str(e)
    if isinstance(e, PermissionError) or "os error 13" in text or "ermission denied" in text:
        return Outcome(400, message="The query tried to reach the network, which this endpoint cannot do.")
    if "http" in text.lower() or "service" in text.lower():
        return Outcome(400, message="The query could not be evaluated: it refers to a remote service.")
    return Outcome(400, message=f"The query could not be evaluated: {text[:300]}")


def execute(store: ox.Store | RemoteStore, req: Request, prefixes: dict[str, str]) -> Outcome:
    options: dict[str, Any] = {"prefixes": prefixes, "base_iri": req.base_iri}
    if req.default_graphs:
        options["default_graph"] = [ox.NamedNode(g) for g in req.default_graphs]
    if req.named_graphs:
        options["named_graphs"] = [ox.NamedNode(g) for g in req.named_graphs]
    if not (req.default_graphs or req.named_graphs or names_its_dataset(req.query)):
        options["use_default_graph_as_union"] = True  # only when the query does not name its own dataset
    try:
        result = store.query(req.query, **options)
    except SyntaxError as e:
        found = parse_error(req.query, str(e))
        return Outcome(400, message=found.reason, line=found.line, column=found.column)
    except StoreGone:
        raise
    except StoreUnavailable as e:
        return Outcome(503, message=f"The store did not answer: {e}")
    except (ValueError, OSError, RuntimeError) as e:
        return _error(e)
    try:
        outcome = _write(store, req, options, result, prefixes)
    except (ValueError, OSError, RuntimeError) as e:  # raised while the results were read: nothing was sent yet
        return _error(e)
    if getattr(store, "cut", False) and not outcome.truncated:  # the remote store's answer passed its budget
        outcome.truncated, outcome.cut_by = True, "bytes"
    return outcome


def _write(
    store: ox.Store | RemoteStore, req: Request, options: dict[str, Any], result: Any, prefixes: dict[str, str]
) -> Outcome:
    if isinstance(result, ox.QueryBoolean):
        media = choose(req.accept, results.SELECT_TYPES, "application/sparql-results+json")
        if media is None:
            return Outcome(406, message="ASK results are offered as " + ", ".join(results.SELECT_TYPES))
        return Outcome(200, media, results.boolean(bool(result), results.SELECT_TYPES[media]), rows=1)
    if isinstance(result, ox.QuerySolutions):
        media = choose(req.accept, results.SELECT_TYPES, "application/sparql-results+json")
        if media is None:
            return Outcome(406, message="SELECT results are offered as " + ", ".join(results.SELECT_TYPES))
        order = sparql_text.star_order(req.query)
        if not order and results.SELECT_TYPES[media] == "json":
            budget = min(results.NATIVE_BUDGET, req.max_bytes)
            native = results.native_json(result, req.row_cap, budget)
            if native is not None:
                body, count, truncated = native
                return Outcome(200, media, body, rows=count, truncated=truncated, cut_by="rows" if truncated else "")
            result = store.query(req.query, **options)  # too big for the buffer: again, written row by row
            assert isinstance(result, ox.QuerySolutions)
        variables = [v.value for v in result.variables]
        columns = list(range(len(variables)))
        if order:  # SELECT *: columns in the order the variables appear in the query
            rank = {v: n for n, v in enumerate(order)}
            columns.sort(key=lambda i: rank.get(variables[i], len(rank)))
            variables = [variables[i] for i in columns]
        solutions, cut = take(map(list, result), req.row_cap, req.max_bytes, _row_size)
        rows: list[results.Row] = [[values[i] for i in columns] for values in solutions]
        body = results.select(variables, rows, results.SELECT_TYPES[media])
        return Outcome(200, media, body, rows=len(rows), truncated=bool(cut), cut_by=cut)
    media = choose(req.accept, results.GRAPH_TYPES, "text/turtle") or _graph_for(req.accept)
    if media is None:
        return Outcome(406, message="CONSTRUCT and DESCRIBE results are offered as " + ", ".join(results.GRAPH_TYPES))
    triples, cut = take(result, req.row_cap, req.max_bytes, lambda t: len(str(t)))
    fmt = results.GRAPH_TYPES[media]
    body = ox.serialize(triples, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None) or b""
    return Outcome(200, media, body, rows=len(triples), truncated=bool(cut), cut_by=cut)


def _address_space() -> int:
    """The bytes of address space this process holds now (VmSize), 0 where /proc does not say."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def _graph_for(accept: str) -> str | None:
    """A graph format for a client that asked a CONSTRUCT or DESCRIBE in a result format (rdflib's SPARQLStore
    set to JSON asks every query in SPARQL JSON): the graph format of the same family, rather than 406."""
    asked = choose(accept, results.SELECT_TYPES, "application/sparql-results+json")
    if asked is None:
        return None
    return {"json": "application/ld+json", "xml": "application/rdf+xml"}.get(results.SELECT_TYPES[asked], "text/turtle")


def serve(store: ox.Store | None, source: Source, prefixes: dict[str, str], conn: Connection, limits: Limits) -> None:
    """The worker's life after the fork: walls, memory limit, `ready`, then one query at a time."""
    try:
        if isinstance(source, RemoteSource):
            remote = RemoteStore(source.url, timeout=source.timeout, max_bytes=source.max_bytes, pinned=True)
            remote.connect()  # the one socket this worker will ever have
            store_or_remote: ox.Store | RemoteStore = remote
        else:
            assert store is not None
            store_or_remote = store
    except StoreUnavailable as e:
        conn.send(("unavailable", str(e)))
        return
    walls = close_network(limits.sandbox)
    if limits.memory_mb > 0:  # what a query may allocate on top of the store the zygote holds, whatever the CPUs
        cap = _address_space() + limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    conn.send(("ready", walls))
    _answer(store_or_remote, prefixes, conn, limits)


def _answer(store: ox.Store | RemoteStore, prefixes: dict[str, str], conn: Connection, limits: Limits) -> None:
    while True:
        try:
            if isinstance(store, RemoteStore) and not conn.poll(KEEP_ALIVE):
                store.ping()  # a connection in use is not one the store closes as idle
                continue
            req = conn.recv()
        except EOFError:
            return
        except StoreUnavailable:  # the store closed the connection: this worker can never reach it again
            return
        try:
            outcome = execute(store, req, prefixes)
        except StoreGone:
            conn.send(Outcome(0, message="gone"))  # the query never reached the store: another worker runs it
            return
        except MemoryError:
            outcome = Outcome(503, message=f"The query needed more than {limits.memory_mb} MB and was stopped.")
        except Exception as e:  # a bug in a format, never the caller's fault: report, keep serving
            outcome = Outcome(500, message=f"{type(e).__name__}")
        conn.send(outcome)
