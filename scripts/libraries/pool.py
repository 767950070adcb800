"""The SPARQL worker pool: ours (service/sparql/pool.py and zygote.py: a zygote that holds the store forks the
workers; asyncio pipes; a worker past its limit is killed and another forked) against pebble 5.2's ProcessPool
(the same `execute`, in workers that open the store and close their network in its initializer; a cancelled
future kills its worker, which pebble replaces), in turns, on the demo KB, sandbox on for both:
latency (300 small SELECTs one at a time), throughput (600 from 8 clients at once, 2 workers), and recovery (with
1 worker, a query of death stopped after 0.3 s, then the time until a small query is answered).
pebble's workers start by forkserver (forking a threaded web server is unsafe); `pool.py fork` tries fork."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import statistics
import sys
import time
from typing import Any

import pebble
import pyoxigraph as ox

from service.kb.layout import STORE_DIR
from service.sparql.pool import Limits, Outcome, Pool, Request, execute
from service.sparql.sandbox import close_network

KB = "var/kb/" + STORE_DIR
CONTEXT = sys.argv[1] if len(sys.argv) > 1 else "forkserver"
JSON = "application/sparql-results+json"
SMALL = Request("SELECT ?s ?l WHERE { GRAPH ?g { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l } } LIMIT 20", JSON)
DEATH = Request("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?a { ?s ?p ?o } GRAPH ?b { ?x ?y ?z } GRAPH ?c { ?q ?r ?t } }",
                JSON)  # fmt: skip
_store: Any = None


def _open() -> None:
    global _store  # noqa: PLW0603  # the worker's store, opened once by pebble's initializer
    _store = ox.Store.read_only(KB)
    close_network()


def _run(req: Request) -> Outcome:
    return execute(_store, req, {})


class PebblePool:
    def __init__(self, size: int) -> None:
        self.pool = pebble.ProcessPool(max_workers=size, initializer=_open, context=mp.get_context(CONTEXT))

    async def run(self, req: Request, client: str = "") -> Outcome:
        future = self.pool.schedule(_run, args=(req,), timeout=10)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()  # pebble stops the worker running it
            raise

    def close(self) -> None:
        self.pool.stop()
        self.pool.join()


def make(name: str, size: int) -> Any:
    limits = Limits(size=size, timeout=10, queue=64, sandbox=True, share=0, budget=0)
    return Pool(KB, {}, limits) if name == "ours" else PebblePool(size)


async def speed(pool: Any) -> tuple[float, float]:
    for _ in range(20):
        assert (await pool.run(SMALL, "c")).status == 200
    started = time.perf_counter()
    for _ in range(300):
        await pool.run(SMALL, "c")
    latency = (time.perf_counter() - started) / 300 * 1000

    async def client(i: int) -> None:
        for _ in range(75):
            assert (await pool.run(SMALL, f"c{i}")).status == 200

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(8)))
    return latency, 600 / (time.perf_counter() - started)


async def recovery(pool: Any) -> float:
    assert (await pool.run(SMALL, "c")).status == 200
    times = []
    for _ in range(5):
        death = asyncio.ensure_future(pool.run(DEATH, "bad"))
        await asyncio.sleep(0.3)
        death.cancel()
        started = time.perf_counter()
        assert (await pool.run(SMALL, "c")).status == 200
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def main() -> None:
    got: dict[str, list[tuple[float, float, float]]] = {"ours": [], "pebble": []}
    for n in range(4):
        for name in ("ours", "pebble") if n % 2 == 0 else ("pebble", "ours"):
            two, one = make(name, 2), make(name, 1)
            latency, throughput = await speed(two)
            got[name].append((latency, throughput, await recovery(one)))
            two.close()
            one.close()
    for name, rounds in got.items():
        latency, throughput, back = (statistics.median(r[i] for r in rounds) for i in range(3))
        print(
            f"{name}: latency {latency:.2f} ms · {throughput:.0f} queries/s from 8 clients · "
            f"a stopped query's worker replaced in {back:.0f} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
