"""The question log through the real server: what is written (and what never is), the owner's page, and a log
that cannot be written. The databases are read directly, as an auditor would."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from service.questionlog.store import COLUMNS
from tests.conftest import ROOT
from tests.postgres import fresh_database
from tests.web.conftest import SHOTS, serving

TOKEN = "owner-token-for-the-tests-5f1c9a"
# what a visitor's request carries that must never reach the log
VISITOR = {"User-Agent": "folio-test-agent/9.9", "X-Forwarded-For": "203.0.113.77",
           "Cookie": "visitor=visitor-cookie-4242", "Referer": "https://referrer.example/secret-path",
           "Accept-Language": "xx-secret-language"}  # fmt: skip
NEVER = ["203.0.113.77", "127.0.0.1", "folio-test-agent", "visitor-cookie-4242", "referrer.example", "xx-secret"]
ANSWER_ID = re.compile(r"from=([0-9a-f]{16})")


def wait_rows(db: Path, n: int, timeout: float = 20) -> list[dict[str, Any]]:
    """The log's rows once there are at least n (the server writes after each response, off the hot path)."""
    deadline = time.monotonic() + timeout
    rows: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        if db.exists():
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                conn.row_factory = sqlite3.Row
                try:
                    rows = [dict(r) for r in conn.execute("SELECT * FROM questions ORDER BY asked_at")]
                except sqlite3.OperationalError:  # the table is being created
                    rows = []
            if len(rows) >= n:
                return rows
        time.sleep(0.1)
    raise AssertionError(f"{len(rows)} rows after {timeout} s, wanted {n}")


