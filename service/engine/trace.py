"""How an answer was found: the steps one plan took, in order, each as one readable sentence and the figures
behind it. Recorded only when asked (`Planner.plan(..., trace=True)`, `/api/ask?trace=1`, `ask --trace`):
with the trace off, every hook is one test of `None`.

Stages, in the order a plan meets them: spelling, shorthand, context, apart (names set apart), linking, intent,
period, search (words and expansions), branch (tried, answered, kept or undone and why), query (each stored query
run), passages (the articles searched and their scores), meaning (a passage or word found by the meaning model
where the question's words failed), fusion, complete (a sentence added that states what
was asked), confidence; for two questions asked in one,
a split step, then the steps of each part's plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    stage: str
    text: str
    facts: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "text": self.text, **({"facts": self.facts} if self.facts else {})}


class Trace(list[Step]):
    """The steps of one plan, in the order they were taken."""

    def add(self, stage: str, said: str, /, **facts: Any) -> None:
        self.append(Step(stage, said, facts))


def trace_passed(tr: Trace, passed: list[str], at: int) -> None:
    """The branches tried that did not answer (and read nothing), as one step put at `at`, before what the
    next branch read; the list is emptied."""
    if passed:
        tr.insert(at, Step("branch", f"tried, no answer: {', '.join(passed)}", {"branches": list(passed),
                                                                               "answered": False}))
        passed.clear()
