"""The process SPARQL workers are forked from, and the web process's handle on each worker.

A worker used to be a fresh interpreter that imported the engine and copied the store into memory: about half
a second on the demo KB, and longer the larger the KB, every time a query of death was stopped and its worker
replaced. The zygote does that once. It is a spawned process that loads the store into memory — through a
short-lived child that opens the on-disk store and writes it out as N-Quads, so the zygote itself never starts
the storage engine's threads and stays single-threaded, safe to fork — and then forks a worker whenever the
web process asks: a few milliseconds, the store shared copy-on-write.

The web process sends the zygote one end of a new pipe (SCM_RIGHTS) and gets the worker's process id back;
the worker talks to the web process on that pipe alone. The zygote reaps its children itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing as mp
import os
import signal
import threading
import time
from multiprocessing import reduction
from multiprocessing.connection import Connection
from typing import Any

import pyoxigraph as ox

from service.sparql.sandbox import enter_namespace, load_libraries
from service.sparql.worker import Limits, Outcome, RemoteSource, Request, Source, serve

START_WAIT = 600.0  # seconds the zygote may take to load the store (a 100x KB takes minutes)
READY_WAIT = 60.0  # seconds a forked worker may take to say it is ready


class WorkerDied(Exception):
    """The worker stopped while running the query: it passed the memory limit, or crashed."""


class WorkerGone(Exception):
    """The worker had stopped before the query was sent: another takes it."""


class QueryTimeout(Exception):
    """The query passed its time limit."""


class Stopped(Exception):
    """The pool stopped the query (to let a waiting query of another client run)."""


def _one_malloc_arena() -> None:
    """One malloc arena for every thread (glibc's M_ARENA_MAX): each arena reserves address space, so a worker's
    size, and the memory limit set on top of it, does not depend on how many threads ever ran."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX


def _die_with_parent(parent: int) -> None:
    """This process is killed when its parent ends (PR_SET_PDEATHSIG): a worker never outlives its zygote, which
    ends when the web process does (its control pipe closes), even in the middle of a query of death."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


def _load(folder: str) -> ox.Store:
    """The store in folder, copied into memory (2-4x faster to query than the read-only disk store) without
    opening it in this process: a forked child opens it and writes every quad to a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: open, write, exit (its storage-engine threads end with it)
        code = 1
        try:
            os.close(read)
            with os.fdopen(write, "wb") as out:
                ox.Store.read_only(folder).dump(out, format=ox.RdfFormat.N_QUADS)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    store = ox.Store()
    try:
        with os.fdopen(read, "rb") as data:
            store.load(data, format=ox.RdfFormat.N_QUADS)
    finally:
        _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"the store in {folder} could not be read")
    return store


def _main(source: Source, prefixes: dict[str, str], control: Connection, limits: Limits) -> None:
    _one_malloc_arena()
    if limits.sandbox:
        load_libraries()  # once here, not in every worker forked from here
    if limits.sandbox and not isinstance(source, RemoteSource):
        enter_namespace()  # the workers are forked into this empty network namespace, instead of each making its own
    try:
        store = None if isinstance(source, RemoteSource) else _load(source)
    except (OSError, RuntimeError, ValueError) as e:
        control.send(("failed", str(e)))
        return
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers: no zombie is ever left
    control.send(("ready", ""))
    while True:
        try:
            control.recv()  # "fork"
            fd = reduction.recv_handle(control)
        except (EOFError, OSError):
            return  # the web process is gone
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                control.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                _die_with_parent(zygote)
                serve(store, source, prefixes, Connection(fd), limits)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(fd)
        control.send(pid)


class Zygote:
    """The zygote of one pool, started (and, if it died, started again) on demand."""

    def __init__(self, source: Source, prefixes: dict[str, str], limits: Limits) -> None:
        self.source, self.prefixes, self.limits = source, prefixes, limits
        self._ctx = mp.get_context("spawn")  # a fresh interpreter: no copy of the web app's state
        self._lock = threading.Lock()  # one fork request at a time on the control pipe
        self._process: Any = None
        self._control: Connection | None = None

    def _start(self) -> Connection:
        control, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_main, args=(self.source, self.prefixes, child, self.limits), daemon=True)
        process.start()
        child.close()
        try:
            if not control.poll(START_WAIT):
                raise RuntimeError(f"the SPARQL zygote did not load the store within {START_WAIT:.0f} s")
            word, why = control.recv()
        except EOFError:  # it stopped while loading the store: no memory for it, say
            process.join(5)
            raise RuntimeError(f"the SPARQL zygote stopped while loading the store (exit {process.exitcode})") from None
        if word != "ready":
            process.join(5)
            raise RuntimeError(f"the SPARQL zygote did not start: {why}")
        self._process, self._control = process, control
        return control

    def fork(self) -> tuple[int, Connection]:
        """A new worker's process id and the web process's end of its pipe."""
        with self._lock:
            for attempt in range(2):
                control = self._control if self._process is not None and self._process.is_alive() else None
                if control is None:
                    self.close()
                    control = self._start()
                ours, theirs = self._ctx.Pipe()
                try:
                    control.send("fork")
                    reduction.send_handle(control, theirs.fileno(), self._process.pid)
                    pid: int = control.recv()
                    return pid, ours
                except (EOFError, OSError):  # the zygote died (killed for memory, say): start it again, once
                    ours.close()
                    self.close()
                    if attempt:
                        raise RuntimeError("the SPARQL zygote stopped") from None
                finally:
                    theirs.close()
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
            self._process = None


class Process:
    """A forked worker seen from the web process, which is not its parent: it can be killed and waited for."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.exitcode: int | None = None

    def is_alive(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/stat", encoding="ascii") as f:
                return f.read().rpartition(")")[2].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.pid, signal.SIGKILL)

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        if not self.is_alive():
            self.exitcode = -signal.SIGKILL


class Worker:
    """One worker process and its pipe."""

    def __init__(self, zygote: Zygote) -> None:
        pid, self.parent = zygote.fork()
        self.process = Process(pid)
        try:
            if not self.parent.poll(READY_WAIT):
                raise RuntimeError(f"a SPARQL worker did not start within {READY_WAIT:.0f} s")
            word, self.walls = self.parent.recv()
        except EOFError:
            self.process.join(5)
            raise RuntimeError("a SPARQL worker stopped while starting") from None
        if word != "ready":
            self.kill()
            raise RuntimeError(f"a SPARQL worker did not start: {self.walls}")

    async def ask(self, req: Request, timeout: float, stop: asyncio.Future[None]) -> Outcome:
        """Send the query and wait for the answer on the event loop (no thread): the pipe readable, the time limit,
        or `stop` set by the pool (which then raises its exception here)."""
        loop = asyncio.get_running_loop()
        fd = self.parent.fileno()

        def readable() -> None:
            if not stop.done():
                stop.set_result(None)

        try:
            self.parent.send(req)
        except OSError:  # it died after its last answer (an abort while freeing memory): never ran this query
            raise WorkerGone from None
        def expired() -> None:
            if not stop.done():
                stop.set_exception(QueryTimeout())

        loop.add_reader(fd, readable)
        timer = loop.call_later(timeout, expired)
        try:
            await stop  # readable; or Stopped, set by the pool, or QueryTimeout, raised from here
        finally:
            timer.cancel()
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
