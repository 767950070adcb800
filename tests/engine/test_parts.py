"""The smaller parts of planning, each alone: dates, intents, fusion, citations, confidence, resources."""

from __future__ import annotations

from datetime import date

import pytest

from service.engine import Planner
from service.engine.answer import Draft, Read, Reading, compose
from service.engine.catalog import Entity
from service.engine.confidence import decide
from service.engine.fuse import fuse
from service.engine.resources import resources_for
from tests.conftest import TODAY


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("what did she build in Q3 2025?", "2025-07-01", "2025-09-30"),
        ("work from the third quarter of 2024", "2024-07-01", "2024-09-30"),
        ("projects in March 2025", "2025-03-01", "2025-03-31"),
        ("early 2024", "2024-01-01", "2024-04-30"),
        ("summer 2023", "2023-06-01", "2023-08-31"),
        ("winter 2024", "2023-12-01", "2024-02-29"),
        ("what was she doing in 2018", "2018-01-01", "2018-12-31"),
        ("between 2019 and 2021", "2019-01-01", "2021-12-31"),
        ("on 14 March 2025", "2025-03-14", "2025-03-14"),
        ("on 2025-03-14", "2025-03-14", "2025-03-14"),
        ("in the past six months", "2026-05-30", "2026-11-30"),
        ("the last 3 years", "2023-11-30", "2026-11-30"),
        ("last year", "2025-01-01", "2025-12-31"),
        ("since last year", "2025-01-01", "2026-11-30"),
        ("since March 2024", "2024-03-01", "2026-11-30"),
        ("any papers from 2020 onwards", "2020-01-01", "2026-11-30"),
        ("talks from May 2023 on", "2023-05-01", "2026-11-30"),
        ("this year", "2026-01-01", "2026-11-30"),
        ("between March and June 2024", "2024-03-01", "2024-06-30"),
        ("from May 2023 to June 2025", "2023-05-01", "2025-06-30"),
        ("works in Jan-Mar 2025", "2025-01-01", "2025-03-31"),
        ("between Nov and Feb 2025", "2024-11-01", "2025-02-28"),
        ("what did she build in H1 2024", "2024-01-01", "2024-06-30"),
        ("by the end of 2024", "2024-09-01", "2024-12-31"),
        ("on 14/03/2025", "2025-03-14", "2025-03-14"),
        ("on 03/04/2025", "2025-04-03", "2025-04-03"),  # the day first (dates.yaml day_first)
        ("on 04/23/2025", "2025-04-23", "2025-04-23"),  # a day above 12 is read either way
        ("last summer", "2026-06-01", "2026-08-31"),
        ("last winter", "2025-12-01", "2026-02-28"),
        ("in the 2010s", "2010-01-01", "2019-12-31"),
        ("the late 2010s", "2017-01-01", "2019-12-31"),
        ("anything before 2015", "1900-01-01", "2014-12-31"),
        ("after March 2020", "2020-04-01", "2026-11-30"),
        ("what was she doing two years ago", "2024-01-01", "2024-12-31"),
        ("3 months ago", "2026-08-01", "2026-08-31"),
        ("did she present anything in '24?", "2024-01-01", "2024-12-31"),  # a year written short
        ("summer ’19", "2019-06-01", "2019-08-31"),
        ("back in '99", "1999-01-01", "1999-12-31"),
        ("the last couple of years", "2024-11-30", "2026-11-30"),  # "of" between the number and the unit
        ("what did he build around covid", "2020-03-01", "2021-12-31"),  # a time known by its name (dates.yaml)
        ("during the 2020 lockdown", "2020-03-01", "2020-12-31"),  # ... in the year given
    ],
)
def test_periods(planner: Planner, text: str, start: str, end: str) -> None:
    period = planner.engine.dates.parse(text, TODAY)
    assert period is not None and period.iso() == (start, end)


def test_the_words_leading_into_a_period_ask_nothing(planner: Planner) -> None:
    for question in ("what was she doing for work back in 2018", "way back in 2015, where did she work"):
        q = planner.analyser.read(question, question, TODAY)
        assert q.period is not None and not {"back", "way"} & set(q.ask), question


@pytest.mark.parametrize("text", ["a search library in 2,000 lines", "Lantern", "version 3030 of the spec",
                                  "the last end-to-end test", "the 2030s", "a 32/64/128 split"])  # fmt: skip
def test_no_period(planner: Planner, text: str) -> None:
    assert planner.engine.dates.parse(text, TODAY) is None


