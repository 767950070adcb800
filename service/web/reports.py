"""The owner's misses reports, kept per web worker. A report reads every logged question since a date, which
takes seconds on a log of 100,000, so a report is made again only when the log changed since (its row count or
its last question), and the page waits for a new one at most MISSES_WAIT seconds: past that it shows the last
report, says so, and the new one goes on being made in the background for the next request. Only the first
request for a date waits for its report whatever it takes. The page says when the report it shows was made.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from starlette.concurrency import run_in_threadpool

KEEP = 8  # reports kept (one per `since` date asked for)
Key = tuple[str, date]


@dataclass(frozen=True)
class Shown:
    doc: dict[str, Any]
    made: str  # when, UTC, to the second
    newer_coming: bool  # the log changed, and a newer report is being made


@dataclass(frozen=True)
class _Kept:
    doc: dict[str, Any]
    made: float  # time.time()
    version: object  # the log's version it was made from


class Reports:
    def __init__(self, make: Callable[[str, date], dict[str, Any]], version: Callable[[str], object],
                 wait: float) -> None:  # fmt: skip
        self._make, self._version, self.wait = make, version, wait
        self._kept: dict[Key, _Kept] = {}
        self._making: dict[Key, asyncio.Task[_Kept]] = {}

    def _made(self, key: Key, version: object) -> _Kept:
        kept = _Kept(self._make(*key), time.time(), version)
        self._kept[key] = kept
        while len(self._kept) > KEEP:
            del self._kept[min(self._kept, key=lambda k: self._kept[k].made)]
        return kept

    def _new(self, key: Key, version: object) -> asyncio.Task[_Kept]:
        """The report being made for the key (one at a time), off the event loop."""
        task = self._making.get(key)
        if task is None or task.done():
            task = asyncio.create_task(run_in_threadpool(self._made, key, version))
            task.add_done_callback(lambda t: None if t.cancelled() else t.exception())  # a failure is not lost
            self._making[key] = task
        return task

    async def get(self, since: str, today: date) -> Shown:
        key = (since, today)
        version = await run_in_threadpool(self._version, since)
        kept = self._kept.get(key)
        if kept is not None and kept.version == version:
            return self._shown(kept, False)
        task = self._new(key, version)
        if kept is None:
            return self._shown(await asyncio.shield(task), False)
        try:
            return self._shown(await asyncio.wait_for(asyncio.shield(task), self.wait), False)
        except TimeoutError:
            return self._shown(kept, True)

    @staticmethod
    def _shown(kept: _Kept, newer_coming: bool) -> Shown:
        made = datetime.fromtimestamp(kept.made, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        return Shown(kept.doc, made, newer_coming)
