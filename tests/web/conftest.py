"""A real uvicorn server on a free loopback port, serving the session's demo KB, for every HTTP test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright

from service.bench_http import free_port, stop
from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = ROOT / "docs" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


@contextmanager
def serving(kb: Path, logs: Path, workers: int = 1, **env: str) -> Iterator[str]:
    """A real uvicorn server (`python -m service serve`) over a KB, on a free loopback port, until the block ends."""
    port = free_port()
    environ = {**os.environ, "KB_DIR": str(kb), "SPARQL_TIMEOUT": "3", "SPARQL_CLIENT_LIMIT": "3",
               "SPARQL_WORKERS": "2", "LOG_DATABASE_URL": f"sqlite:///{logs / 'questions.sqlite3'}", **env}  # fmt: skip
    command = [sys.executable, "-m", "service", "serve", "--port", str(port), "--kb", str(kb), "--workers",
               str(workers)]  # fmt: skip
    log = logs / "server.log"
    out = log.open("wb")
    process = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
            if process.poll() is not None:
                raise RuntimeError(f"the server did not start:\n{log.read_text()}")
        else:
            raise RuntimeError("the server did not answer /healthz within 60 s")
        try:
            yield base
        except Exception as e:
            if process.poll() is not None:  # say why the server went away, not only that a request was refused
                tail = log.read_text(errors="replace")[-4000:]
                raise RuntimeError(f"the server stopped (exit code {process.returncode}):\n{tail}") from e
            raise
    finally:
        stop(process, 10)
        out.close()


@pytest.fixture(scope="session")
def server(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(demo_kb_path, tmp_path_factory.mktemp("server"), TODAY="2026-11-30") as base:
        yield base


@pytest.fixture(scope="session")
def mateo_server(mateo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The second portfolio (examples/mateo) served the same way, for the pages that must work on both."""
    with serving(mateo_kb_path, tmp_path_factory.mktemp("mateo-server"), TODAY="2026-11-30") as base:
        yield base


@pytest.fixture(scope="session")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium, driven by Playwright (whose own browser download cannot run here); one per
    module, since Playwright's event loop stays on the main thread while it runs, in the way of asyncio.run."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is needed for the browser tests: apt-get install chromium (scripts/install does it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()
