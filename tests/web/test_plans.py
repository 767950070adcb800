"""The per-worker plan cache: repeated questions are not planned again; it is bounded, and 0 turns it off."""

from __future__ import annotations

from datetime import date

from service.engine import Planner
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
