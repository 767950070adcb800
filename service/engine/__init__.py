"""The question engine: `Planner(Engine.from_kb(kb)).plan(question)` returns a Plan."""

from __future__ import annotations

from datetime import date

from service.config import setting
from service.engine.engine import Engine
from service.engine.plan import Planner
from service.kb import KB

__all__ = ["Engine", "Planner", "load", "today"]


def load(kb: KB) -> Planner:
    planner = Planner(Engine.from_kb(kb))
    if setting("EMBEDDINGS_ENABLED").strip().lower() in ("1", "true", "on", "yes"):  # the meaning model, on by default
        from service.engine.meaning import Meaning  # noqa: PLC0415  # numpy and the model only when it is on
        from service.model_settings import Settings  # noqa: PLC0415

        planner.engine.meaning = Meaning.open(kb.path, planner.engine.passages, Settings.load())
        if planner.engine.meaning is not None:
            planner.engine.meaning.learn_routes(planner.matcher.routes)
    return planner


def today() -> date:
    """The date questions are planned on: $TODAY when set (evaluations pin it), else the real date."""
    pinned = setting("TODAY")
    return date.fromisoformat(pinned) if pinned else date.today()
