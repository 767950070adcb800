"""The route declarations (service/language/routes/*.yaml) as the planner reads them: every way names a step the
engine has, every route a step answers as is declared, and a broken declaration is reported at its line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.engine import Planner
from service.engine.conditions import TESTS
from service.engine.steps import STEPS
from service.language import declarations
from service.yamlfile import load_with_lines
from tests.conftest import MATEO, ROOT, TODAY


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


def _examples(planner: Planner) -> list[tuple[str, str, bool]]:
    """(route, question, must reach it) of every declaration, from the portfolio's own files (its examples name
    its works: they live in its data/lexicon/routes/, never in the engine's language)."""
    return [(r.name, q, reach) for r in planner.engine.declarations.values() if r.owner_examples
            for q, reach in [*((q, True) for q in r.examples), *((q, False) for q in r.not_)]]  # fmt: skip


def test_the_engine_declarations_name_no_portfolio_question() -> None:
    routes, _ = declarations.load({})
    assert [r.name for r in routes.values() if r.examples or r.not_] == []


def test_every_route_has_three_demo_examples_and_close_ones_that_miss(planner: Planner) -> None:
    routes = planner.engine.declarations
    thin = {r.name: len(r.examples) for r in routes.values() if len(r.examples) < 3 or not r.not_}
    assert thin == {}


def test_each_demo_example_reaches_its_route_and_each_near_miss_does_not(planner: Planner) -> None:
    wrong = []
    for route, question, reach in _examples(planner):
        got = planner.plan(question, today=TODAY).route
        if (got == route) != reach:
            wrong.append(f"{question!r} -> {got} ({'should reach' if reach else 'must not reach'} {route})")
    assert wrong == []


def test_the_second_portfolio_examples_reach_their_routes(mateo_planner: Planner) -> None:
    found = _examples(mateo_planner)
    assert len({route for route, _, _ in found}) >= 30  # written for that portfolio, in its own data/lexicon/routes/
    wrong = []
    for route, question, reach in found:
        got = mateo_planner.plan(question, today=TODAY).route
        if (got == route) != reach:
            wrong.append(f"{question!r} -> {got} ({'should reach' if reach else 'must not reach'} {route})")
    assert wrong == []


def test_every_route_of_the_regression_suites_is_declared(planner: Planner) -> None:
    cases = [c for path in (ROOT / "tests" / "search-eval.json", MATEO / "eval" / "regression.json")
             for c in json.loads(path.read_text(encoding="utf-8"))["cases"]]  # fmt: skip
    assert {c["route"] for c in cases if "route" in c} <= set(planner.engine.declarations)


def test_no_answer_shows_a_template_field(planner: Planner) -> None:
    """Every value a sentence names is given: no "{count}" or "{works|...}" reaches a visitor."""
    field = re.compile(r"\{[a-z_]+(?:[|?][^}]*)?\}")
    suite = json.loads((ROOT / "tests" / "search-eval.json").read_text(encoding="utf-8"))
    shown = [planner.plan(c["question"], previous=c.get("previous"), today=TODAY) for c in suite["cases"]]
    left = [(p.question, m.group()) for p in shown if p.answer and (m := field.search(p.answer.text))]
    assert left == []
