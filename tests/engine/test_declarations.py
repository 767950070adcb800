"""The route declarations (service/language/routes/*.yaml) as the planner reads them: every way names a step the
engine has, every route a step answers as is declared, and a broken declaration is reported at its line."""

from __future__ import annotations

from pathlib import Path

from service.engine import Planner
from service.engine.conditions import TESTS
from service.engine.steps import STEPS
from service.language import declarations
from service.yamlfile import load_with_lines


def test_the_engine_declarations_load_without_a_problem() -> None:
    routes, problems = declarations.load({})
    assert problems == []
    assert {"pivot", "entity", "passage", "empty", "private", "off_topic", "ambiguous"} <= set(routes)


def test_every_step_named_is_registered_and_every_condition_evaluated() -> None:
    assert set(STEPS) == declarations.STEPS
    assert set(TESTS) == set(declarations.CONDITIONS)


def test_the_planner_tries_every_way_in_precedence_order(planner: Planner) -> None:
    ways = planner.matcher.ways
    assert [w.precedence for w in ways] == sorted(w.precedence for w in ways)
    assert ways[0].route == "private" and ways[-1].hedged


def test_a_broken_declaration_is_reported_with_its_line(tmp_path: Path) -> None:
    text = "about: a test\nways:\n  - step: lists.nonesuch\n    precedence: 10\n  - step: texts.top_passage\n" \
           "    when: {colour: blue}\n"  # fmt: skip
    doc, lines = load_with_lines(text)
    _, problems = declarations.load({"mine": (doc, lines, "data/lexicon/routes/mine.yaml")})
    assert any(p.line == 3 and "no step is called 'lists.nonesuch'" in p.message for p in problems), problems
    assert any(p.line == 6 and "`colour` is not a condition" in p.message for p in problems), problems
