"""An answer that leaves unsaid what was asked is completed with the sentence of a nearby article that states
it, cited as a passage; an answer that already says it, or a route that answers from the graph alone, is left
as it was. Both portfolios."""

from __future__ import annotations

import pytest

from service.engine import Planner
from service.engine.model import Plan
from tests.conftest import TODAY

# question, a fact only the added sentence states
COMPLETED = {
    "demo": [("how many engineers did she mentor at Tessellate?", "five engineers"),
             ("where do the exposure events of the A/B testing service at Quillon go?", "ClickHouse")],
    "mateo": [("for the bat call classifier paper, were the recordings split at random?", "split by site"),
              ("what interference did the workshop detector's screen produce?", "ultrasonic interference")],
}  # fmt: skip
LEFT = {
    "demo": ["what was the median error of the Harbourline ETA predictor before and after?",
             "how many papers has she written?"],
    "mateo": ["how many papers has he written?", "why did Wi-Fi not suit Noctule?"],
}  # fmt: skip


def _planner(request: pytest.FixtureRequest, which: str) -> Planner:
    found: Planner = request.getfixturevalue("planner" if which == "demo" else "mateo_planner")
    return found


def _completions(plan: Plan) -> list[dict[str, object]]:
    assert plan.trace is not None
    return [s.facts for s in plan.trace if s.stage == "complete"]


@pytest.mark.parametrize("which", ["demo", "mateo"])
def test_the_sentence_that_states_what_was_asked_is_added_and_cited(request: pytest.FixtureRequest, which: str) -> None:
    planner = _planner(request, which)
    for question, fact in COMPLETED[which]:
        plan = planner.plan(question, today=TODAY, trace=True)
        assert plan.answer is not None, question
        steps = _completions(plan)
        assert len(steps) == 1, question
        added = plan.answer.sources[-1]
        assert added.kind == "passage" and added.url.startswith("/wiki/"), question
        assert fact in added.text and fact in plan.answer.text, question
        # the route's own answer comes first; the sentence is added after it, and holds more of what was asked
        assert plan.answer.text.index(fact) > 0
        assert float(str(steps[0]["share"])) > float(str(steps[0]["before"])), question


@pytest.mark.parametrize("which", ["demo", "mateo"])
def test_an_answer_that_says_it_already_or_comes_from_the_graph_is_left_alone(
    request: pytest.FixtureRequest, which: str
) -> None:
    planner = _planner(request, which)
    for question in LEFT[which]:
        plan = planner.plan(question, today=TODAY, trace=True)
        assert plan.answer is not None, question
        assert _completions(plan) == [], question
