"""The SPARQL worker on a host with many CPUs (issue 39, point 1): the storage engine starts a thread per CPU
the process sees, and a worker whose memory limit was set before it opened the store aborted from about 8.
A preload library makes the process see 8, 16 and 64 CPUs: the worker starts and answers, and a query that
allocates past the limit is still stopped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from service.sparql.pool import Limits, Pool, Request

ASK = Request(query="ASK {{ ?s ?p ?o }}", accept="application/sparql-results+json")
HUNGRY = Request(query="SELECT (COUNT(*) AS ?n) WHERE {{ ?a ?b ?c . ?d ?e ?f . "
                 "BIND(CONCAT(STR(?a), STR(?c), STR(?d), STR(?f)) AS ?x) }} ORDER BY ?x",
                 accept="application/sparql-results+json")

if __name__ == "__main__":
    pool = Pool({store!r}, {{}}, Limits(size=1, timeout=30, memory_mb=300, sandbox=True))
    try:
        print("cpus", os.cpu_count(), "ask", asyncio.run(pool.run(ASK)).status, "hungry",
              asyncio.run(pool.run(HUNGRY)).status)
    finally:
        pool.close()
"""


@pytest.fixture(scope="module")
def fake_cpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("gcc builds the preload library")
    out = tmp_path_factory.mktemp("cpus") / "fakecpus.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(out), str(ROOT / "tests/fixtures/fakecpus.c"), "-ldl"],
                   check=True, capture_output=True)  # fmt: skip
    return out


@pytest.mark.parametrize("cpus", [8, 16, 64])
def test_the_worker_starts_and_still_stops_a_hungry_query_with_many_cpus(
    cpus: int, fake_cpus: Path, demo_kb_path: Path, tmp_path: Path
) -> None:
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(root=str(ROOT), store=str(demo_kb_path / "store")), encoding="utf-8")
    env = {**os.environ, "LD_PRELOAD": str(fake_cpus), "FAKE_CPUS": str(cpus)}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300,
                          check=False)  # fmt: skip
    assert f"cpus {cpus} ask 200 hungry 503" in done.stdout, done.stderr[-2000:]
