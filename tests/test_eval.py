"""The regression suites of the three portfolios (tests/search-eval.json for the demo,
examples/mateo/eval/regression.json for the second, examples/noor/eval/regression.json for the third): every case
must pass. The held-out sets only report."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pyoxigraph as ox
import pytest

from service.engine import Planner
from service.evaluate import _states, check_regression, run_suite, summary
from tests.conftest import MATEO, NOOR, ROOT

SUITE = json.loads((ROOT / "tests" / "search-eval.json").read_text())
TODAY = date.fromisoformat(SUITE["today"])
MATEO_SUITE = json.loads((MATEO / "eval" / "regression.json").read_text())
NOOR_SUITE = json.loads((NOOR / "eval" / "regression.json").read_text())


@pytest.mark.parametrize("suite", [SUITE, MATEO_SUITE], ids=["demo", "mateo"])
def test_the_suite_is_big_and_varied(suite: dict[str, Any]) -> None:
    cases = suite["cases"]
    assert len(cases) >= 150
    routes = {c["route"] for c in cases}
    assert len(routes) >= 20
    assert sum(1 for c in cases if c.get("previous")) >= 5
    assert sum(1 for c in cases if c["confidence"] == "none") >= 10


@pytest.mark.parametrize("case", MATEO_SUITE["cases"], ids=[c["id"] for c in MATEO_SUITE["cases"]])
def test_second_portfolio_case(mateo_planner: Planner, case: dict[str, Any]) -> None:
    result = check_regression(mateo_planner, case, date.fromisoformat(MATEO_SUITE["today"]))
    assert result.ok, f"{case['question']!r}: " + "; ".join(result.problems)


@pytest.mark.parametrize("case", NOOR_SUITE["cases"], ids=[c["id"] for c in NOOR_SUITE["cases"]])
def test_third_portfolio_case(noor_planner: Planner, case: dict[str, Any]) -> None:
    result = check_regression(noor_planner, case, date.fromisoformat(NOOR_SUITE["today"]))
    assert result.ok, f"{case['question']!r}: " + "; ".join(result.problems)


@pytest.mark.parametrize("case", SUITE["cases"], ids=[c["id"] for c in SUITE["cases"]])
def test_regression_case(planner: Planner, case: dict[str, Any]) -> None:
    result = check_regression(planner, case, TODAY)
    assert result.ok, f"{case['question']!r}: " + "; ".join(result.problems)


def test_every_shown_query_returns_the_rows_the_answer_used(planner: Planner) -> None:
    store = planner.engine.kb.store
    checked = 0
    for case in SUITE["cases"]:
        plan = planner.plan(case["question"], previous=case.get("previous"), today=TODAY)
        for run in plan.sparql:
            again = store.query(run.query, use_default_graph_as_union=True)
            assert isinstance(again, ox.QuerySolutions)
            rows = [[row[v].value if row[v] is not None else None for v in again.variables] for row in again]
            assert rows[: len(run.rows)] == [[r[c].value if c in r else None for c in run.columns] for r in run.rows]
            assert len(rows) == len(run.rows) or run.truncated
            checked += 1
    assert checked >= 200


def test_holdout_reports_its_figures(planner: Planner) -> None:
    results, _ = run_suite(planner, ROOT / "tests" / "search-holdout.json", holdout=True)
    report = summary(results)
    assert report["cases"] >= 60
    assert set(report["groups"]) == {"answerable", "unrelated", "absent"}
    print(json.dumps(report))  # reported, never asserted on: it is held out


def test_the_strict_measure_reads_what_the_answer_says(planner: Planner, tmp_path: Any) -> None:
    """One question, three cases: the old measure is met by all three; the strict one only by the case whose
    `must` the answer states and whose `must_not` it does not; a year is not read inside another number."""
    question = "when did she start at Harbourline?"
    base: dict[str, Any] = {"question": question, "previous": None, "group": "answerable", "expect": []}
    plan = planner.plan(question, today=TODAY)
    assert plan.answer is not None
    year = next(w for w in plan.answer.text.replace(".", " ").split() if w.isdigit() and len(w) == 4)
    cases = [
        {**base, "id": "said", "must": [[year, "never"]], "must_not": []},
        {**base, "id": "unsaid", "must": [year[2:]], "must_not": []},  # "21" is not stated by "2021"
        {**base, "id": "contradicted", "must": [year], "must_not": [year]},
    ]
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"today": SUITE["today"], "cases": cases}))
    results, _ = run_suite(planner, path, holdout=True)
    assert [(r.ok_old, r.ok) for r in results] == [(True, True), (True, False), (True, False)]
    assert "does not state" in results[1].problems[-1] and "states" in results[2].problems[-1]
    report = summary(results)
    assert (report["right"], report["right_old"]) == (1, 3)


def test_a_regression_case_fails_when_the_answer_leaves_out_its_must(planner: Planner) -> None:
    """The same question, as a regression case: it passes with a `must` the answer states and fails, saying
    what is missing, with one it does not."""
    question = "when did she start at Harbourline?"
    plan = planner.plan(question, today=TODAY)
    assert plan.answer is not None
    year = next(w for w in plan.answer.text.replace(".", " ").split() if w.isdigit() and len(w) == 4)
    stated = check_regression(planner, {"id": "s", "question": question, "must": [year]}, TODAY)
    unstated = check_regression(planner, {"id": "u", "question": question, "must": [[year[2:], "never"]]}, TODAY)
    assert stated.ok and not unstated.ok
    assert unstated.problems == [f"the answer does not state ['{year[2:]} or never']"]


def test_a_number_is_stated_in_digits_or_as_a_word() -> None:
    """A visitor reads "within distance two" as stating 2; "2023", "1.2" and "twenty-two" do not state 2."""
    assert _states("corrections within distance two of a word", "2")
    assert _states("Two problems nearly delayed it", "2") and _states("about thirty participants", "30")
    assert not any(_states(t, "2") for t in ("in 2023", "version 1.2", "twenty-two keys", "two-thirds"))
    assert _states("in 2023", "2023") and not _states("in 2023", "23")
