"""The SPARQL worker pool in process: a worker that dies between queries, or cannot be replaced, never turns a
visitor's query into an error of ours."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from service.kb.layout import STORE_DIR
from service.sparql.pool import Busy, Limits, Outcome, OverBudget, Pool, QueryTimeout, Request, Stopped
from service.sparql.usage import Usage
from service.sparql.zygote import Worker
from tests.conftest import ROOT

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
        pool._zygote.close()  # the process workers are forked from, gone too (killed for memory, say)
        store = pool.source
        pool.source = str(tmp_path / "gone")  # and it cannot even load the store again now

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
        except Stopped:
            return "stopped"

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


def test_a_small_query_of_another_client_runs_while_many_clients_flood_the_workers(demo_kb_path: Path) -> None:
    """Issue 39, point 9: with queries of death from many clients keeping every worker busy, another client's
    ASK waited for a worker until its wait ran out (503). The scheduler stops a query that ran its share for a
    waiting query of a client that used less, so the ASK is answered, and each query of death is stopped."""
    limits = Limits(size=2, timeout=10, queue_wait=5, sandbox=False, share=0.5)
    pool = Pool(str(demo_kb_path / STORE_DIR), {}, limits)
    ended: list[str] = []

    async def flood(n: int, until: asyncio.Event) -> None:
        while not until.is_set():
            try:
                await pool.run(KILLER, client=f"flood-{n}")
                ended.append("ran")
            except Stopped:
                ended.append("stopped")
            except (Busy, QueryTimeout):
                ended.append("busy or timeout")

    async def scene() -> list[int]:
        until = asyncio.Event()
        floods = [asyncio.create_task(flood(n, until)) for n in range(6)]
        await asyncio.sleep(1.5)  # every flooding client has had a query run by now
        statuses = []
        for _ in range(6):
            statuses.append((await pool.run(ASK, client="visitor")).status)
            await asyncio.sleep(0.2)
        until.set()
        await asyncio.gather(*floods)
        return statuses

    try:
        assert asyncio.run(scene()) == [200] * 6
        assert "stopped" in ended and "ran" not in ended, ended
    finally:
        pool.close()


def test_a_client_past_its_budget_of_query_time_waits_and_others_do_not(demo_kb_path: Path) -> None:
    """Issue 39, point 9: a client's use of query time is bounded; past it, it is told when to come back."""
    limits = Limits(size=2, timeout=0.6, sandbox=False, budget=1.0, window=60)
    pool = Pool(str(demo_kb_path / STORE_DIR), {}, limits)

    async def scene() -> tuple[list[str], int]:
        seen = []
        for _ in range(3):
            try:
                await pool.run(KILLER, client="greedy")
                seen.append("ran")
            except QueryTimeout:
                seen.append("timeout")
            except OverBudget as e:
                seen.append(f"over budget, back in {e.retry_after:.0f} s")
        return seen, (await pool.run(ASK, client="other")).status

    try:
        seen, other = asyncio.run(scene())
        assert seen[:2] == ["timeout", "timeout"] and seen[2].startswith("over budget, back in"), seen
        assert 0 < float(seen[2].split()[-2]) <= 60 and other == 200
    finally:
        pool.close()


ORPHAN = """
import asyncio, sys
sys.path.insert(0, {root!r})
from service.sparql.pool import Limits, Pool, Request

if __name__ == "__main__":
    pool = Pool({store!r}, {{}}, Limits(size=2, timeout=600, sandbox=False))
    print(pool._zygote._process.pid, *(w.process.pid for w in pool._all), flush=True)
    asyncio.run(pool.run(Request(query={killer!r}, accept="application/sparql-results+json")))
"""


def test_no_worker_outlives_a_web_process_killed_in_the_middle_of_a_query(demo_kb_path: Path, tmp_path: Path) -> None:
    """A web worker killed outright (SIGKILL: out of memory, say) leaves no SPARQL process running its query."""
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN.format(root=str(ROOT), store=str(demo_kb_path / STORE_DIR), killer=KILLER.query))
    web = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None
        pids = [int(p) for p in web.stdout.readline().split()]
        time.sleep(1)  # the query of death runs
        assert len(pids) == 3 and all(_alive(p) for p in pids)
    finally:
        web.kill()
        web.communicate()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_client_s_use_of_query_time_counts_across_web_workers(tmp_path: Path) -> None:
    """The budget is per client, not per web worker: two workers' ledgers on one file see each other's adds
    (and no address is written: the file holds numbers at hashed places)."""
    key = os.urandom(16).hex()
    one, two = (Usage(60, 30, tmp_path / "usage", key) for _ in range(2))
    try:
        one.add("203.0.113.7", 20, now=1000.0)
        two.add("203.0.113.7", 15, now=1000.0)
        assert one.used("203.0.113.7", 1000.0) == two.used("203.0.113.7", 1000.0) == 35
        assert two.wait_for_budget("203.0.113.7", 1000.0) > 0 and one.used("198.51.100.1", 1000.0) == 0
        assert abs(one.used("203.0.113.7", 1060.0) - 35 / math.e) < 1e-6  # a window later, a third of it
        assert b"203.0.113.7" not in (tmp_path / "usage").read_bytes()
    finally:
        one.close()
        two.close()


