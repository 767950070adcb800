"""How an answer was found: the trace of a plan says what was read, which branches were tried, which answered
and which were undone and why, every stored query, the fusion and the confidence; with the trace off, nothing
changes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service import snapshot
from service.engine import Planner
from tests.conftest import ROOT, TODAY


@pytest.fixture(params=["demo", "mateo"])
def any_planner(request: pytest.FixtureRequest) -> Planner:
    found: Planner = request.getfixturevalue("planner" if request.param == "demo" else "mateo_planner")
    return found


def sample(planner: Planner, every: int = 9) -> list[str]:
    return snapshot.questions(planner)[::every]


def test_the_trace_changes_nothing_but_itself(any_planner: Planner) -> None:
    for q in sample(any_planner, 17):
        plain, traced = any_planner.plan(q, today=TODAY), any_planner.plan(q, today=TODAY, trace=True)
        assert plain.trace is None and "trace" not in plain.to_json()
        with_trace = traced.to_json()
        steps = with_trace.pop("trace")
        assert steps, q
        assert snapshot.digest(plain) == snapshot.digest(traced), q


def test_every_trace_reads_in_order_and_ends_with_the_decision(any_planner: Planner) -> None:
    for q in sample(any_planner):
        plan = any_planner.plan(q, today=TODAY, trace=True)
        assert plan.trace is not None
        stages = [s.stage for s in plan.trace]
        assert stages.index("intent") < stages.index("branch"), q
        assert stages[-1] == "confidence" and plan.trace[-1].facts["level"] == plan.confidence.level, q
        final = [s for s in plan.trace if s.stage == "branch" and (s.facts.get("kept") or ("route" in s.facts and
                 "answered" not in s.facts))]  # fmt: skip
        assert len(final) == 1, (q, [s.text for s in plan.trace])
        traced = [s.facts["query"] for s in plan.trace if s.stage == "query"]
        kept = [run.name for run in plan.sparql]
        assert all(name in traced for name in kept), q  # every query behind the answer, in the trace


def test_a_branch_undone_is_named_with_the_words_its_answer_missed(planner: Planner) -> None:
    plan = planner.plan("which works implement Geohashing?", today=TODAY, trace=True)
    assert plan.trace is not None
    undone = [s for s in plan.trace if s.stage == "branch" and s.facts.get("kept") is False]
    assert undone and undone[0].facts["branch"] == "routes.entity_answer"
    assert undone[0].facts["unaddressed"] == ["implement"] and "implement" in undone[0].text
    assert plan.route != "entity"  # undone: its entity overview is not the answer
    ran = [s.facts["query"] for s in plan.trace if s.stage == "query"]
    assert "entity-facts" in ran and "entity-facts" not in [run.name for run in plan.sparql]


def test_both_portfolios_have_questions_whose_first_answer_is_undone(any_planner: Planner) -> None:
    # the snapshot questions, and one asking the price of the key work, which no overview states
    key = min((e for e in any_planner.engine.entities.values() if e.kind == "work" and e.key_rank is not None),
              key=lambda e: e.key_rank or 0)  # fmt: skip
    undone = []
    for q in [*snapshot.questions(any_planner), f"how much does {key.label} cost?"]:
        plan = any_planner.plan(q, today=TODAY, trace=True)
        assert plan.trace is not None
        steps = [s for s in plan.trace if s.stage == "branch" and s.facts.get("kept") is False]
        if steps:
            undone.append((q, steps[0]))
    assert undone
    for q, step in undone:
        asked = q.lower()
        words = [w for w in step.facts["unaddressed"] if not w.startswith("a stated ")]  # a kind of fact unstated
        assert step.facts["unaddressed"] and all(w[:3] in asked for w in words), (q, step.text)


def test_spelling_corrections_say_their_edit_distance(planner: Planner) -> None:
    plan = planner.plan("pyhton projcts", today=TODAY, trace=True)
    assert plan.trace is not None
    fixes = {s.facts["original"]: s.facts for s in plan.trace if s.stage == "spelling"}
    assert fixes["pyhton"]["corrected"] == "python" and fixes["pyhton"]["distance"] == 2
    assert fixes["projcts"]["distance"] == 1


def test_the_intent_step_says_which_rule_and_phrase_decided(any_planner: Planner) -> None:
    plan = any_planner.plan("how many works are there?", today=TODAY, trace=True)
    assert plan.trace is not None
    intent = next(s for s in plan.trace if s.stage == "intent")
    assert intent.facts["rule"] == "count" and "how many" in intent.text


def test_ask_trace_prints_the_numbered_steps(demo_kb_path: object) -> None:
    out = subprocess.run([sys.executable, "-m", "service", "ask", "--kb", str(demo_kb_path), "--trace",
                          "Rust projects"], cwd=ROOT, capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "how this answer was found:" in out
    assert " 1. linking" in out and "stored query works-using-skill" in out and "confidence" in out


@pytest.mark.parametrize("question, reason", [
    ("can you recommend a good restaurant?", "task or everyday topic (“recommend”)"),
    ("write me a python function that sorts a list", "never publishes"),
    ("what is their home address?", "private"),
    ("what is the capital of mongolia?", "never uses (mongolia)"),
])
def test_a_question_declined_before_any_branch_says_why(any_planner: Planner, question: str, reason: str) -> None:
    plan = any_planner.plan(question, today=TODAY, trace=True)
    assert plan.trace is not None and plan.answer is None
    declined = [s for s in plan.trace if s.stage == "branch" and s.text.startswith("declined before any branch")]
    assert len(declined) == 1, [s.text for s in plan.trace]
    assert reason in declined[0].facts["reason"] and declined[0].facts["reason"] in declined[0].text
