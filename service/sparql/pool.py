"""Worker processes for arbitrary SPARQL: pyoxigraph cannot time out or cancel a query in-process, so each
console query runs in a process of a small pool that is killed when it passes the time limit and replaced.
A query of death never blocks the ask page (it runs in the web process) or the other workers.

Each worker has no network (service/sparql/sandbox.py), at most SPARQL_MEMORY_MB of memory, and writes at
most SPARQL_MAX_RESPONSE bytes of results. Waiting for a worker is bounded (SPARQL_QUEUE, SPARQL_QUEUE_WAIT),
and a client that already runs a query may not take the last free worker: one client's queries of death
leave a worker for everybody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import multiprocessing as mp
import os
import resource
import threading
from collections import Counter
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

log = logging.getLogger("service.sparql.pool")

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


@dataclass(frozen=True)
class Limits:
    size: int = 2
    timeout: float = 10.0
    memory_mb: int = 1024
    queue: int = 16  # queries that may wait for a worker, per web process
    queue_wait: float = 5.0  # seconds a query may wait for one
    sandbox: bool = True


@dataclass(frozen=True)
class RemoteSource:
    """Workers that send their queries to a remote store ($STORE_URL) instead of holding a copy of the KB: each
    opens its one connection to the store before it closes its network, so it can reach the store and
    nothing else; when that connection closes, the worker stops and another takes its place."""

    url: str
    timeout: float
    max_bytes: int


Source = str | RemoteSource  # a store folder, or a remote store


class QueryTimeout(Exception):
    pass


class Busy(Exception):
    """Every worker is taken and the wait for one was too long (or too many are waiting)."""


class WorkerDied(Exception):
    """The worker stopped while running the query: it passed the memory limit, or crashed."""


class WorkerGone(Exception):
    """The worker had stopped before the query was sent: another takes it."""


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
    media = choose(req.accept, results.GRAPH_TYPES, "text/turtle")
    if media is None:
        return Outcome(406, message="CONSTRUCT and DESCRIBE results are offered as " + ", ".join(results.GRAPH_TYPES))
    triples, cut = take(result, req.row_cap, req.max_bytes, lambda t: len(str(t)))
    fmt = results.GRAPH_TYPES[media]
    body = ox.serialize(triples, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None) or b""
    return Outcome(200, media, body, rows=len(triples), truncated=bool(cut), cut_by=cut)


def _open(source: Source, limits: Limits) -> tuple[ox.Store | RemoteStore, list[str]]:
    """The worker's store, and the walls that cut it off the network (closed before anything reads a query)."""
    if isinstance(source, RemoteSource):
        remote = RemoteStore(source.url, timeout=source.timeout, max_bytes=source.max_bytes, pinned=True)
        remote.connect()  # the one socket this worker will ever have
        return remote, close_network(limits.sandbox)
    walls = close_network(limits.sandbox)
    disk = ox.Store.read_only(source)
    store = ox.Store()
    store.extend(disk)  # an in-memory copy answers 2-4x faster than the read-only disk store
    return store, walls


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


def _one_malloc_arena() -> None:
    """One malloc arena for every thread (glibc's M_ARENA_MAX): each arena reserves address space, and the storage
    engine starts a thread per CPU, so without this the size of an opened store grows with the CPU count."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX


def _serve(source: Source, prefixes: dict[str, str], conn: Connection, limits: Limits) -> None:
    _one_malloc_arena()
    try:
        store, walls = _open(source, limits)
    except StoreUnavailable as e:
        conn.send(("unavailable", str(e)))
        return
    gc.collect()  # the read-only disk store the copy was made from: closed, its threads ended
    if limits.memory_mb > 0:  # what a query may allocate on top of the opened store, whatever the CPU count
        cap = _address_space() + limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    conn.send(("ready", walls))
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


class _Worker:
    def __init__(self, ctx: Any, source: Source, prefixes: dict[str, str], limits: Limits) -> None:
        self.parent, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(source, prefixes, child, limits), daemon=True)
        self.process.start()
        child.close()
        try:
            if not self.parent.poll(120):
                raise RuntimeError("a SPARQL worker did not start within 120 s")
            word, self.walls = self.parent.recv()
        except EOFError:  # it stopped while loading the store: no memory for it, say
            self.process.join(5)
            raise RuntimeError(f"a SPARQL worker stopped while starting (exit {self.process.exitcode})") from None
        if word != "ready":
            self.process.join(5)
            raise RuntimeError(f"a SPARQL worker did not start: {self.walls}")

    async def ask(self, req: Request, timeout: float) -> Outcome:
        """Send the query and wait for the answer on the event loop (no thread): readable pipe or time limit."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.parent.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            self.parent.send(req)
        except OSError:  # it died after its last answer (an abort while freeing memory): never ran this query
            raise WorkerGone from None
        loop.add_reader(fd, readable)
        try:
            await asyncio.wait_for(ready, timeout)
        except TimeoutError:
            raise QueryTimeout from None
        finally:
            loop.remove_reader(fd)
            os.set_blocking(fd, True)  # the loop made it non-blocking; the rest of a long answer is read in one go
        try:
            outcome: Outcome = self.parent.recv()
        except (EOFError, OSError):
            raise WorkerDied from None
        if outcome.status == 0:  # its connection to the remote store closed before the query was sent
            raise WorkerGone
        return outcome

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.parent.close()


