"""The question log (main seed §10): what visitors asked and how the engine answered, to learn from privately.

Every question answered over HTTP (the ask page, /api/ask, a follow-up chip) becomes one row, written after the
response is sent by a thread of its own: asked_at (UTC, to the second), channel (page, api, followup), the
question, the previous question if the request gave one, the route, the confidence level and score, the first
result, the planning time, and later whether a source or a follow-up of that answer was opened. Never an
address, a user agent, a cookie or anything else that identifies a visitor: an answer carries a random id of
its own (in the links of its page), which is how an opened source finds its row.

SQLite by default (one file, WAL, safe with several web workers); PostgreSQL with LOG_DATABASE_URL=postgresql://
(psycopg 3), for replicas sharing one log. Writing never slows or fails an answer: a row that cannot be written
is dropped and counted (/healthz). QUESTION_LOG=off writes nothing; rows older than LOG_RETENTION_DAYS go.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from pathlib import Path
from typing import Any

from service.config import ROOT, setting
from service.errors import FolioError
from service.questionlog.store import COLUMNS, Store, open_store

log = logging.getLogger("service.questionlog")
DEFAULT_SQLITE = ROOT / "var" / "log" / "questions.sqlite3"
GATHER = 0.5  # seconds the writer lets rows gather between transactions
QUEUE = 20_000  # rows waiting to be written, at most; more are dropped (and counted)
OPENED_WAIT = 120.0  # seconds an opening waits for its answer's row
_ROW = attrgetter(*COLUMNS)


@dataclass(frozen=True)
class Entry:
    answer: str  # a random id of this answer (not of the visitor)
    asked_at: str
    channel: str
    question: str
    previous: str | None
    route: str
    level: str
    score: int
    first_result: str | None
    plan_ms: float
    opened: str | None = None

    def row(self) -> tuple[Any, ...]:
        """The values in the order of the table's columns."""
        values: tuple[Any, ...] = _ROW(self)
        return values

    def as_dict(self) -> dict[str, Any]:
        return dict(zip(COLUMNS, self.row(), strict=True))


_stamp = {"second": 0, "text": ""}


