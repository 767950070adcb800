"""The question log's writer over real databases: SQLite files and a real PostgreSQL server."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service.engine import Planner
from service.questionlog import Entry, QuestionLog, entry_for
from service.questionlog.store import COLUMNS, open_store
from tests.conftest import TODAY
from tests.postgres import fresh_database


def _entry(planner: Planner, question: str, days_ago: int = 0) -> Entry:
    entry = entry_for(planner.plan(question, today=TODAY), "api")
    when = datetime.now(UTC) - timedelta(days=days_ago)
    return replace(entry, asked_at=when.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _written(log: QuestionLog) -> None:
    log.flush()
    log.close()


def _exercise(url: str, planner: Planner) -> None:
    """What every backend must do: keep rows, mark one opened once, and forget rows past the retention."""
    old = open_store(url)
    old.insert([_entry(planner, "Rust projects", days_ago=120).row()])
    old.close()
    log = QuestionLog(url, retention_days=90)  # opening prunes
    first, second = _entry(planner, "Rust projects"), _entry(planner, "tell me about Tessera")
    log.record(first)
    log.record(second)
    log.mark_opened(first.answer, "source")
    log.mark_opened(first.answer, "followup")  # the first opening is the one kept
    log.mark_opened("not-an-answer-id", "source")
    _written(log)
    store = open_store(url)
    rows = sorted(store.rows("2000-01-01"), key=lambda r: r["question"])  # both asked in the same second
    store.close()
    assert [r["question"] for r in rows] == ["Rust projects", "tell me about Tessera"]
    assert rows[0] == first.as_dict() | {"opened": "source"} and rows[1]["opened"] is None
    assert log.health() == {"backend": url.split(":", maxsplit=1)[0], "written": 2, "dropped": 0, "unlogged": 0}
    _bounded(url, planner)


def _bounded(url: str, planner: Planner) -> None:
    """Past its bound (LOG_MAX_ROWS) the log keeps the newest rows, nine tenths of the bound (issue 39, 8)."""
    base = _entry(planner, "Rust projects")
    log = QuestionLog(url, retention_days=90, max_rows=100)
    for n in range(250):
        when = (datetime.now(UTC) - timedelta(minutes=250 - n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        log.record(replace(base, answer=f"{n:016x}", question=f"question {n}", asked_at=when))
        if n % 50 == 49:
            log.flush()
    _written(log)
    store = open_store(url)
    kept = store.rows("2000-01-01")
    store.close()
    ours = [r["question"] for r in kept if r["question"].startswith("question ")]
    assert 90 <= len(kept) <= 100 and ours[-1] == "question 249" and "question 0" not in ours


def test_sqlite_keeps_rows_marks_openings_and_forgets_old_ones(tmp_path: Path, planner: Planner) -> None:
    _exercise(f"sqlite:///{tmp_path / 'q.sqlite3'}", planner)
    with sqlite3.connect(tmp_path / "q.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert tuple(r[1] for r in db.execute("PRAGMA table_info(questions)")) == COLUMNS


def test_postgresql_keeps_rows_marks_openings_and_forgets_old_ones(postgresql: str, planner: Planner) -> None:
    _exercise(fresh_database(postgresql), planner)


def test_a_down_database_drops_lines_and_counts_them(planner: Planner) -> None:
    log = QuestionLog("postgresql://folio@127.0.0.1:1/none", retention_days=90)
    for _ in range(3):
        log.record(_entry(planner, "Rust projects"))
    _written(log)
    assert log.health() == {"backend": "postgresql", "written": 0, "dropped": 3, "unlogged": 0}


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB file system (tmpfs), mounted for the test: a full disk, really."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root: " + done.stderr.decode().strip())
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_drops_lines_and_counts_them(tiny_disk: Path, planner: Planner) -> None:
    log = QuestionLog(f"sqlite:///{tiny_disk / 'q.sqlite3'}", retention_days=90)
    entry = _entry(planner, "Rust projects")
    for n in range(2000):  # ~600 bytes a row: more than twice 512 KiB
        log.record(replace(entry, answer=f"{n:016x}", question=f"{n} " + "long question " * 35))
        if n % 100 == 0:
            log.flush()  # several batches, so some fit before the disk is full
    _written(log)
    health = log.health()
    assert health["written"] > 0 and health["dropped"] > 0
    assert health["written"] + health["dropped"] == 2000
