"""Question-log rows as the server writes them, made by planning real questions (for the misses tests)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from service.engine import Planner
from service.questionlog import entry_for


def asked(planner: Planner, questions: list[tuple[str, str | None]], today: date,
          start: datetime | None = None, step: int = 20) -> list[dict[str, Any]]:  # fmt: skip
    """One row per (question, previous), `step` seconds apart, as the page channel logs them."""
    at = start or datetime(today.year, today.month, today.day, 9, 0, tzinfo=UTC)
    rows = []
    for question, previous in questions:
        plan = planner.plan(question, previous=previous, today=today)
        entry = replace(entry_for(plan, "page"), asked_at=at.strftime("%Y-%m-%dT%H:%M:%SZ"))
        rows.append(entry.as_dict())
        at += timedelta(seconds=step)
    return rows
