"""The pool of SPARQL workers and its scheduler. pyoxigraph cannot time out or cancel a query in-process, so each
query runs in a worker process (service/sparql/zygote.py) that is killed, and replaced in milliseconds, when the
query passes the time limit or the scheduler stops it. A query of death never blocks the ask page (it runs in
the web process) or the other workers.

The scheduler is fair between clients, by the query time each used lately (service/sparql/usage.py):

- a waiting query goes to the next free worker by its client's use (least first; queries that run count; the
  earliest between equals), so one client's backlog never holds the others;
- while queries wait and no worker is free, a query that has run SPARQL_FAIR_SHARE seconds is stopped (503 with
  Retry-After) for a waiting query of a client that has used at least that much less: under a flood of queries of
  death from many clients, a small query of another client runs within about that share;
- a client whose use passed SPARQL_CLIENT_BUDGET gets 429 with Retry-After until it has decayed below;
- a client that already runs a query may not take the last free worker;
- waiting is bounded (SPARQL_QUEUE, SPARQL_QUEUE_WAIT); a newcomer to a full queue takes the place of the
  waiter last in this order, if it comes before it.
Without contention a query runs up to SPARQL_TIMEOUT, whoever sent it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from collections import Counter
from dataclasses import dataclass, field

from service.sparql.usage import Usage
from service.sparql.worker import Limits, Outcome, RemoteSource, Request, Source, execute, take
from service.sparql.zygote import QueryTimeout, Stopped, Worker, WorkerDied, WorkerGone, Zygote

__all__ = [
    "Busy",
    "Limits",
    "Outcome",
    "OverBudget",
    "Pool",
    "QueryTimeout",
    "RemoteSource",
    "Request",
    "Source",
    "Stopped",
    "execute",
    "take",
]  # fmt: skip

log = logging.getLogger("service.sparql.pool")
MIN_GRAIN = 0.25  # seconds of use below which clients are equals in the queue (with no fair share set)
POLL = 0.25  # seconds between a waiting query's looks for a query to stop, when none may be stopped yet


class Busy(Exception):
    """Every worker is taken and the wait for one was too long (or too many are waiting)."""


class OverBudget(Exception):
    """The client used more query time lately than its budget."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(eq=False)
class _Run:
    client: str
    started: float
    stop: asyncio.Future[None]
    stopping: bool = False


@dataclass(eq=False)
class _Waiter:
    client: str
    arrived: float
    granted: asyncio.Future[Worker] = field(repr=False)