def now() -> str:
    """UTC to the second (made once a second: a busy server asks thousands of times)."""
    second = int(time.time())
    if _stamp["second"] != second:
        _stamp.update(second=second, text=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
    return str(_stamp["text"])


def database_url() -> str:
    return setting("LOG_DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE}"


class _Ids:
    """Ids of answers: the second they were made (8 hex digits, so that the log's index grows at its end, which
    halves the cost of a row) and 32 random bits from the system's generator, fetched 8 KiB at a time (one call
    can take 15 µs here, too much for every answer of a busy server)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer, self._at, self._pid = b"", 0, 0

    def next(self) -> str:
        with self._lock:
            if self._at + 4 > len(self._buffer) or self._pid != os.getpid():  # a forked worker draws its own
                self._buffer, self._at, self._pid = secrets.token_bytes(8192), 0, os.getpid()
            self._at += 4
            return f"{int(time.time()):08x}{self._buffer[self._at - 4 : self._at].hex()}"


_ids = _Ids()


def new_id() -> str:
    """The id of one answer: what links an opened source to its row, and nothing else."""
    return _ids.next()


def entry_for(plan: Any, channel: str, answer: str | None = None) -> Entry:
    """The row of one answered plan, asked now."""
    first = plan.results[0].iri if plan.results else None
    return Entry(answer or new_id(), now(), channel, plan.question[:500], plan.previous or None, plan.route,
                 plan.confidence.level, int(plan.confidence.score), first, round(float(plan.timing_ms), 3))  # fmt: skip


class QuestionLog:
    """A writer that never makes a request wait: `record` and `mark_opened` append to a deque (no lock), and a
    thread of its own wakes every GATHER seconds to write what gathered in one transaction. A busy server thus
    pays a few microseconds a request, not a transaction, and the thread does not wake at every answer."""

    def __init__(self, url: str | None = None, retention_days: int | None = None, max_rows: int | None = None) -> None:
        self.url = url or database_url()
        self.retention = int(setting("LOG_RETENTION_DAYS")) if retention_days is None else retention_days
        self.max_rows = int(setting("LOG_MAX_ROWS")) if max_rows is None else max_rows
        self.written = self.dropped = self.unlogged = 0
        self._rows_held: int | None = None  # rows in the table, as counted at the last trim (and written since)
        self._rows: deque[tuple[Any, ...]] = deque()
        self._opened: deque[tuple[str, str]] = deque()
        self._wake = threading.Event()  # set by flush and close: write now
        self._cycles = 0  # rounds of writing done
        self._stopping = False
        self._store: Store | None = None
        self._pending: dict[str, tuple[str, float]] = {}  # answer id -> (what was opened, until when to try)
        self._warned = float("-inf")
        self._thread = threading.Thread(target=self._run, name="question-log", daemon=True)
        self._thread.start()

    @property
    def backend(self) -> str:
        return self.url.split(":", 1)[0]

    def record(self, entry: Entry) -> None:
        if len(self._rows) >= QUEUE:
            self.dropped += 1
        else:
            self._rows.append(entry.row())

    def mark_opened(self, answer: str, kind: str) -> None:
        well_formed = len(answer) == 16 and all(c in "0123456789abcdef" for c in answer)
        if well_formed and kind in ("source", "followup") and len(self._opened) < QUEUE:
            self._opened.append((answer, kind))

    def _connect(self) -> Store | None:
        if self._store is None:
            try:
                self._store = open_store(self.url)
                self._store.prune(datetime.now(UTC) - timedelta(days=self.retention))
            except Exception as e:  # a down database or a full disk: the answers go on, the log lines are counted
                self._warn("question log unavailable", e)
                self._store = None
        return self._store

    def _warn(self, what: str, e: Exception) -> None:
        """At most one warning a minute: a full disk must not fill the server's own log as well."""
        if time.monotonic() - self._warned > 60:
            log.warning("%s: %s (%d lines dropped so far)", what, type(e).__name__, self.dropped)
            self._warned = time.monotonic()

    def _run(self) -> None:
        self._connect()  # at once: the table exists from the start, and a database that is down is said so
        pruned = time.monotonic()
        while True:
            self._wake.wait(GATHER)
            self._wake.clear()
            stopping = self._stopping
            self._write()
            if self._store is not None and time.monotonic() - pruned > 3600:
                with contextlib.suppress(Exception):
                    self._store.prune(datetime.now(UTC) - timedelta(days=self.retention))
                pruned = time.monotonic()
            self._cycles += 1
            if stopping:
                return

    def _write(self) -> None:
        rows = [self._rows.popleft() for _ in range(len(self._rows))]
        for _ in range(len(self._opened)):
            answer, kind = self._opened.popleft()
            self._pending.setdefault(answer, (kind, time.monotonic() + OPENED_WAIT))
        if not rows and not self._pending:
            return
        store = self._connect()
        if store is None:
            self.dropped += len(rows)
            return
        try:
            store.insert(rows)
            self.written += len(rows)
            self._bound(store, len(rows))
            self._mark(store)
        except Exception as e:
            self.dropped += len(rows)
            self._warn("question log lines dropped", e)
            with contextlib.suppress(Exception):
                store.close()
            self._store = None

    def _bound(self, store: Store, added: int) -> None:
        """Past LOG_MAX_ROWS rows the oldest go, down to nine tenths of it: the log's size has a bound whatever
        the traffic (several workers sharing the table each count it again when they trim)."""
        if self._rows_held is None:
            self._rows_held = store.count()
        else:
            self._rows_held += added
        if self._rows_held > self.max_rows:
            store.trim(self.max_rows * 9 // 10)
            self._rows_held = store.count()

    def _mark(self, store: Store) -> None:
        """Mark the answers whose source or follow-up was opened. An opening can arrive before its answer's row
        (the next request can beat the response's background task, or go to another worker): it waits a while."""
        moment = time.monotonic()
        for answer, (kind, deadline) in list(self._pending.items()):
            if store.opened(answer, kind) or moment > deadline:
                del self._pending[answer]

    def flush(self, timeout: float = 5.0) -> None:
        """Write everything recorded so far, now: wait for a whole round of writing begun after this call."""
        target, deadline = self._cycles + 2, time.monotonic() + timeout
        while self._cycles < target and self._thread.is_alive() and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.005)

    def close(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join(10)
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.close()

    def health(self) -> dict[str, Any]:
        return {"backend": self.backend, "written": self.written, "dropped": self.dropped, "unlogged": self.unlogged}


ON, OFF = ("on", "true", "1", "yes"), ("off", "false", "0", "no")


def check_settings() -> None:
    """The log's settings, checked before serving: a typo stops the server with a clear message instead of
    silently logging nothing."""
    if setting("QUESTION_LOG").lower() not in ON + OFF:
        raise FolioError(f"QUESTION_LOG is on or off, not {setting('QUESTION_LOG')!r}")
    most = setting("LOG_MAX_ROWS")
    if not most.isdigit() or int(most) < 100:
        raise FolioError(f"LOG_MAX_ROWS is a whole number of rows, at least 100, not {most!r}")
    per_client = setting("LOG_CLIENT_PER_MINUTE")
    if not per_client.isdigit() or int(per_client) < 1:
        raise FolioError(f"LOG_CLIENT_PER_MINUTE is a whole number, at least 1, not {per_client!r}")
    retention = setting("LOG_RETENTION_DAYS")
    if not retention.isdigit() or int(retention) < 1:
        raise FolioError(f"LOG_RETENTION_DAYS is a whole number of days, at least 1, not {retention!r}")
    url = database_url()
    if not url.startswith(("sqlite:///", "postgresql://", "postgres://")):
        raise FolioError("LOG_DATABASE_URL is sqlite:///PATH or postgresql://USER@HOST/DATABASE")
    if url.startswith("postgres") and importlib.util.find_spec("psycopg") is None:
        raise FolioError("a PostgreSQL question log needs psycopg: pip install '.[postgres]'")


def open_log() -> QuestionLog | None:
    """The log the settings ask for, or None with QUESTION_LOG=off."""
    if setting("QUESTION_LOG").lower() in OFF:
        return None
    url = database_url()
    if url.startswith("sqlite:///"):
        try:
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # the writer finds the same fault and counts what it drops; serving goes on
            log.warning("question log directory unavailable: %s", type(e).__name__)
    return QuestionLog(url)
