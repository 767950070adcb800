"""The per-worker caches: repeated questions are not planned again, repeated queries not run again; both are
bounded and can be off; and what they keep is frozen out of the garbage collector."""

from __future__ import annotations

import asyncio
import gc
from datetime import date

from service.engine import Planner
from service.web.memory import FreezeLongLived
from service.web.plans import PlanCache
from tests.conftest import TODAY


def test_a_repeated_question_is_served_from_the_cache(planner: Planner) -> None:
    cache = PlanCache(planner, 2)
    first = cache.plan("Rust projects", None, TODAY)
    assert cache.plan("Rust projects", None, TODAY) is first
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.plan("Rust projects", "tell me about Lantern", TODAY) is not first  # the context is part of the key
    assert cache.plan("Rust projects", None, date(2026, 12, 1)) is not first  # so is the day


def test_the_cache_is_bounded_and_can_be_off(planner: Planner) -> None:
    cache = PlanCache(planner, 2)
    a = cache.plan("games", None, TODAY)
    cache.plan("papers", None, TODAY)
    cache.plan("talks", None, TODAY)  # evicts the oldest
    assert cache.plan("games", None, TODAY) is not a
    off = PlanCache(planner, 0)
    assert off.plan("games", None, TODAY) is not off.plan("games", None, TODAY)


def test_query_runs_are_kept_when_serving(planner: Planner) -> None:
    catalog = planner.engine.kb.catalog
    params = {"skill": planner.engine.kb.site.entity_base + "Rust"}
    assert catalog.run("works-using-skill", params) is not catalog.run("works-using-skill", params)  # off by default
    catalog.keep_runs(2)
    try:
        first = catalog.run("works-using-skill", params)
        assert catalog.run("works-using-skill", params) is first
        assert first.rows and first.query == catalog.fill("works-using-skill", params)
        catalog.run("works-using-skill", {"skill": planner.engine.kb.site.entity_base + "Go"})
        catalog.run("works-using-skill", {"skill": planner.engine.kb.site.entity_base + "Python"})  # evicts Rust
        assert catalog.run("works-using-skill", params) is not first
    finally:
        catalog.keep_runs(0)


def test_long_lived_objects_are_frozen_out_of_the_collector() -> None:
    async def app(scope: object, receive: object, send: object) -> None:
        return None

    middleware = FreezeLongLived(app, every=3)
    gc.unfreeze()
    kept = [[i] for i in range(1000)]  # long-lived, as cached plans are
    for _ in range(3):
        asyncio.run(middleware({"type": "http"}, None, None))  # type: ignore[arg-type]
    assert gc.get_freeze_count() >= len(kept)
    gc.unfreeze()