class Pool:
    """`size` worker processes over a store; `run` waits for a worker, within limits, fairly between clients."""

    def __init__(self, source: Source, prefixes: dict[str, str], limits: Limits, usage: Usage | None = None) -> None:
        """`usage`: where clients' use of query time is counted (this pool's own by default); the pool closes it."""
        self.source, self.prefixes, self.limits = source, prefixes, limits
        self.timeout = limits.timeout
        self.usage = usage or Usage(limits.window, limits.budget)
        self._zygote = Zygote(source, prefixes, limits)
        self._idle: list[Worker] = []
        self._all: list[Worker] = []
        self._lock = threading.Lock()
        self._starting = 0  # workers being started (in a thread): they count toward `size` already
        self._running: Counter[str] = Counter()  # queries each client runs in this process
        self._runs: list[_Run] = []
        self._waiters: list[_Waiter] = []
        for _ in range(max(1, limits.size)):
            self._idle.append(self._spawn())
        self.walls: list[str] = list(self._all[0].walls) if self._all else []

    def _spawn(self) -> Worker:
        self._zygote.source = self.source  # (a test points it at a missing store)
        worker = Worker(self._zygote)
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

    async def _start(self) -> Worker | None:
        """A new worker in a claimed place, or None when none can be started now (the next query retries). When
        the query it was started for is cancelled meanwhile (its client went away), the start goes on and the
        worker joins the pool: a worker started in a thread and dropped would count toward `size` for good."""
        starting = asyncio.ensure_future(self._started())
        try:
            return await asyncio.shield(starting)
        except asyncio.CancelledError:
            starting.add_done_callback(self._adopt)
            raise

    async def _started(self) -> Worker | None:
        try:
            return await asyncio.to_thread(self._spawn)
        except (OSError, RuntimeError) as e:
            log.warning("a SPARQL worker could not be started: %s", e)
            return None
        finally:
            with self._lock:
                self._starting -= 1  # once the worker is in `_all`, or will not be

    def _adopt(self, starting: asyncio.Future[Worker | None]) -> None:
        """A worker started for a query that was cancelled: free for the next one."""
        if not starting.cancelled() and starting.exception() is None and (worker := starting.result()) is not None:
            self._give(worker)

    # -- fairness

    def _rank(self, client: str, now: float) -> float:
        """The client's use: decayed past queries, and the time its running queries have run so far."""
        running = sum(now - run.started for run in self._runs if run.client == client) if self._running[client] else 0
        return self.usage.used(client, now) + running

    def _order(self, waiter: _Waiter, now: float) -> tuple[float, float]:
        """Which waiting query goes first: the one whose client used least, counted in whole shares (clients a few
        milliseconds apart are equals); between equals, the earliest (first come, first served keeps the
        slowest answers bounded when the server is saturated)."""
        grain = max(self.limits.share, MIN_GRAIN)
        return math.floor(self._rank(waiter.client, now) / grain), waiter.arrived

    def _may_take(self, client: str, free: int) -> bool:
        """Not the last free worker for a client that already has one running (unless the pool has one worker)."""
        return free > 1 or self._running[client] == 0 or len(self._all) <= 1

    def _give(self, worker: Worker) -> None:
        """A free worker to the waiting query whose client used least (then the earliest), or to the idle ones."""
        now = asyncio.get_running_loop().time()
        free = len(self._idle) + 1
        waiting = [w for w in self._waiters if not w.granted.done() and self._may_take(w.client, free)]
        if not waiting:
            self._idle.append(worker)
            return
        # the waiters are in the order they came: the first whose client used less than a share comes first of all
        # (the usual case, found without ranking the others)
        first = next((w for w in waiting if self._order(w, now)[0] == 0), None)
        chosen = first or min(waiting, key=lambda w: self._order(w, now))
        self._waiters.remove(chosen)
        chosen.granted.set_result(worker)

    def _stop_for_waiters(self, now: float) -> None:
        """Stop running queries for waiting ones: each waiter, by rank, not yet covered by a query being stopped,
        stops the query of the heaviest client among those that ran their share and used `share` more."""
        share = self.limits.share
        if share <= 0 or self._idle or not any(now - run.started >= share for run in self._runs if not run.stopping):
            return  # (no query has run its share yet: none may be stopped, whoever waits)
        covered = sum(run.stopping for run in self._runs)
        for waiter in sorted(self._waiters, key=lambda w: self._order(w, now)):
            if covered > 0:
                covered -= 1
                continue
            floor = self._rank(waiter.client, now) + share
            victims = [run for run in self._runs if not run.stopping and now - run.started >= share
                       and run.client != waiter.client and self._rank(run.client, now) >= floor]  # fmt: skip
            if not victims:
                return  # the waiters after this one used as much or more: they cannot stop a query either
            victim = max(victims, key=lambda run: self._rank(run.client, now))
            victim.stopping = True
            if not victim.stop.done():
                victim.stop.set_exception(Stopped())

    def _next_look(self, now: float) -> float:
        """Seconds until a running query will have run its share (when a waiter may stop it), at most POLL."""
        due = [run.started + self.limits.share - now for run in self._runs if not run.stopping]
        return min([POLL, *(max(0.01, d) for d in due)])

    # -- waiting

    async def _acquire(self, client: str) -> Worker:
        loop = asyncio.get_running_loop()
        now = loop.time()
        retry = self.usage.wait_for_budget(client, now)
        if retry > 0:
            raise OverBudget(retry)
        if not self._idle and self._claim():
            worker = await self._start()  # a worker that could not be replaced earlier: try again
            if worker is not None:
                self._idle.append(worker)
        if self._idle and self._may_take(client, len(self._idle)):
            return self._idle.pop()
        waiter = _Waiter(client, now, loop.create_future())
        if len(self._waiters) >= self.limits.queue:  # full: the newcomer takes the place of a heavier waiter
            worst = max(self._waiters, key=lambda w: self._order(w, now))
            if self._order(worst, now) <= self._order(waiter, now):
                raise Busy
            self._waiters.remove(worst)
            worst.granted.set_exception(Busy())
        self._waiters.append(waiter)
        deadline = now + self.limits.queue_wait
        got: Worker | None = None
        try:
            while not waiter.granted.done():
                now = loop.time()
                self._stop_for_waiters(now)
                if now >= deadline:
                    raise Busy
                # asyncio.wait, not wait_for: in Python 3.11 wait_for returns a worker granted in the loop turn the
                # caller is cancelled in, and drops the cancellation (the query of a client gone then runs)
                await asyncio.wait({waiter.granted}, timeout=min(deadline - now, self._next_look(now)))
            got = waiter.granted.result()
            return got
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            granted = waiter.granted
            if got is None and granted.done() and not granted.cancelled() and granted.exception() is None:
                self._give(granted.result())  # granted as the wait ended, or as the caller went away

    async def _replace(self, worker: Worker) -> Worker | None:
        """A new worker in place of this one, or None when none can be started now, or the pool is full again
        (another query refilled it meanwhile): the pool never holds more than `size` workers."""
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)
        return await self._start() if self._claim() else None

    async def run(self, req: Request, client: str = "") -> Outcome:
        loop = asyncio.get_running_loop()
        worker: Worker | None = await self._acquire(client)
        run = _Run(client, loop.time(), loop.create_future())
        self._runs.append(run)
        self._running[client] += 1
        try:
            for _ in range(2):  # a worker found dead before the query was sent is replaced, and the query retried
                if worker is None:
                    break
                try:
                    return await worker.ask(req, self.timeout, run.stop)
                except WorkerGone:
                    worker = await self._replace(worker)
            raise Busy  # no worker could be started
        except WorkerDied:
            worker = await self._replace(worker) if worker is not None else None
            return Outcome(503, message=f"The query needed more than {self.limits.memory_mb} MB of memory, or "
                                        "stopped its worker, and was stopped.")  # fmt: skip
        except BaseException as e:  # the time limit, stopped, or the caller gone: the worker may still be busy
            if worker is not None and not isinstance(e, Busy):
                worker = await self._replace(worker)
            raise
        finally:
            self._runs.remove(run)
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]
            self.usage.add(client, loop.time() - run.started, loop.time())
            if worker is not None:
                self._give(worker)

    def close(self) -> None:
        with self._lock:
            for worker in self._all:
                worker.kill()
            self._all.clear()
        self._zygote.close()
        self.usage.close()
