"""A real uvicorn server on a free loopback port, serving the session's demo KB, for every HTTP test."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from service.bench_http import free_port
from tests.conftest import ROOT


@contextmanager
def serving(kb: Path, logs: Path, workers: int = 1, **env: str) -> Iterator[str]:
    """A real uvicorn server (`python -m service serve`) over a KB, on a free loopback port, until the block ends."""
    port = free_port()
    environ = {**os.environ, "KB_DIR": str(kb), "SPARQL_TIMEOUT": "3", "SPARQL_CLIENT_LIMIT": "3",
               "SPARQL_WORKERS": "2", **env}  # fmt: skip
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
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        out.close()


@pytest.fixture(scope="session")
def server(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(demo_kb_path, tmp_path_factory.mktemp("server"), TODAY="2026-11-30") as base:
        yield base


@pytest.fixture(scope="session")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client