def test_a_full_queue_of_one_client_s_backlog_does_not_turn_another_client_away(demo_kb_path: Path) -> None:
    """Issue 39, point 9: with the queue full of one client's queries, another client's query got 503 at once.
    Now it takes the place of the heaviest waiter, and runs before the rest of the backlog."""
    limits = Limits(size=1, timeout=1.5, queue=2, queue_wait=5, sandbox=False, share=0)
    pool = Pool(str(demo_kb_path / STORE_DIR), {}, limits)

    async def one(req: Request, client: str, after: float) -> str:
        await asyncio.sleep(after)
        try:
            return str((await pool.run(req, client=client)).status)
        except Busy:
            return "busy"
        except QueryTimeout:
            return "timeout"

    async def scene() -> list[str]:
        return list(await asyncio.gather(one(KILLER, "backlog", 0), one(KILLER, "backlog", 0.1),
                                         one(KILLER, "backlog", 0.2), one(ASK, "visitor", 0.5)))  # fmt: skip

    try:
        running, first, second, visitor = asyncio.run(scene())
        assert running == "timeout" and visitor == "200"
        assert sorted([first, second]) == ["busy", "timeout"]  # one waiter made room; the other ran after
    finally:
        pool.close()


def test_a_worker_started_for_a_query_whose_client_left_still_joins_the_pool(demo_kb_path: Path) -> None:
    """Issue 39's last flake: a query cancelled (its client gone) while the pool started a worker for it lost that
    worker: started in a thread, it counted toward the pool's size but was never free, so the pool served with one
    worker fewer for good (and with one worker, every later query was a 503)."""
    pool = _pool(demo_kb_path, 1)
    try:
        (worker,) = pool._all
        os.kill(worker.process.pid, signal.SIGKILL)  # the only worker gone: the next query starts one
        worker.process.join(5)

        spawn = pool._spawn

        def slow_spawn() -> Worker:  # a start that takes a while, as on a loaded machine: the client leaves meanwhile
            time.sleep(0.3)
            return spawn()

        pool._spawn = slow_spawn  # type: ignore[method-assign]

        async def leave_then_ask() -> Outcome:
            leaving = asyncio.ensure_future(pool.run(ASK))
            while not pool._starting:  # the pool is starting a worker for it in a thread
                assert not leaving.done(), leaving
                await asyncio.sleep(0.001)
            leaving.cancel()  # as when its client closes the connection
            with contextlib.suppress(asyncio.CancelledError):
                await leaving
            return await pool.run(ASK)

        outcome = asyncio.run(asyncio.wait_for(leave_then_ask(), 30))
        assert outcome.status == 200 and len(pool._all) == 1
    finally:
        pool.close()


def test_a_query_cancelled_as_a_worker_is_granted_to_it_does_not_run(demo_kb_path: Path) -> None:
    """Issue 39's last flake, the other half: a waiting query whose client left in the very loop turn a worker was
    granted to it ran anyway (Python 3.11's wait_for returned the worker and dropped the cancellation), to the time
    limit, holding the worker and the client's slot: the next queries got 503."""
    pool = _pool(demo_kb_path, 1)
    try:

        async def grant_and_cancel() -> tuple[str, int]:
            worker = await pool._acquire("a")  # the only worker, held by client a
            waiting = asyncio.ensure_future(pool.run(KILLER, "b"))
            while not pool._waiters:
                assert not waiting.done(), waiting
                await asyncio.sleep(0.001)
            pool._give(worker)  # a's query ends and its worker goes to b ...
            waiting.cancel()  # ... as b's client goes away
            try:
                await waiting
                return "ran", len(pool._idle)
            except asyncio.CancelledError:
                return "cancelled", len(pool._idle)

        assert asyncio.run(asyncio.wait_for(grant_and_cancel(), 30)) == ("cancelled", 1)  # and the worker is free again
    finally:
        pool.close()
