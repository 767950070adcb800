"""Builds and serving (hardening finding 5): a build never deletes the build a server uses, the folders of
killed builds are removed, and a running server serves each finished build without a restart and without a
failed request."""

from __future__ import annotations

import concurrent.futures
import json
import os
import shutil
import threading
import time
from pathlib import Path

import httpx

from service.cli import main
from service.kb import KB
from service.kb.build import builds_dir
from service.kb.holds import LOCK
from tests.conftest import copy_inputs
from tests.web.conftest import serving


def _build(root: Path, kb: Path) -> None:
    args = [f"--{n}={root / n}" for n in ("ontology", "data", "wiki", "queries")]
    assert main(["build", *args, "--kb", str(kb)]) == 0


def test_killed_builds_are_removed_and_served_ones_kept(tmp_path: Path) -> None:
    copy_inputs(tmp_path, tiny=True)
    kb = tmp_path / "kb"
    _build(tmp_path, kb)
    killed = builds_dir(kb) / "20200101T000000.000000-1"
    killed.mkdir()
    (killed / "store").mkdir()  # what a build killed half-way leaves: no manifest, no lock held
    served = kb.resolve()
    os.environ["KEEP_BUILDS"] = "0"
    try:
        holding = KB.open(kb, hold=True)  # a server serving this build
        _build(tmp_path, kb)
        _build(tmp_path, kb)
        assert not killed.exists(), "a killed build's folder is garbage"
        assert served.exists() and (served / "store").exists(), "the served build was deleted"
        holding.release()
        _build(tmp_path, kb)
        assert not served.exists(), "once nothing serves it, an old build is pruned"
        assert sorted(p.name for p in builds_dir(kb).iterdir()) == [kb.resolve().name]
        assert (kb.resolve() / LOCK).exists()
    finally:
        del os.environ["KEEP_BUILDS"]


def test_a_running_server_serves_each_new_build_without_a_failed_request(tmp_path: Path) -> None:
    root = tmp_path / "inputs"
    root.mkdir()
    copy_inputs(root, tiny=True)
    kb = tmp_path / "kb"
    _build(root, kb)
    env = {"RELOAD_INTERVAL": "0.5", "KEEP_BUILDS": "0", "SPARQL_TIMEOUT": "3", "SPARQL_CLIENT_LIMIT": "8"}
    with serving(kb, tmp_path, workers=2, **env) as base:
        first = httpx.get(base + "/healthz").json()["built_at"]
        stop = threading.Event()
        failures: list[str] = []
        served: set[str] = set()

        def hammer() -> int:
            n = 0
            with httpx.Client(base_url=base, timeout=30) as client:
                while not stop.is_set():
                    for path, params in (("/api/ask", {"q": "Rust projects"}), ("/sparql", {"query": "ASK {}"}),
                                         ("/healthz", {})):  # fmt: skip
                        r = client.get(path, params=params)
                        n += 1
                        if r.status_code != 200:
                            failures.append(f"{path} {r.status_code} {r.text[:100]}")
                        elif path == "/healthz":
                            served.add(r.json()["built_at"])
            return n

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            runs = [pool.submit(hammer) for _ in range(4)]
            for n in range(3):
                time.sleep(1.1)  # built_at is to the second
                article = root / "wiki" / "Plotline.md"
                article.write_text(article.read_text() + f"\nEdit {n}.\n")
                _build(root, kb)
            newest = json.loads((kb.resolve() / "manifest.json").read_text())["built_at"]
            deadline = time.monotonic() + 20
            last = httpx.get(base + "/healthz").json()["built_at"]
            while last != newest and time.monotonic() < deadline:
                time.sleep(0.5)
                last = httpx.get(base + "/healthz").json()["built_at"]
            time.sleep(1.5)
            stop.set()
            requests = sum(r.result() for r in runs)
        assert not failures, failures[:5]
        assert requests > 50
        assert last == newest != first
        assert len(served) >= 2  # the old builds, then the new ones, all answered
    shutil.rmtree(tmp_path / "kb.builds", ignore_errors=True)


def test_an_answer_kept_by_sparql_is_never_served_for_a_newer_build(tmp_path: Path) -> None:
    """/sparql keeps answers for the build it serves; once a new build with other data is served, the same query
    is answered from the new store."""
    root = tmp_path / "inputs"
    root.mkdir()
    copy_inputs(root, tiny=True)
    kb = tmp_path / "kb"
    _build(root, kb)
    query = "SELECT ?label WHERE { ?w rdfs:label ?label FILTER(STRSTARTS(?label, 'Plotline')) }"
    with serving(kb, tmp_path, workers=1, RELOAD_INTERVAL="0.5", KEEP_BUILDS="0") as base:

        def labels() -> tuple[list[str], str]:
            r = httpx.get(base + "/sparql", params={"query": query})
            assert r.status_code == 200
            return [b["label"]["value"] for b in r.json()["results"]["bindings"]], r.headers["x-sparql-cache"]

        assert labels() == (["Plotline"], "miss")
        assert labels() == (["Plotline"], "hit")
        first = httpx.get(base + "/healthz").json()["built_at"]
        time.sleep(1.1)  # built_at is to the second
        works = root / "data" / "works.ttl"
        works.write_text(works.read_text().replace('rdfs:label "Plotline" ;', 'rdfs:label "Plotline Two" ;'))
        _build(root, kb)
        deadline = time.monotonic() + 20
        while httpx.get(base + "/healthz").json()["built_at"] == first and time.monotonic() < deadline:
            time.sleep(0.3)
        assert labels() == (["Plotline Two"], "miss")
        assert labels() == (["Plotline Two"], "hit")
    shutil.rmtree(tmp_path / "kb.builds", ignore_errors=True)
