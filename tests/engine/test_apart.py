"""Names a question sets apart ("apart from X, which ..."): left out of the lists and said to be, on both
portfolios, while the plan keeps every row the console shows."""

from __future__ import annotations

import pytest

from service.engine import Planner
from tests.conftest import TODAY

MATEO = "https://mateovarga.example/id/"
DEMO = "https://inescalder.example/id/"


@pytest.mark.parametrize(
    ("who", "question", "apart", "kept"),
    [
        ("mateo", "Apart from Fathom, which of his tools is written in Rust?", ["Fathom"], "Trawl"),
        ("demo", "which rust projects besides Lantern?", ["Lantern"], "Tessera"),
        ("demo", "other than Lantern and Shapeshift, what has she built in Rust?", ["Lantern", "Shapeshift"],
         "Tessera"),
    ],
)  # fmt: skip
def test_what_is_set_apart_is_left_out_of_the_list(
    planner: Planner, mateo_planner: Planner, who: str, question: str, apart: list[str], kept: str
) -> None:
    p, base = (mateo_planner, MATEO) if who == "mateo" else (planner, DEMO)
    plan = p.plan(question, today=TODAY)
    assert plan.answer is not None and kept in plan.answer.text
    listed, left_out = plan.answer.text.split(" left out, as asked.")[0].rsplit("[S1]", 1)
    assert all(name not in listed for name in apart) and all(name in left_out for name in apart)
    assert all(base + name not in [r.iri for r in plan.results] for name in apart)
    # the query shown still returns them: the console gives the rows the plan read, and the ones set apart
    rows = [c.value for run in plan.sparql for row in run.rows for c in row.values()]
    assert all(base + name in rows for name in apart)
    assert plan.normalized == question  # shown as asked


def test_words_that_stand_for_nothing_set_nothing_apart(planner: Planner, mateo_planner: Planner) -> None:
    for p, question in ((planner, "other than that, what has she built in Rust?"),
                        (mateo_planner, "besides all that, which of his tools is written in Rust?")):  # fmt: skip
        plan = p.plan(question, today=TODAY)
        assert plan.answer is not None and "left out" not in plan.answer.text, question


@pytest.mark.parametrize(
    ("who", "question", "apart", "kept"),
    [
        # a kind of work other than the one asked about: its works that the list would hold
        ("demo", "what has she built in Rust other than libraries?", ["Lantern", "Shapeshift"], "Tessera"),
        # one thing so described, of the kind asked about: the talk that is a workshop
        ("mateo", "how many talks has he given, not counting the workshop?", ["Build a Bat Detector in an Afternoon"],
         "Fixed-Point Without Fear"),
        ("demo", "other than the tokenizer and her papers, what else used japanese wikipedia?",
         ["Kanji-aware Tokenizer"], "Kamo Test Collection"),
    ],
)  # fmt: skip
def test_what_words_describe_is_set_apart_too(
    planner: Planner, mateo_planner: Planner, who: str, question: str, apart: list[str], kept: str
) -> None:
    plan = (mateo_planner if who == "mateo" else planner).plan(question, today=TODAY)
    assert plan.answer is not None and kept in plan.answer.text
    listed, left_out = plan.answer.text.split(" left out, as asked.")[0].rsplit("[S", 1)
    assert all(name not in listed for name in apart) and all(name in left_out for name in apart)
    assert all(name not in [r.label for r in plan.results] for name in apart)
