"""Worker processes for arbitrary SPARQL: pyoxigraph cannot time out or cancel a query in-process, so each
console query runs in a process of a small pool that is killed when it passes the time limit and replaced.
A query of death never blocks the ask page (it runs in the web process) or the other workers.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import pyoxigraph as ox

from service import sparql_text
from service.accept import choose
from service.sparql import results

T = TypeVar("T")
_POSITION = re.compile(r"error at (\d+):(\d+)")


@dataclass(frozen=True)
class Request:
    query: str
    accept: str
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()
    row_cap: int = 10_000
    base_iri: str | None = None  # relative IRIs in a query resolve against the endpoint's own address


@dataclass
class Outcome:
    status: int  # 200, or 400 (syntax), 406 (no acceptable format), 503/504
    media_type: str = "text/plain"
    body: bytes = b""
    rows: int = 0
    truncated: bool = False
    message: str = ""
    line: int | None = None
    column: int | None = None
    headers: dict[str, str] = field(default_factory=dict)


class QueryTimeout(Exception):
    pass


def take(items: Iterable[T], cap: int) -> tuple[list[T], bool]:
    """At most `cap` items, and whether there were more: a result is cut without being read to its end."""
    out: list[T] = []
    for item in items:
        if len(out) == cap:
            return out, True
        out.append(item)
    return out, False


def execute(store: ox.Store, req: Request, prefixes: dict[str, str]) -> Outcome:
    options: dict[str, Any] = {"prefixes": prefixes, "base_iri": req.base_iri}
    if req.default_graphs or req.named_graphs:
        options["default_graph"] = [ox.NamedNode(g) for g in req.default_graphs] or None
        options["named_graphs"] = [ox.NamedNode(g) for g in req.named_graphs] or None
        if options["default_graph"] is None:
            del options["default_graph"]
        if options["named_graphs"] is None:
            del options["named_graphs"]
    else:
        options["use_default_graph_as_union"] = True
    try:
        result = store.query(req.query, **options)
    except SyntaxError as e:
        m = _POSITION.search(str(e))
        message = str(e).split(": expected", 1)[0]
        return Outcome(400, message=message, line=int(m.group(1)) if m else None, column=int(m.group(2)) if m else None)
    except (ValueError, OSError) as e:
        return Outcome(400, message=str(e))
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
            native = results.native_json(result, req.row_cap, results.NATIVE_BUDGET)
            if native is not None:
                body, count, truncated = native
                return Outcome(200, media, body, rows=count, truncated=truncated)
            result = store.query(req.query, **options)  # too big for the buffer: again, written row by row
            assert isinstance(result, ox.QuerySolutions)
        variables = [v.value for v in result.variables]
        columns = list(range(len(variables)))
        if order:  # SELECT *: columns in the order the variables appear in the query
            rank = {v: n for n, v in enumerate(order)}
            columns.sort(key=lambda i: rank.get(variables[i], len(rank)))
            variables = [variables[i] for i in columns]
        solutions, truncated = take(result, req.row_cap)
        rows: list[results.Row] = [[values[i] for i in columns] for values in map(list, solutions)]
        body = results.select(variables, rows, results.SELECT_TYPES[media])
        return Outcome(200, media, body, rows=len(rows), truncated=truncated)
    media = choose(req.accept, results.GRAPH_TYPES, "text/turtle")
    if media is None:
        return Outcome(406, message="CONSTRUCT and DESCRIBE results are offered as " + ", ".join(results.GRAPH_TYPES))
    triples, truncated = take(result, req.row_cap)
    fmt = results.GRAPH_TYPES[media]
    body = ox.serialize(triples, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None) or b""
    return Outcome(200, media, body, rows=len(triples), truncated=truncated)


def _serve(store_dir: str, prefixes: dict[str, str], conn: Connection) -> None:
    disk = ox.Store.read_only(store_dir)
    store = ox.Store()
    store.extend(disk)  # an in-memory copy answers 2-4x faster than the read-only disk store
    del disk
    conn.send("ready")
    while True:
        try:
            req = conn.recv()
        except EOFError:
            return
        try:
            outcome = execute(store, req, prefixes)
        except Exception as e:  # a bug in a format, never the caller's fault: report, keep serving
            outcome = Outcome(500, message=f"{type(e).__name__}: {e}")
        conn.send(outcome)


class _Worker:
    def __init__(self, ctx: Any, store_dir: str, prefixes: dict[str, str]) -> None:
        self.parent, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(store_dir, prefixes, child), daemon=True)
        self.process.start()
        child.close()
        if not self.parent.poll(120) or self.parent.recv() != "ready":
            raise RuntimeError("a SPARQL worker did not start")

    def call(self, req: Request, timeout: float) -> Outcome:
        self.parent.send(req)
        if self.parent.poll(timeout):
            outcome: Outcome = self.parent.recv()
            return outcome
        raise QueryTimeout

    async def ask(self, req: Request, timeout: float) -> Outcome:
        """Send the query and wait for the answer on the event loop (no thread): readable pipe or time limit."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.parent.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            self.parent.send(req)
            await asyncio.wait_for(ready, timeout)
        except TimeoutError:
            raise QueryTimeout from None
        finally:
            loop.remove_reader(fd)
            os.set_blocking(fd, True)  # the loop made it non-blocking; the rest of a long answer is read in one go
        outcome: Outcome = self.parent.recv()
        return outcome

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.parent.close()


class Pool:
    """`size` worker processes over a read-only store; `run` waits for a free one."""

    def __init__(self, store_dir: str, prefixes: dict[str, str], size: int, timeout: float) -> None:
        self.store_dir, self.prefixes, self.timeout = store_dir, prefixes, timeout
        self._ctx = mp.get_context("spawn")  # a fresh interpreter: no copy of the web app's state
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        for _ in range(size):
            self._idle.put_nowait(self._spawn())

    def _spawn(self) -> _Worker:
        worker = _Worker(self._ctx, self.store_dir, self.prefixes)
        with self._lock:
            self._all.append(worker)
        return worker

    async def _replace(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._all.remove(worker)
        self._idle.put_nowait(await asyncio.to_thread(self._spawn))

    async def run(self, req: Request) -> Outcome:
        worker = await self._idle.get()
        try:
            outcome = await worker.ask(req, self.timeout)
        except BaseException:  # the time limit, or the caller gone: the worker may still be busy, so it goes
            await self._replace(worker)
            raise
        self._idle.put_nowait(worker)
        return outcome

    def close(self) -> None:
        with self._lock:
            for worker in self._all:
                worker.kill()
            self._all.clear()