@pytest.mark.parametrize(
    ("question", "intent", "task", "operation"),
    [
        ("open Sparqlette", "navigate", "navigate", "overview"),
        ("Lantern source code", "source", "source", "overview"),
        ("tell me about Lantern", "entity", "learn", "overview"),
        ("Lantern", "entity", "navigate", "overview"),
        ("what is Lantern built with?", "stack", "learn", "stack"),
        ("how many works use Python?", "fact", "learn", "count"),
        ("what is BM25?", "define", "learn", "overview"),
        ("which games did she make?", "list", "discover", "list"),
        ("why did Tidewise use simulated annealing?", "explain", "learn", "explain"),
        ("how can I hire her?", "contact", "learn", "overview"),
    ],
)
def test_intent_and_interpretation(planner: Planner, question: str, intent: str, task: str, operation: str) -> None:
    plan = planner.plan(question, today=TODAY)
    assert (plan.intent, plan.task, plan.operation) == (intent, task, operation)


def test_fusion_rewards_agreement_and_key_work() -> None:
    tiers = {"a": 3, "b": 1, "c": 2}
    weights = {"linked": 1.0, "graph": 1.0, "wiki": 1.0}
    ranked = fuse({"graph": ["a", "b"], "wiki": ["a", "c"]}, weights, tiers, {1: 1.12, 2: 1.0, 3: 0.92})
    assert [iri for iri, _ in ranked] == ["a", "b", "c"]  # in two lists beats one
    ranked = fuse({"graph": ["a"], "wiki": ["b"]}, weights, tiers, {1: 1.12, 2: 1.0, 3: 0.92})
    assert [iri for iri, _ in ranked] == ["b", "a"]  # same rank: the key work first
    assert fuse({"wiki": ["zz"]}, weights, tiers, {}) == []  # only known entities


def test_citations_must_match_what_was_read() -> None:
    read = Read()
    ref = read.add("p:Lantern#lead-0", Reading("passage", "Lantern", "/wiki/Lantern", "Lantern is ..."))
    draft = Draft().say("Backed.", ref).say("Invented.", "p:Nowhere#x").say("Half.", ref, "q:not-run")
    answer = compose(draft, read)
    assert answer is not None
    assert answer.text == "Backed. [S1] Half. [S1]"
    assert [s.id for s in answer.sources] == ["S1"]
    assert compose(Draft().say("Only invented.", "p:Nowhere#x"), read) is None


def confidence(*, named: bool = False, support: float = 0.0, answered: bool = True, exact: bool = False,
               ambiguous: bool = False, terms: int = 3) -> tuple[str, str, int]:  # fmt: skip
    c = decide(ambiguous=ambiguous, exact_route=exact, answered=answered, named=named, support=support,
               strong_support=0.85, terms=terms, strong_min_terms=2)  # fmt: skip
    return c.level, c.label, c.score


def test_confidence_by_route() -> None:
    assert confidence(ambiguous=True, answered=False)[0] == "exact"
    assert confidence(exact=True, named=True, support=1) == ("exact", "High", 96)
    assert confidence(answered=False, named=True, support=1)[0] == "none"
    assert confidence(named=True, support=0.2)[0] == "strong"
    assert confidence(support=0.9)[0] == "strong"
    level, label, score = confidence(support=0.7)
    assert level == "weak" and label in ("Medium", "Low") and 0 < score < 75
    assert confidence(support=1.0, terms=1)[0] == "weak"  # one word is carried "whole" by any passage


def test_resources_offer_only_safe_urls_and_follow_the_task() -> None:
    e = Entity("https://x.example/id/W", "W", "W", "work", live="https://w.example/", repository="javascript:alert(1)")
    resources, primary = resources_for(e, "navigate")
    assert primary == "live" and resources[0].url == "https://w.example/"
    assert [r.role for r in resources] == ["live", "about"]  # the unsafe repository is not offered
    _, primary = resources_for(e, "source")
    assert primary == "about"  # no (safe) source: fall back to about
    creds = Entity("https://x.example/id/V", "V", "V", "work", live="https://user:pw@v.example/")
    assert [r.role for r in resources_for(creds, "navigate")[0]] == ["about"]


def test_today_changes_relative_periods(planner: Planner) -> None:
    a = planner.plan("what did she build last year?", today=date(2026, 11, 30))
    b = planner.plan("what did she build last year?", today=date(2024, 6, 1))
    assert a.period == ("2025-01-01", "2025-12-31") and b.period == ("2023-01-01", "2023-12-31")
