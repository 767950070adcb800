"""Where the question log is kept: SQLite (the standard library, WAL) or PostgreSQL (psycopg 3)."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any, Protocol

COLUMNS = ("answer", "asked_at", "channel", "question", "previous", "route", "level", "score", "first_result",
           "plan_ms", "opened")  # fmt: skip
_CREATE = """
CREATE TABLE IF NOT EXISTS questions (
    answer       TEXT PRIMARY KEY,  -- a random id of the answer, never of a visitor
    asked_at     TEXT NOT NULL,     -- UTC, to the second: 2026-12-01T09:30:00Z
    channel      TEXT NOT NULL,     -- page, api or followup
    question     TEXT NOT NULL,
    previous     TEXT,              -- the question the request said came before, if any
    route        TEXT NOT NULL,
    level        TEXT NOT NULL,     -- exact, strong, weak or none
    score        INTEGER NOT NULL,
    first_result TEXT,              -- the first result's IRI
    plan_ms      REAL NOT NULL,
    opened       TEXT               -- source or followup, once one of them was opened
)"""
_INDEX = "CREATE INDEX IF NOT EXISTS questions_asked_at ON questions (asked_at)"


class Store(Protocol):
    def insert(self, rows: list[tuple[Any, ...]]) -> None: ...
    def opened(self, answer: str, kind: str) -> bool: ...
    def prune(self, before: datetime) -> None: ...
    def count(self) -> int: ...
    def trim(self, keep: int) -> None: ...
    def rows(self, since: str) -> list[dict[str, Any]]: ...
    def version(self, since: str) -> tuple[int, str]: ...
    def close(self) -> None: ...


class _SqlStore:
    """The statements both databases share; `_mark` is the driver's placeholder."""

    _mark = "?"

    def __init__(self, db: Any) -> None:
        self.db = db

    def _sql(self, text: str) -> str:
        return text.replace("?", self._mark)

    def _insert(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def insert(self, rows: list[tuple[Any, ...]]) -> None:
        """Rows in the order of COLUMNS, in one transaction; an answer already there is left alone."""
        if rows:
            self._insert(f"INTO questions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})", rows)

    def opened(self, answer: str, kind: str) -> bool:
        """Mark the answer's row (the first opening is kept); False when there is no such row (yet)."""
        cursor = self.db.execute(self._sql("UPDATE questions SET opened = COALESCE(opened, ?) WHERE answer = ?"),
                                 (kind, answer))  # fmt: skip
        return bool(cursor.rowcount > 0)

    def prune(self, before: datetime) -> None:
        self.db.execute(self._sql("DELETE FROM questions WHERE asked_at < ?"), (before.strftime("%Y-%m-%dT%H:%M:%SZ"),))

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM questions").fetchone()[0])

    def trim(self, keep: int) -> None:
        """Only the `keep` most recent rows stay (the log's bound, LOG_MAX_ROWS)."""
        self.db.execute(self._sql("DELETE FROM questions WHERE asked_at < (SELECT asked_at FROM questions "
                                  "ORDER BY asked_at DESC LIMIT 1 OFFSET ?)"), (max(0, keep - 1),))  # fmt: skip

    def version(self, since: str) -> tuple[int, str]:
        """How many rows there are since the date, and the last one's time: what a report of them depends on."""
        query = "SELECT COUNT(*), MAX(asked_at) FROM questions WHERE asked_at >= ?"
        count, last = self.db.execute(self._sql(query), (since,)).fetchone()
        return int(count), str(last or "")

    def rows(self, since: str) -> list[dict[str, Any]]:
        query = f"SELECT {', '.join(COLUMNS)} FROM questions WHERE asked_at >= ? ORDER BY asked_at"
        return [dict(zip(COLUMNS, r, strict=True)) for r in self.db.execute(self._sql(query), (since,)).fetchall()]

    def close(self) -> None:
        self.db.close()


class SqliteStore(_SqlStore):
    def __init__(self, path: str) -> None:
        super().__init__(sqlite3.connect(path, timeout=10, check_same_thread=False, isolation_level=None))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # in WAL, safe from corruption; a crash may lose the last batch
        self.db.execute("PRAGMA busy_timeout=10000")
        self.db.execute(_CREATE)
        self.db.execute(_INDEX)

    def _insert(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        self.db.execute("BEGIN")
        try:
            self.db.executemany("INSERT OR IGNORE " + statement, rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise


class PostgresStore(_SqlStore):
    _mark = "%s"

    def __init__(self, url: str) -> None:
        import psycopg  # noqa: PLC0415  # an optional dependency: only a PostgreSQL log needs it

        super().__init__(psycopg.connect(url, autocommit=True, connect_timeout=5))
        self.db.execute(_CREATE.replace("REAL", "DOUBLE PRECISION"))
        self.db.execute(_INDEX)

    def _insert(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        with self.db.transaction(), self.db.cursor() as cursor:
            cursor.executemany(self._sql("INSERT " + statement + " ON CONFLICT (answer) DO NOTHING"), rows)


def open_store(url: str) -> Store:
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"))
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise ValueError("LOG_DATABASE_URL is sqlite:///PATH or postgresql://...")
