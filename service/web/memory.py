"""Keeping the garbage collector off the request path.

The caches of a serving worker (plans, query runs, the planner's per-question memos) fill with long-lived
objects. Left to the cyclic collector, each full collection walks all of them and stalls every request
queued on the worker (tens of milliseconds at the p99 of `bench http`). So, every so many requests, young
cycles are collected and everything alive is frozen out of the collector; reference counting still frees
what a cache drops (plans and query runs hold no reference cycles; cyclic garbage that had already grown
old before a freeze would stay, which is why the young generations are collected first).
"""

from __future__ import annotations

import gc

from starlette.types import ASGIApp, Receive, Scope, Send

FREEZE_EVERY = 1024  # requests between two freezes


class FreezeLongLived:
    def __init__(self, app: ASGIApp, every: int = FREEZE_EVERY) -> None:
        self.app, self.every, self.seen = app, every, 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] != "http":
            return
        self.seen += 1
        if self.seen % self.every == 0:
            gc.collect(1)
            gc.freeze()
