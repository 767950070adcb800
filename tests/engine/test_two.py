"""Two questions asked in one: where they part, and the one answer made of two, on both portfolios."""

from __future__ import annotations

import re

import pytest

from service.engine import Planner
from service.engine.model import Plan
from tests.conftest import TODAY


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("Where did the paper appear, and what data was it trained on?",
         ("Where did the paper appear", "what data was it trained on?")),
        ("Which meetup does she co-organise, and since when?", ("Which meetup does she co-organise", "since when?")),
        ("where and when did she give the talk", ("where did she give the talk", "when did she give the talk")),
        ("What is Widgeteer and what was it written in?", ("What is Widgeteer", "what was it written in?")),
        ("Rust and Python projects", None),  # no question word after the "and"
        ("compare Lantern and Tessera", None),
        ("X and why", None),  # too short a first question to be one
    ],
)  # fmt: skip
def test_a_question_parts_where_a_joining_word_meets_a_question_word(
    planner: Planner, question: str, parts: tuple[str, str] | None
) -> None:
    assert planner.engine.two.split(question) == parts


def cited_exist(plan: Plan) -> bool:
    assert plan.answer is not None
    ids = {s.id for s in plan.answer.sources}
    return set(re.findall(r"\[(S\d+)\]", plan.answer.text)) <= ids and len(ids) == len(plan.answer.sources)


def test_each_question_is_answered_in_turn(planner: Planner, mateo_planner: Planner) -> None:
    demo = planner.plan("what is SHACL and how has she used it?", today=TODAY)
    assert demo.answer is not None and cited_exist(demo)
    assert "Shapes Constraint Language" in demo.answer.text and "Shapeshift" in demo.answer.text
    mateo = mateo_planner.plan("What talk came out of his Halo work, and in which city was it given?", today=TODAY)
    assert mateo.answer is not None and cited_exist(mateo)
    assert "Spatial Audio Without the GPU" in mateo.answer.text and "Manchester" in mateo.answer.text
    # the queries of both parts are the plan's, so the console reproduces each
    first = mateo_planner.plan("What talk came out of his Halo work", today=TODAY)
    second = mateo_planner.plan("in which city was it given?", previous=first, today=TODAY)
    assert {r.query for r in mateo.sparql} == {r.query for r in [*first.sparql, *second.sparql]}
    # the question stays as asked
    assert mateo.question.startswith("What talk came out") and mateo.confidence.level == "exact"


def test_a_second_question_nothing_answers_is_said_to_be_unanswered(planner: Planner, mateo_planner: Planner) -> None:
    for p, question, part in (
        (planner, "What is SHACL and what colour is the sky?", "what colour is the sky?"),
        (mateo_planner, "What is beamforming and what colour is the sky?", "what colour is the sky?"),
    ):
        plan = p.plan(question, today=TODAY)
        assert plan.answer is not None and cited_exist(plan)
        assert f"the second part, “{part}”" in plan.answer.text
        assert plan.answer.text.count("Nothing") == 1


def test_a_second_answer_that_adds_nothing_is_left_out(planner: Planner) -> None:
    """The first answer already says where the paper appeared: "and where?" adds no sentence repeating it."""
    plan = planner.plan("When was 'How Deep Should We Judge?' published, and where?", today=TODAY)
    assert plan.answer is not None
    assert plan.answer.text.count("Workshop on Evaluation Methodology") == 1 and "2019" in plan.answer.text


def test_a_second_question_naming_nothing_asks_of_the_first_ones_subject(
    planner: Planner, mateo_planner: Planner
) -> None:
    """ "which database does Roost use, and which programming languages?": asked alone, the second half asks
    for every language the owner used; asked with the first, for the first's subject's."""
    for p, question, subject, languages in (
        (planner, "what database does transit pulse use, and which programming languages?", "Transit Pulse",
         "2 programming languages: Python and TypeScript"),
        (mateo_planner, "which database does Roost use, and which programming languages?", "Roost",
         "1 programming language: TypeScript"),
    ):
        plan = p.plan(question, today=TODAY)
        assert plan.answer is not None and cited_exist(plan)
        assert languages in plan.answer.text and f"{subject} uses 1 database" in plan.answer.text
        alone = p.plan("which programming languages?", today=TODAY)
        assert alone.answer is not None and languages not in alone.answer.text
