"""The question log's store: ours (service/questionlog/store.py: sqlite3 or psycopg 3, the statements shared)
against SQLAlchemy 2.1 Core (one Table; each dialect's insert with on_conflict_do_nothing; the same SQLite
pragmas), in turns, on SQLite and a real PostgreSQL: 100,000 rows written in transactions of 500 (as the
writer thread does), 2,000 answers marked opened, and every row since a date read back (the misses report)."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import psycopg
import sqlalchemy as sa
from common import in_turns
from postgres import postgres
from sqlalchemy.dialects import postgresql, sqlite

from service.questionlog.store import COLUMNS, open_store

META = sa.MetaData()
QUESTIONS = sa.Table(
    "questions", META,
    sa.Column("answer", sa.Text, primary_key=True), sa.Column("asked_at", sa.Text, nullable=False, index=True),
    sa.Column("channel", sa.Text, nullable=False), sa.Column("question", sa.Text, nullable=False),
    sa.Column("previous", sa.Text), sa.Column("route", sa.Text, nullable=False),
    sa.Column("level", sa.Text, nullable=False), sa.Column("score", sa.Integer, nullable=False),
    sa.Column("first_result", sa.Text), sa.Column("plan_ms", sa.Float, nullable=False), sa.Column("opened", sa.Text),
)  # fmt: skip


class SqlAlchemyStore:
    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"), pool_pre_ping=True)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", self._pragmas)
        META.create_all(self.engine)
        self.insert_of = sqlite.insert if self.engine.dialect.name == "sqlite" else postgresql.insert

    @staticmethod
    def _pragmas(db: Any, _: Any) -> None:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=10000"):
            db.execute("PRAGMA " + pragma)

    def insert(self, rows: list[tuple[Any, ...]]) -> None:
        with self.engine.begin() as db:
            db.execute(
                self.insert_of(QUESTIONS).on_conflict_do_nothing(), [dict(zip(COLUMNS, r, strict=True)) for r in rows]
            )

    def opened(self, answer: str, kind: str) -> bool:
        update = QUESTIONS.update().where(QUESTIONS.c.answer == answer)
        with self.engine.begin() as db:
            return db.execute(update.values(opened=sa.func.coalesce(QUESTIONS.c.opened, kind))).rowcount > 0

    def rows(self, since: str) -> list[dict[str, Any]]:
        query = sa.select(*[QUESTIONS.c[n] for n in COLUMNS]).where(QUESTIONS.c.asked_at >= since)
        with self.engine.connect() as db:
            return [dict(r._mapping) for r in db.execute(query.order_by(QUESTIONS.c.asked_at))]

    def close(self) -> None:
        self.engine.dispose()


def rows(n: int, first: int) -> list[tuple[Any, ...]]:
    return [(f"{first + i:016x}", f"2026-{1 + i * 11 // n:02d}-{1 + i % 28:02d}T10:00:{i % 60:02d}Z", "page",
             f"question number {i} about rust projects", None, "works_by_technology", "strong", 80,
             "https://example.org/id/x", 1.234, None) for i in range(n)]  # fmt: skip


def work(store: Any, first: int, part: dict[str, float]) -> None:
    data = rows(100_000, first)
    started = time.perf_counter()
    for i in range(0, len(data), 500):
        store.insert(data[i : i + 500])
    part["write"] = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(0, len(data), 50):
        store.opened(data[i][0], "source")
    part["opened"] = time.perf_counter() - started
    started = time.perf_counter()
    assert len(store.rows("2026-01-01")) == len(data)
    part["read"] = time.perf_counter() - started
    store.close()


def compare(where: str, fresh: Callable[[], str]) -> None:
    parts: dict[str, dict[str, list[float]]] = {"ours": {}, "sqlalchemy": {}}

    def one(name: str) -> float:
        url, got = fresh(), {}
        work(open_store(url) if name == "ours" else SqlAlchemyStore(url), len(parts[name]) * 10**7, got)
        for key, seconds in got.items():
            parts[name].setdefault(key, []).append(seconds)
        return sum(got.values())

    in_turns({"ours": lambda: one("ours"), "sqlalchemy": lambda: one("sqlalchemy")}, rounds=4)
    for name, got in parts.items():
        print(f"{where} {name}: " + " · ".join(f"{key} {statistics.median(s):.2f} s" for key, s in got.items()))


scratch = tempfile.mkdtemp()
made = iter(range(1000))
compare("SQLite", lambda: f"sqlite:///{scratch}/log{next(made)}.sqlite3")
with postgres() as server:

    def empty() -> str:
        with psycopg.connect(server, autocommit=True) as db:
            db.execute("DROP TABLE IF EXISTS questions")
        return server

    compare("PostgreSQL", empty)
