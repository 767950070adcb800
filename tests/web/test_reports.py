"""The owner's misses reports (issue 39, point 4): a report of a large log takes seconds, so one is made again
only when the log changed, and the page waits for it a bounded time, showing the last report meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import date

from service.web.reports import Reports, Shown

DAY = date(2026, 11, 30)


class _Log:
    """A question log whose report takes `seconds` to make; `version` changes when a question is logged."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.made, self.logged = seconds, 0, 0
        self.lock = threading.Lock()

    def report(self, since: str, today: date) -> dict[str, object]:
        time.sleep(self.seconds)
        with self.lock:
            self.made += 1
            return {"n": self.made, "logged": self.logged}

    def version(self, since: str) -> int:
        return self.logged


def _scene(log: _Log, wait: float) -> list[tuple[Shown, float]]:
    reports = Reports(log.report, log.version, wait)

    async def one() -> tuple[Shown, float]:
        started = time.perf_counter()
        shown = await reports.get("2026-11-01", DAY)
        return shown, time.perf_counter() - started

    async def scene() -> list[tuple[Shown, float]]:
        seen = list(await asyncio.gather(one(), one(), one()))  # three at once: one report made
        seen.append(await one())  # nothing logged since: the same report, not made again
        log.logged += 1
        seen.append(await one())  # logged since: a new one, waited for as long as the page may
        await asyncio.sleep(log.seconds + 0.3)
        seen.append(await one())
        return seen

    return asyncio.run(scene())


def test_a_report_is_made_again_only_when_questions_were_logged_since() -> None:
    log = _Log(0.05)
    seen = _scene(log, wait=5)
    assert [s.doc["n"] for s, _ in seen] == [1, 1, 1, 1, 2, 2]
    assert seen[4][0].doc["logged"] == 1 and not any(s.newer_coming for s, _ in seen)
    assert log.made == 2


def test_a_slow_report_is_not_waited_for_past_the_wait_and_the_page_says_so() -> None:
    log = _Log(1.5)
    seen = _scene(log, wait=0.3)
    shown, took = seen[4]
    assert shown.doc["n"] == 1 and shown.newer_coming and took < 1.0  # the last report, with a note
    assert seen[5][0].doc["n"] == 2 and not seen[5][0].newer_coming  # made meanwhile, shown next time
    assert log.made == 2
