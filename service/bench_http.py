"""`python -m service bench http`: throughput and latency of the running app at 32 connections.

Starts the app with uvicorn (2 workers) on a free loopback port, then drives it with wrk (Debian's `wrk`
package) rotating through the snapshot questions, first /api/ask, then /api/preview. wrk shares the two
cores with the server, as the figures in LIBRARY-FACTS.md did.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from service.config import ROOT


def wait_until_up(url: str, seconds: float = 60) -> None:
    """Poll a server until `url` answers (any status), or raise after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds:.0f} s")


def stop(process: subprocess.Popen[bytes], seconds: float) -> None:
    """Ask a server to stop; kill it if it has not within `seconds`."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


CLIENTS = 65536  # addresses bench sparql's requests come from (few enough in flight to share one)


@contextmanager
def app_server(kb: Path, workers: int = 2, **env: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`python -m service serve` of this checkout on a free loopback port until the block ends. Its question log
    goes to a temporary database (a bench's traffic is not visitors'), unless `env` says where."""
    with checkout_server(ROOT, kb, workers, env) as served:
        yield served


@contextmanager
def checkout_server(root: Path, kb: Path, workers: int,
                    env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:  # fmt: skip
    """`python -m service serve` of the checkout at `root` (another one runs with its own .venv)."""
    port = free_port()
    python = sys.executable if root == ROOT else str(root / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as scratch:
        environ = {**os.environ, "KB_DIR": str(kb), "LOG_DATABASE_URL": f"sqlite:///{scratch}/questions.sqlite3",
                   **env}  # fmt: skip
        command = [python, "-m", "service", "serve", "--port", str(port), "--workers", str(workers),
                   "--kb", str(kb)]  # fmt: skip
        server = subprocess.Popen(command, cwd=root, env=environ, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base + "/healthz", 600)  # a 100x KB takes minutes to load in every worker
            yield base, server
        finally:
            stop(server, 20)


def _lua(paths: list[str], clients: int = 0) -> str:
    """wrk's script: rotate over the paths; with `clients`, each request says it comes from one of that many
    addresses (X-Forwarded-For, as a proxy in front of the server would); count every response by status."""
    quoted = ",\n".join('"' + p.replace("\\", "\\\\").replace('"', '\\"') + '"' for p in paths)
    forwarded = (f"  local c = i % {clients}\n"  # (wrk's Lua is 5.1: no integer division operator)
                 "  wrk.headers['X-Forwarded-For'] = '10.' .. math.floor(c / 65536) .. '.' .. "
                 "(math.floor(c / 256) % 256) .. '.' .. (c % 256)\n") if clients else ""
    return (
        "local paths = {\n" + quoted + "\n}\nlocal i = 0\nlocal threads = {}\n"
        "setup = function(thread)\n  table.insert(threads, thread)\nend\n"
        "init = function(args)\n  statuses = {}\n  i = math.random(0, 1000000)\nend\n"
        "request = function()\n  i = i + 1\n" + forwarded +
        "  return wrk.format('GET', paths[(i % #paths) + 1])\nend\n"
        "response = function(status, headers, body)\n  statuses[status] = (statuses[status] or 0) + 1\nend\n"
        "done = function(summary, latency, requests)\n"
        "  local all = {}\n"
        "  for _, t in ipairs(threads) do\n"
        "    for status, n in pairs(t:get('statuses')) do all[status] = (all[status] or 0) + n end\n"
        "  end\n"
        "  for status, n in pairs(all) do io.write(string.format('STATUS %d %d\\n', status, n)) end\n"
        "  io.write(string.format('RESULT %d %d %d %.3f %.3f %.3f %.3f\\n', summary.requests, summary.errors.status,\n"
        "    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,\n"
        "    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,\n"
        "    summary.duration / 1000000))\nend\n"
    )


def _wrk(base: str, paths: list[str], seconds: int, connections: int, clients: int = 0) -> dict[str, Any]:
    """One wrk run. `rps` counts successful (2xx) responses only; `statuses` counts every response by status;
    `errors` is every other response and every socket error."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(_lua(paths, clients))
        script = f.name
    try:
        out = subprocess.run(
            ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, base],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    finally:
        os.unlink(script)
    m = re.search(r"RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", out)
    if m is None:
        raise RuntimeError(f"could not read wrk's output:\n{out}")
    requests, _, socket_errors, p50, p95, p99, duration = m.groups()
    statuses = {int(code): int(n) for code, n in re.findall(r"STATUS (\d+) (\d+)", out)}
    ok = sum(n for code, n in statuses.items() if 200 <= code < 300)
    return {
        "requests": int(requests),
        "rps": ok / float(duration),
        "errors": int(requests) - ok + int(socket_errors),
        "statuses": dict(sorted(statuses.items())),
        "socket_errors": int(socket_errors),
        "p50_ms": float(p50),
        "p95_ms": float(p95),
        "p99_ms": float(p99),
    }


@contextmanager
def _one_server(kb: Path, workers: int) -> Iterator[str]:
    with app_server(kb, workers) as (base, _):
        yield base


def bench_http(kb: Path, questions: list[str], seconds: int = 20, workers: int = 2, connections: int = 32,
               warm: bool = False, out: Callable[[str], None] = print, rebuilds: int = 0,
               rebuild: Callable[[], object] | None = None,
               site: Callable[[], AbstractContextManager[str]] | None = None, shape: str = "") -> None:  # fmt: skip
    """With `rebuilds`, the KB is built that many times while /api/ask runs: the errors column counts failed
    requests across the switches (there must be none). `site` starts something else to measure (replicas
    behind a proxy, service/topology.py), described by `shape`."""
    if shutil.which("wrk") is None:
        raise RuntimeError("bench http needs wrk: apt-get install wrk")
    with (site() if site is not None else _one_server(kb, workers)) as base:
        time.sleep(2)  # every worker up
        ask = [f"/api/ask?q={quote(q)}" for q in questions]
        typing = [f"/api/preview?q={quote(q[:n])}" for q in questions[:400] for n in range(3, len(q) + 1, 3)]
        _wrk(base, ask[:200], 3, connections)  # warm-up: caches, connections
        if warm:  # every question asked once before (a server that has run a while): the plan cache is full
            _wrk(base, ask, max(10, len(ask) // 150), connections)
        builder = None
        if rebuilds and rebuild is not None:
            def again() -> None:
                for _ in range(rebuilds):
                    time.sleep(max(1.5, seconds / (rebuilds + 1)))
                    rebuild()

            builder = threading.Thread(target=again)
            builder.start()
        asked = _wrk(base, ask, seconds, connections)
        if builder is not None:
            builder.join()
            served = json.loads(urllib.request.urlopen(base + "/healthz").read())["built_at"]
            out(f"{rebuilds} builds finished during /api/ask; the server now serves the build of {served}")
        results = {"/api/ask": asked,
                   "/api/preview": _wrk(base, typing, seconds, connections),
                   "/api/preview, 1 connection (one visitor typing)": _wrk(base, typing, 10, 1)}  # fmt: skip
    cache = os.environ.get("PLAN_CACHE", "4096")
    state = "warm (every question asked before)" if warm else "cold"
    shape = shape or f"{workers} uvicorn workers, embedded store"
    out(f"wrk, {connections} connections, {seconds} s each, {shape}, PLAN_CACHE={cache}, {state};")
    out(f"/api/ask rotates over {len(ask)} snapshot questions, /api/preview over {len(typing)} typed prefixes.\n")
    out("| path | requests | req/s | p50 ms | p95 ms | p99 ms | errors |")
    out("|---|---|---|---|---|---|---|")
    for path, r in results.items():
        out(
            f"| {path} | {r['requests']} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['p99_ms']:.1f} "
            f"| {r['errors']:.0f} |"
        )


def bench_ask_against(other: Path, questions: list[str], seconds: int = 15, rounds_n: int = 2, workers: int = 2,
                      connections: int = 32, out: Callable[[str], None] = print) -> None:  # fmt: skip
    """/api/ask of this engine and of another checkout (`other`, with its own .venv and var/kb) on the same
    questions, in turns (old, new, new, old per round), each server fresh: unwarmed, every request planned
    (PLAN_CACHE=0; stored-query runs kept as served), then warm (default caches, every question asked once before)."""
    if shutil.which("wrk") is None:
        raise RuntimeError("bench needs wrk: apt-get install wrk")
    paths = [f"/api/ask?q={quote(q)}" for q in questions]
    engines = {other.name: (other, other / "var" / "kb"), "this engine": (ROOT, ROOT / "var" / "kb")}
    rows: list[tuple[str, str, dict[str, Any]]] = []
    for n in range(rounds_n):
        order = list(engines) if n % 2 == 0 else list(engines)[::-1]
        for name in (*order, *order[::-1]):
            root, kb = engines[name]
            for mode, env in (("unwarmed (PLAN_CACHE=0)", {"PLAN_CACHE": "0"}), ("warm", {})):
                with checkout_server(root, kb.resolve(), workers, env) as (base, _):
                    time.sleep(2)  # every worker up
                    _wrk(base, paths[:200], 3, connections)  # warm-up: connections, imports
                    if mode == "warm":
                        _wrk(base, paths, max(10, len(paths) // 150), connections)
                    rows.append((name, mode, _wrk(base, paths, seconds, connections)))
    out(f"wrk, {connections} connections, {seconds} s each, {workers} uvicorn workers each, /api/ask rotating over "
        f"{len(paths)} questions, engines in turns ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the "
        "end).\n")  # fmt: skip
    out("| engine | caches | req/s | p50 ms | p99 ms | responses by status |")
    out("|---|---|---|---|---|---|")
    for name, mode, r in rows:
        codes = ", ".join(f"{code}: {count}" for code, count in r["statuses"].items())
        out(f"| {name} | {mode} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {codes} |")


def bench_sparql(kb: Path, workloads: dict[str, list[str]], seconds: int = 15, workers: int = 2,
                 connections: int = 32, rounds_n: int = 3, out: Callable[[str], None] = print) -> bool:  # fmt: skip
    """/sparql and the native `oxigraph serve-read-only` on the same store and queries, taking turns in one run:
    for each workload (queries sent in rotation), `rounds_n` rounds of our server as deployed, our server with no
    answers kept (SPARQL_CACHE_MB=0: every request runs its query), and the native server. Our server runs as
    deployed behind a proxy on this 2-core host (README: `serve --workers 2`, SPARQL_WORKERS=1, the proxy's
    X-Forwarded-For trusted) with every other setting at its default; wrk's requests come from CLIENTS
    addresses, so the per-client limits hold as they would for real visitors. Requests per second count
    successful responses only; a round with any other response, or any socket error, gives no ratio. False when
    any round had one."""
    oxigraph = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    if shutil.which("wrk") is None or not Path(oxigraph).exists():
        raise RuntimeError("bench sparql needs wrk (apt-get install wrk) and the oxigraph wheel (pip install oxigraph)")
    native_port = free_port()
    kept, unkept, native = "this app, /sparql", "this app, SPARQL_CACHE_MB=0", "oxigraph serve-read-only"
    results: dict[str, list[dict[str, dict[str, Any]]]] = {}
    oxigraph_server = subprocess.Popen([oxigraph, "serve-read-only", "--location", str(kb / "store"), "--bind",
                                        f"127.0.0.1:{native_port}", "--union-default-graph"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        with (app_server(kb, workers, SPARQL_WORKERS="1", FORWARDED_ALLOW_IPS="127.0.0.1") as (ours, _),
              app_server(kb, workers, SPARQL_WORKERS="1", FORWARDED_ALLOW_IPS="127.0.0.1",
                         SPARQL_CACHE_MB="0") as (ours_unkept, _)):  # fmt: skip
            bases = {kept: ours, unkept: ours_unkept, native: f"http://127.0.0.1:{native_port}"}
            for workload, queries in workloads.items():
                paths = ["/sparql?query=" + quote(q) for q in queries]
                for base in bases.values():
                    wait_until_up(base + paths[0])
                    _wrk(base, paths, 3, connections, CLIENTS)  # warm-up (our server keeps what it answers)
                rounds = results.setdefault(workload, [])
                for n in range(rounds_n):  # rotate which goes first: the machine's state drifts over a run
                    order = list(bases)[n % 3 :] + list(bases)[: n % 3]
                    rounds.append({name: _wrk(bases[name], paths, seconds, connections, CLIENTS) for name in order})
    finally:
        stop(oxigraph_server, 20)
    out(f"wrk, {connections} connections from {CLIENTS} client addresses, {seconds} s each, the servers taking "
        f"turns on this machine ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the end), {rounds_n} "
        f"rounds; ours: `serve --workers {workers}`, SPARQL_WORKERS=1, behind a proxy, the rest defaults, and the "
        "same with SPARQL_CACHE_MB=0 (every request runs its query).\n")  # fmt: skip
    clean = True
    for workload, rounds in results.items():
        out(f"**{workload}** ({len(workloads[workload])} distinct queries in rotation)\n")
        out("| round | server | 2xx/s | p50 ms | p99 ms | responses by status | socket errors |")
        out("|---|---|---|---|---|---|---|")
        for n, measured in enumerate(rounds, start=1):
            for name, r in measured.items():
                codes = ", ".join(f"{code}: {count}" for code, count in r["statuses"].items())
                out(f"| {n} | {name} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {codes} | "
                    f"{r['socket_errors']} |")  # fmt: skip
        for ours_name in (kept, unkept):
            ratios = [m[ours_name]["rps"] / m[native]["rps"] if m[ours_name]["errors"] == m[native]["errors"] == 0
                      else None for m in rounds]  # fmt: skip
            shown = ", ".join("no ratio (errors)" if r is None else f"{r:.2f}" for r in ratios)
            valid = [r for r in ratios if r is not None]
            if len(valid) < len(ratios):
                clean = False
                out(f"\n{ours_name} / native per round: {shown}; NO MEDIAN: a round had errors")
            else:
                out(f"\n{ours_name} / native per round: {shown}; median {statistics.median(valid):.2f}")
        out("")
    return clean


def bench_log(kb: Path, questions: list[str], seconds: int = 20, rounds_n: int = 3, workers: int = 2,
              connections: int = 32, out: Callable[[str], None] = print) -> None:  # fmt: skip
    """The ask page and /api/ask with the question log on (SQLite, the default) and off, taking turns over
    `rounds_n` rounds in one run; with the log on, how many answers the log holds afterwards."""
    page = [f"/?q={quote(q)}" for q in questions]
    api = [f"/api/ask?q={quote(q)}" for q in questions]
    rows: list[tuple[int, str, str, dict[str, float]]] = []  # round, log on or off, path, figures
    for n in range(rounds_n):
        for mode in ("on", "off") if n % 2 == 0 else ("off", "on"):  # alternate: the machine drifts over a run
            with tempfile.TemporaryDirectory(prefix="folio-log-") as scratch:
                db = Path(scratch) / "questions.sqlite3"
                with app_server(kb, workers, QUESTION_LOG=mode, LOG_DATABASE_URL=f"sqlite:///{db}") as (base, _):
                    time.sleep(2)  # every worker up
                    _wrk(base, page[:200], 3, connections)  # warm-up
                    measured = {"/ (ask page)": _wrk(base, page, seconds, connections),
                                "/api/ask": _wrk(base, api, seconds, connections)}  # fmt: skip
                    health = json.loads(urllib.request.urlopen(base + "/healthz").read())["question_log"]
                kept = _count_rows(db) if mode == "on" else 0
            rows += [(n + 1, mode, path, r) for path, r in measured.items()]
            if mode == "on":
                answered = sum(int(r["requests"]) for r in measured.values())
                out(f"round {n + 1}: the log holds {kept} rows after {answered} measured answers and the warm-up's "
                    f"(one worker's /healthz: {health})")  # fmt: skip
    out(f"\nwrk, {connections} connections, {seconds} s each, {workers} uvicorn workers, QUESTION_LOG on (SQLite) "
        f"and off taking turns, {rounds_n} rounds, rotating over {len(questions)} snapshot questions.\n")  # fmt: skip
    out("| round | log | path | req/s | p50 ms | p99 ms | errors |")
    out("|---|---|---|---|---|---|---|")
    for round_n, mode, path, r in rows:
        out(f"| {round_n} | {mode} | {path} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
            f"{r['errors']:.0f} |")  # fmt: skip
    for path in ("/ (ask page)", "/api/ask"):
        p99 = {mode: statistics.median(r["p99_ms"] for _, m, p, r in rows if p == path and m == mode)
               for mode in ("on", "off")}  # fmt: skip
        out(f"{path}: median p99 {p99['on']:.1f} ms with the log, {p99['off']:.1f} ms without")


def _count_rows(db: Path) -> int:
    import sqlite3  # noqa: PLC0415  # only this bench reads the log

    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        found: int = conn.execute("SELECT count(*) FROM questions").fetchone()[0]
        return found