class Pool:
    """`size` worker processes over a read-only store; `run` waits for a free one, within limits."""

    def __init__(self, source: Source, prefixes: dict[str, str], limits: Limits) -> None:
        self.source, self.prefixes, self.limits = source, prefixes, limits
        self.timeout = limits.timeout
        self._ctx = mp.get_context("spawn")  # a fresh interpreter: no copy of the web app's state
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._changed: asyncio.Condition | None = None
        self._running: Counter[str] = Counter()  # queries each client runs in this process
        self._waiting = 0
        self._starting = 0  # workers being started (in a thread): they count toward `size` already
        for _ in range(max(1, limits.size)):
            self._idle.append(self._spawn())
        self.walls: list[str] = list(self._all[0].walls) if self._all else []

    def _spawn(self) -> _Worker:
        worker = _Worker(self._ctx, self.source, self.prefixes, self.limits)
        with self._lock:
            self._all.append(worker)
        return worker

    def _claim(self) -> bool:
        """A place for one more worker, held while it starts; False when the pool is full (or filling)."""
        with self._lock:
            if len(self._all) + self._starting >= max(1, self.limits.size):
                return False
            self._starting += 1
            return True

    async def _start(self) -> _Worker | None:
        """A new worker in a claimed place, or None when none can be started now (the next query retries)."""
        try:
            return await asyncio.to_thread(self._spawn)
        except (OSError, RuntimeError) as e:
            log.warning("a SPARQL worker could not be started: %s", e)
            return None
        finally:
            with self._lock:
                self._starting -= 1

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    def _may_take(self, client: str) -> bool:
        """A free worker, and not the last one for a client that already has one running."""
        return bool(self._idle) and (len(self._idle) > 1 or self._running[client] == 0 or len(self._all) == 1)

    async def _acquire(self, client: str) -> _Worker:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.queue_wait
        changed = self._condition()
        async with changed:
            if not self._idle and self._claim():
                await self._refill()
            while not self._may_take(client):
                remaining = deadline - loop.time()
                if remaining <= 0 or self._waiting >= self.limits.queue:
                    raise Busy
                self._waiting += 1
                try:
                    await asyncio.wait_for(changed.wait(), remaining)
                except TimeoutError:
                    raise Busy from None
                finally:
                    self._waiting -= 1
            self._running[client] += 1
            return self._idle.pop()

    async def _refill(self) -> None:
        """A worker that could not be replaced earlier (no memory for a process, say): try again."""
        worker = await self._start()
        if worker is not None:
            self._idle.append(worker)

    async def _release(self, client: str, worker: _Worker | None) -> None:
        changed = self._condition()
        async with changed:
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]
            if worker is not None:
                self._idle.append(worker)
            changed.notify_all()

    async def _replace(self, worker: _Worker) -> _Worker | None:
        """A new worker in place of this one, or None when none can be started now, or the pool is full again
        (another query refilled it meanwhile): the pool never holds more than `size` workers."""
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)
        return await self._start() if self._claim() else None

    async def run(self, req: Request, client: str = "") -> Outcome:
        worker: _Worker | None = await self._acquire(client)
        try:
            for _ in range(2):  # a worker found dead before the query was sent is replaced, and the query retried
                if worker is None:
                    break
                try:
                    return await worker.ask(req, self.timeout)
                except WorkerGone:
                    worker = await self._replace(worker)
            raise Busy  # no worker could be started
        except WorkerDied:
            worker = await self._replace(worker) if worker is not None else None
            return Outcome(503, message=f"The query needed more than {self.limits.memory_mb} MB of memory, or "
                                        "stopped its worker, and was stopped.")  # fmt: skip
        except BaseException as e:  # the time limit, or the caller gone: the worker may still be busy, so it goes
            if worker is not None and not isinstance(e, Busy):
                worker = await self._replace(worker)
            raise
        finally:
            await self._release(client, worker)

    def close(self) -> None:
        with self._lock:
            for worker in self._all:
                worker.kill()
            self._all.clear()
