"""`python -m service bench attack`: the hardening review's attack classes, run again against a real server.

1. SERVICE in every spelling and thousands of mutations, through /sparql and /console, while a loopback
   listener counts fetches (must be 0);
2. N generated malformed requests on every endpoint (no response may be 5xx);
3. 20 queries of death running at all times, from one address and then from 20, while another address asks
   `ASK {}` 24 times (every one answered, 95 % within 1 s);
4. queries that eat memory or write huge results, with the peak memory of every SPARQL worker afterwards.
Each prints one line of figures; the command fails when a figure is not what the README promises.
"""

from __future__ import annotations

import concurrent.futures
import http.server
import os
import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx

from service.bench_http import app_server
from service.sparql.attacks import bad_request, service_queries

DEATH = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
HEAVY = ["SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f",
         "SELECT (GROUP_CONCAT(STR(?c)) AS ?g) WHERE { ?a ?b ?c . ?d ?e ?f }"]  # fmt: skip


class _Counter(http.server.BaseHTTPRequestHandler):
    fetches = 0

    def _answer(self) -> None:
        type(self).fetches += 1
        self.send_response(200)
        self.end_headers()

    do_GET = do_POST = _answer  # noqa: N815

    def log_message(self, *_args: object) -> None:
        pass


def _client(base: str, address: str) -> httpx.Client:
    """A client whose requests come from `address` (any of 127.0.0.0/8 is this machine's loopback)."""
    return httpx.Client(base_url=base, timeout=120, transport=httpx.HTTPTransport(local_address=address))


def _flood(base: str, senders: int, out: Callable[[str], None]) -> bool:
    """20 queries of death running at all times from `senders` addresses (each sends its next as soon as one is
    answered) while another address asks `ASK {}` 24 times, one every 0.3 s from a second after the flood began:
    every ASK must be answered, 95 % of them within 1 s."""
    stop = threading.Event()
    death_codes: Counter[int] = Counter()

    def flood(address: str) -> None:
        with _client(base, address) as client:
            while not stop.is_set():
                death_codes[client.get("/sparql", params={"query": DEATH}).status_code] += 1

    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        for n in range(20):
            pool.submit(flood, f"127.0.1.{n % senders + 1}")
        time.sleep(1)
        waits, codes = [], Counter[int]()
        with _client(base, "127.0.0.2") as other:
            for _ in range(24):
                started = time.perf_counter()
                code = other.get("/sparql", params={"query": "ASK {}"}).status_code
                codes[code] += 1
                waits.append(time.perf_counter() - started if code == 200 else 999.0)
                time.sleep(0.3)
        stop.set()
    waits.sort()
    p50, p95 = waits[len(waits) // 2], waits[int(len(waits) * 0.95) - 1]
    shown = ["unanswered" if w == 999.0 else f"{w:.2f} s" for w in (p50, p95, waits[-1])]
    out(f"3. 20 queries of death at all times from {senders} address{'es' if senders > 1 else ''} (answers "
        f"{dict(sorted(death_codes.items()))}); another address's 24 ASK: answers {dict(codes)}, "
        f"p50 {shown[0]}, p95 {shown[1]}, slowest {shown[2]}")  # fmt: skip
    return p95 < 1.0 and codes[200] == len(waits)


def _peak_mb(server: subprocess.Popen[bytes]) -> list[float]:
    """The peak resident memory (VmHWM) of every process under the server: its web and SPARQL workers."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True, check=True).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        pid, ppid = map(int, line.split())
        children.setdefault(ppid, []).append(pid)
    todo, found = [server.pid], []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    peaks = []
    for pid in found[1:]:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        peaks += [int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmHWM")]
    return peaks


def bench_attack(kb: Path, requests: int = 10_000, out: Callable[[str], None] = print) -> bool:
    memory_mb = int(os.environ.get("SPARQL_MEMORY_MB", "1024"))
    with app_server(kb, 2) as (base, server):  # a deployment's settings (the environment may change them)
        return _attack(base, server, memory_mb, requests, out)


def _attack(base: str, server: subprocess.Popen[bytes], memory_mb: int, requests: int,
            out: Callable[[str], None]) -> bool:  # fmt: skip
    listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    target = f"http://127.0.0.1:{listener.server_address[1]}"
    rng = random.Random(20261201)
    ok = True
    try:
        time.sleep(3)
        walls = httpx.get(base + "/healthz").json()["sparql_network"]["closed_by"]
        with httpx.Client(base_url=base, timeout=60) as client:
            queries = service_queries(target, 3000, rng)
            codes: Counter[int] = Counter()
            for n, q in enumerate(queries):
                path = "/console" if n % 5 == 0 else "/sparql"
                codes[client.get(path, params={"query": q}).status_code] += 1
            out(f"1. SERVICE: {len(queries)} queries (/sparql and /console), {_Counter.fetches} fetches by the "
                f"server; answers {dict(sorted(codes.items()))}; network walls {walls}")  # fmt: skip
            ok &= _Counter.fetches == 0
            statuses: Counter[int] = Counter()
            for _ in range(requests):
                method, path, params, headers, body = bad_request(rng)
                try:
                    r = client.request(method, path, params=params, headers=headers, content=body or None)
                    statuses[r.status_code // 100 * 100] += 1
                except httpx.HTTPError:
                    statuses[0] += 1
            server_errors = sum(v for k, v in statuses.items() if k >= 500)
            out(f"2. malformed requests: {requests}, responses by class {dict(sorted(statuses.items()))}, "
                f"{server_errors} of them 5xx")  # fmt: skip
            ok &= server_errors == 0
        for senders in (1, 20):
            ok &= _flood(base, senders, out)
        with httpx.Client(base_url=base, timeout=120) as client:
            heavy = Counter(client.get("/sparql", params={"query": q}).status_code for q in HEAVY)
        peaks = _peak_mb(server)
        out(f"4. memory-eating queries answered {dict(heavy)}; peak memory of the server's processes "
            f"{max(peaks):.0f} MB (limit per SPARQL worker {memory_mb} MB)")  # fmt: skip
        ok &= max(peaks) <= memory_mb
    finally:
        listener.shutdown()
        listener.server_close()
    out("all figures as promised" if ok else "SOME FIGURES ARE NOT AS PROMISED")
    return ok
