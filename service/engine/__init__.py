"""The question engine: `Planner(Engine.from_kb(kb)).plan(question)` returns a Plan."""

from __future__ import annotations

from datetime import date

from service.config import setting
from service.engine.engine import Engine
from service.engine.plan import Planner
from service.kb import KB

__all__ = ["Engine", "Planner", "load", "today"]


def load(kb: KB) -> Planner:
    return Planner(Engine.from_kb(kb))


def today() -> date:
    """The date questions are planned on: $TODAY when set (evaluations pin it), else the real date."""
    pinned = setting("TODAY")
    return date.fromisoformat(pinned) if pinned else date.today()