def wait_for(check: Any, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def logged(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server that trusts X-Forwarded-For (as behind a proxy), so a forwarded address reaches the app."""
    logs = tmp_path_factory.mktemp("qlog")
    with serving(demo_kb_path, logs, TODAY="2026-11-30", ADMIN_TOKEN=TOKEN, FORWARDED_ALLOW_IPS="*") as base:
        yield base, logs / "questions.sqlite3"


def test_answers_are_logged_with_the_listed_fields_only(logged: tuple[str, Path]) -> None:
    base, db = logged
    with httpx.Client(base_url=base, headers=VISITOR, timeout=30) as http:
        page = http.get("/", params={"q": "Rust projects"}).text
        chip = re.search(r'<a class="chip" href="(/\?q=[^"]+)"', page)
        assert chip, "the answer offers follow-ups"
        page_answer = ANSWER_ID.search(chip.group(1).replace("&amp;", "&"))
        assert page_answer
        http.get(chip.group(1).replace("&amp;", "&"))  # the visitor follows a chip
        api = http.post("/api/ask", json={"question": "and Go?", "previous": "Rust projects"}).json()
        assert re.fullmatch(r"[0-9a-f]{16}", api["answer_id"])
        assert http.post("/api/opened", json={"answer": api["answer_id"], "kind": "source"}).status_code == 204
        # not questions: the preview while typing, SPARQL, reading an article
        http.get("/api/preview", params={"q": "Rus"})
        http.get("/sparql", params={"query": "ASK {}"})
        http.get("/wiki/Tessera")
    wait_for(lambda: {r["opened"] for r in wait_rows(db, 3)} >= {"followup", "source"})
    rows = {r["answer"]: r for r in wait_rows(db, 3)}
    assert len(rows) == 3, [r["question"] for r in rows.values()]
    first, api_row = rows[page_answer.group(1)], rows[api["answer_id"]]
    assert (first["channel"], first["question"], first["opened"]) == ("page", "Rust projects", "followup")
    assert (api_row["channel"], api_row["previous"], api_row["opened"]) == ("api", "Rust projects", "source")
    (followed,) = [r for r in rows.values() if r["channel"] == "followup"]
    assert followed["question"] != "Rust projects" and followed["level"] in ("exact", "strong")
    for row in rows.values():
        assert tuple(row) == COLUMNS
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row["asked_at"])
        assert row["plan_ms"] > 0 and row["route"] and row["level"] in ("exact", "strong", "weak", "none")
        for value in row.values():
            assert not any(mark in str(value) for mark in NEVER), row
    raw = b"".join(p.read_bytes() for p in db.parent.glob("questions.sqlite3*"))  # the file, its WAL and index
    assert not any(mark.encode() in raw for mark in NEVER)


def test_health_counts_what_was_written(logged: tuple[str, Path]) -> None:
    base, db = logged
    httpx.get(base + "/api/ask", params={"q": "tell me about Tessera"})
    wait_rows(db, 1)
    wait_for(lambda: httpx.get(base + "/healthz").json()["question_log"]["written"] >= 1)
    health = httpx.get(base + "/healthz").json()["question_log"]
    assert health["backend"] == "sqlite" and health["dropped"] == 0


def test_the_owners_page_needs_the_token(logged: tuple[str, Path]) -> None:
    base, db = logged
    httpx.get(base + "/", params={"q": "tell me about Tesssserra"})
    wait_for(lambda: any(r["question"] == "tell me about Tesssserra" for r in wait_rows(db, 1)))
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/-/misses").status_code == 404
        assert http.get("/-/misses", headers={"Authorization": "Bearer not-the-token-at-all"}).status_code == 404
        shown = http.get("/-/misses", headers={"Authorization": f"Bearer {TOKEN}"})
        assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"
        assert "tesssserra: Tessera" in shown.text and "<svg" in shown.text and "<script" not in shown.text
        assert http.get("/-/misses", params={"since": "last week"},
                        headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 400  # fmt: skip
        assert http.get("/-/login").status_code == 200
        assert http.post("/-/login", data={"token": "a wrong guess"}).status_code == 401
        logged_in = http.post("/-/login", data={"token": TOKEN})
        assert logged_in.status_code == 303
        cookie = logged_in.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN not in cookie
        assert http.get("/-/misses").status_code == 200  # the client keeps the cookie


def test_the_owner_logs_in_and_reads_the_report_in_a_browser(logged: tuple[str, Path], browser: Browser) -> None:
    base, db = logged
    httpx.get(base + "/", params={"q": "how many gizmos did she wrangle"})
    wait_for(lambda: any("gizmos" in r["question"] for r in wait_rows(db, 1)))
    context = browser.new_context(base_url=base, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto("/-/login")
    page.get_by_label("Token").fill(TOKEN)
    page.get_by_role("button", name="Open").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("What visitors asked")
    expect(page.locator("section.miss").filter(has_text="gizmos")).to_contain_text("synonyms.yaml")
    expect(page.locator("figure.chart rect").first).to_be_visible()
    page.screenshot(path=str(SHOTS / "owner-misses.png"), full_page=True)
    context.close()


def test_the_misses_command_reads_the_servers_log(logged: tuple[str, Path], demo_kb_path: Path) -> None:
    base, db = logged
    httpx.get(base + "/", params={"q": "tell me about Tesssserra"})
    wait_for(lambda: any(r["question"] == "tell me about Tesssserra" for r in wait_rows(db, 1)))
    command = [sys.executable, "-m", "service", "misses", "--kb", str(demo_kb_path), "--db", f"sqlite:///{db}",
               "--json"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "TODAY": "2026-12-01"})  # fmt: skip
    doc = json.loads(done.stdout)
    group = next(g for g in doc["groups"] if g["question"] == "tell me about tesssserra")
    assert group["count"] >= 1 and any(s["change"].startswith("tesssserra: Tessera") for s in group["suggest"])
    assert doc["questions"] >= doc["missed"] >= group["count"]


def test_several_workers_write_one_log(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, workers=2, LOG_CLIENT_PER_MINUTE="1000") as base, \
            httpx.Client(base_url=base, timeout=60) as http:
        asks = ["Rust projects", "tell me about Tessera", "what did she build in 2024?", "Scala projects"] * 30
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda q: http.get("/api/ask", params={"q": q}).status_code, asks))
        assert codes == [200] * len(asks)
        rows = wait_rows(tmp_path / "questions.sqlite3", len(asks))
        assert len(rows) == len(asks) and len({r["answer"] for r in rows}) == len(asks)


def test_with_the_log_off_nothing_is_written_and_no_owner_page(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, QUESTION_LOG="off") as base:
        answer = httpx.get(base + "/api/ask", params={"q": "Rust projects"}).json()
        assert answer["results"] and "answer_id" not in answer
        assert httpx.get(base + "/healthz").json()["question_log"] == {"backend": "off"}
        assert httpx.get(base + "/-/login").status_code == 404  # no ADMIN_TOKEN: no owner's pages at all
        assert httpx.get(base + "/-/misses").status_code == 404
    assert not list(tmp_path.glob("questions.sqlite3*"))


def test_a_short_admin_token_keeps_the_owners_page_off(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, ADMIN_TOKEN="secret") as base:
        assert httpx.get(base + "/-/misses", headers={"Authorization": "Bearer secret"}).status_code == 404
    assert "shorter than 16 characters" in (tmp_path / "server.log").read_text()


def test_a_down_database_never_fails_an_answer(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, LOG_DATABASE_URL="postgresql://folio@127.0.0.1:1/none") as base:
        for _ in range(3):
            answer = httpx.get(base + "/api/ask", params={"q": "Rust projects"})
            assert answer.status_code == 200 and answer.json()["results"]
        wait_for(lambda: httpx.get(base + "/healthz").json()["question_log"]["dropped"] >= 3)


def test_the_log_in_postgresql(demo_kb_path: Path, tmp_path: Path, postgresql: str) -> None:
    import psycopg  # noqa: PLC0415  # the PostgreSQL option's own dependency

    database = fresh_database(postgresql)
    with serving(demo_kb_path, tmp_path, workers=2, LOG_DATABASE_URL=database) as base:
        with ThreadPoolExecutor(4) as pool:
            codes = list(pool.map(lambda q: httpx.get(base + "/api/ask", params={"q": q}, headers=VISITOR,
                                                      timeout=60).status_code,
                                  ["Rust projects", "tell me about Tessera"] * 10))  # fmt: skip
        assert codes == [200] * 20

        def rows() -> list[tuple[Any, ...]]:
            with psycopg.connect(database) as conn:
                try:
                    return conn.execute("SELECT * FROM questions").fetchall()
                except psycopg.errors.UndefinedTable:  # a worker's writer has not created it yet
                    return []

        wait_for(lambda: len(rows()) >= 20)
        found = rows()
        assert len(found) == 20, [r[3] for r in found]
        assert not any(mark in str(value) for row in found for value in row for mark in NEVER)
        assert httpx.get(base + "/healthz").json()["question_log"]["backend"] == "postgresql"


@pytest.mark.parametrize(("name", "value", "said"), [
    ("QUESTION_LOG", "maybe", "QUESTION_LOG is on or off"),
    ("LOG_DATABASE_URL", "mysql://db/log", "LOG_DATABASE_URL is sqlite:///PATH or postgresql://"),
    ("LOG_RETENTION_DAYS", "0", "LOG_RETENTION_DAYS is a whole number of days"),
])  # fmt: skip
def test_a_wrong_log_setting_stops_the_server_with_a_reason(demo_kb_path: Path, name: str, value: str,
                                                            said: str) -> None:  # fmt: skip
    command = [sys.executable, "-m", "service", "serve", "--kb", str(demo_kb_path), "--port", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
                          env={"PATH": "/usr/bin:/bin", name: value})  # fmt: skip
    assert done.returncode == 1 and said in done.stderr


def test_one_client_cannot_fill_the_log(demo_kb_path: Path, tmp_path: Path) -> None:
    """Issue 39, point 8: past LOG_CLIENT_PER_MINUTE a client's questions are answered but not written."""
    with serving(demo_kb_path, tmp_path, LOG_CLIENT_PER_MINUTE="3") as base:
        with httpx.Client(base_url=base, timeout=60) as http:
            assert [http.get("/api/ask", params={"q": f"Rust projects {n}"}).status_code for n in range(6)] == [200] * 6
        other = httpx.Client(base_url=base, timeout=60, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            assert other.get("/api/ask", params={"q": "tell me about Tessera"}).status_code == 200
        rows = wait_rows(tmp_path / "questions.sqlite3", 4)
        time.sleep(1.5)  # nothing more arrives
        rows = wait_rows(tmp_path / "questions.sqlite3", 4)
        assert sorted(r["question"] for r in rows) == ["Rust projects 0", "Rust projects 1", "Rust projects 2",
                                                       "tell me about Tessera"]  # fmt: skip
        assert httpx.get(base + "/healthz").json()["question_log"]["unlogged"] == 3
