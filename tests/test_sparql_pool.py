"""The SPARQL worker pool in process: a worker that dies between queries, or cannot be replaced, never turns a
visitor's query into an error of ours."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from service.kb.store import STORE_DIR
from service.sparql.pool import Busy, Limits, Outcome, Pool, QueryTimeout, Request

ASK = Request(query="ASK { ?s ?p ?o }", accept="application/sparql-results+json")


def _pool(kb: Path, size: int) -> Pool:
    return Pool(str(kb / STORE_DIR), {}, Limits(size=size, timeout=5, queue_wait=2, sandbox=False))


def test_a_worker_that_died_while_idle_is_replaced_and_the_query_runs(demo_kb_path: Path) -> None:
    pool = _pool(demo_kb_path, 1)
    try:
        (worker,) = pool._all
        os.kill(worker.process.pid, signal.SIGKILL)  # as a Rust abort after its last answer would
        worker.process.join(5)
        outcome: Outcome = asyncio.run(pool.run(ASK))
        assert outcome.status == 200 and b"true" in outcome.body
        assert len(pool._all) == 1 and pool._all[0] is not worker
    finally:
        pool.close()


def test_a_worker_that_cannot_be_started_again_is_a_503_then_comes_back(demo_kb_path: Path, tmp_path: Path) -> None:
    pool = _pool(demo_kb_path, 1)
    try:
        (worker,) = pool._all
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(5)
        store = pool.source
        pool.source = str(tmp_path / "gone")  # a new worker cannot even open the store now

        async def twice() -> tuple[str, Outcome]:
            try:
                await pool.run(ASK)
                first = "ran"
            except Busy:
                first = "busy"  # the endpoint's 503 with Retry-After
            pool.source = store  # the store again
            return first, await pool.run(ASK)

        first, second = asyncio.run(twice())
        assert first == "busy" and second.status == 200
    finally:
        pool.close()


KILLER = Request(query="SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }",
                 accept="application/sparql-results+json")  # fmt: skip


def test_bursts_of_queries_past_the_time_limit_never_grow_the_pool(demo_kb_path: Path) -> None:
    """Issue 39, point 3: replacing a worker that was killed and refilling an empty pool raced, and each burst
    left a worker more (2 -> 3 -> 4). However the replacements interleave, the pool holds `size` workers."""
    pool = Pool(str(demo_kb_path / STORE_DIR), {}, Limits(size=2, timeout=1, queue_wait=3, sandbox=False))

    async def one(n: int) -> str:
        await asyncio.sleep(0.25 * n)  # arriving while earlier ones are stopped and their workers replaced
        try:
            outcome = await pool.run(KILLER if n % 3 else ASK, client=f"client-{n}")
            return str(outcome.status)
        except Busy:
            return "busy"
        except QueryTimeout:
            return "timeout"

    async def bursts() -> list[int]:
        sizes = []
        for _ in range(3):
            await asyncio.gather(*(one(n) for n in range(12)))
            sizes.append(len(pool._all))
        return sizes

    try:
        sizes = asyncio.run(bursts())
        alive = [w for w in pool._all if w.process.is_alive()]
        assert max(sizes) <= 2 and len(alive) <= 2, sizes
    finally:
        pool.close()
