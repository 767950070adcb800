"""The evaluation suites: the regression suite (every case must pass) and the held-out set (reports only).

tests/search-eval.json      {"today": "...", "cases": [{"id", "question", "previous", "intent", "route", "task",
                            "operation", "entity", "top", "resources", "confidence"}]}: each field given is checked.
tests/search-holdout.json   {"cases": [{"id", "question", "previous", "group", "expect", "facts"}]}, group answerable /
                            unrelated / absent: right outcome = answered with an expected entity among the first
                            results and, when the case lists `facts`, an answer that states each of them (a string,
                            or a list of alternatives, compared without case) / not answered / pivoted.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from service.engine.model import Plan
from service.engine.plan import Planner

TOP = 5


@dataclass
class CaseResult:
    id: str
    question: str
    group: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    rank: int | None = None  # 1-based rank of the first expected entity, if any
    ms: float = 0.0
    route: str = ""
    level: str = ""
    expects: bool = False  # the case names entities, so it counts for MRR


def _local(planner: Planner, iri: str | None) -> str | None:
    e = planner.engine.entities.get(iri or "")
    return e.name if e else None


def _result_names(planner: Planner, plan: Plan) -> list[str]:
    return [name for r in plan.results if (name := _local(planner, r.iri))]


def _rank(names: list[str], expected: list[str]) -> int | None:
    for i, name in enumerate(names, start=1):
        if name in expected:
            return i
    return None


def check_regression(planner: Planner, case: dict[str, Any], today: date) -> CaseResult:
    plan = planner.plan(case["question"], previous=case.get("previous"), today=today)
    names = _result_names(planner, plan)
    problems = []
    for key, actual in (
        ("intent", plan.intent),
        ("route", plan.route),
        ("task", plan.task),
        ("operation", plan.operation),
        ("confidence", plan.confidence.level),
    ):
        if key in case and case[key] != actual:
            problems.append(f"{key}: expected {case[key]!r}, got {actual!r}")
    if "entity" in case and case["entity"] != _local(planner, plan.entity):
        problems.append(f"entity: expected {case['entity']!r}, got {_local(planner, plan.entity)!r}")
    missing = [t for t in case.get("top", []) if t not in names[:TOP]]
    if missing:
        problems.append(f"not in the first {TOP} results: {missing} (got {names[:TOP]})")
    for name, role in (case.get("resources") or {}).items():
        got = next((r.primary for r in plan.results if _local(planner, r.iri) == name), None)
        if got != role:
            problems.append(f"primary action of {name}: expected {role!r}, got {got!r}")
    if "answered" in case and case["answered"] != (plan.answer is not None):
        problems.append(f"answered: expected {case['answered']}, got {plan.answer is not None}")
    rank = _rank(names, case.get("top", []))
    return CaseResult(case["id"], case["question"], "regression", not problems, problems, rank,
                      plan.timing_ms, plan.route, plan.confidence.level, bool(case.get("top")))  # fmt: skip


def check_holdout(planner: Planner, case: dict[str, Any], today: date,
                  serve: Callable[[Plan], Plan] | None = None) -> CaseResult:  # fmt: skip
    """`serve`: what is done to a plan before it is served (the model fallback of `eval --fallback`)."""
    plan = planner.plan(case["question"], previous=case.get("previous"), today=today)
    plan = serve(plan) if serve is not None else plan
    names = _result_names(planner, plan)
    group, expected = case["group"], case.get("expect") or []
    answered = plan.confidence.level != "none" and plan.answer is not None
    rank = _rank(names, expected)
    if group == "unrelated":
        ok = not answered
    elif group == "absent":
        ok = plan.route == "pivot"
    else:
        ok = answered and (not expected or (rank is not None and rank <= TOP))
    missing = _missing_facts(plan, case.get("facts") or []) if group == "answerable" else []
    ok = ok and not missing
    why = [] if ok else [f"route {plan.route}, {plan.confidence.level}, first results {names[:3]}"]
    if missing:
        why.append(f"the answer does not state {missing}")
    return CaseResult(case["id"], case["question"], group, ok, why, rank, plan.timing_ms, plan.route,
                      plan.confidence.level, group == "answerable" and bool(expected))  # fmt: skip


def _missing_facts(plan: Plan, facts: list[Any]) -> list[str]:
    """The facts a right answer states that this one does not (each a string or a list of alternatives)."""
    text = (plan.answer.text if plan.answer else "").lower()
    missing = []
    for fact in facts:
        options = [fact] if isinstance(fact, str) else list(fact)
        if not any(str(o).lower() in text for o in options):
            missing.append(" or ".join(map(str, options)))
    return missing


def run_suite(planner: Planner, path: Path, *, holdout: bool,
              serve: Callable[[Plan], Plan] | None = None) -> tuple[list[CaseResult], date]:  # fmt: skip
    doc = json.loads(path.read_text(encoding="utf-8"))
    today = date.fromisoformat(doc.get("today", "2026-11-30"))
    if holdout:
        return [check_holdout(planner, case, today, serve) for case in doc["cases"]], today
    return [check_regression(planner, case, today) for case in doc["cases"]], today


def summary(results: list[CaseResult]) -> dict[str, Any]:
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(r.group, []).append(r)
    ranked = [r for r in results if r.expects]
    mrr = statistics.fmean(1 / r.rank if r.rank else 0.0 for r in ranked) if ranked else 0.0
    times = sorted(r.ms for r in results)
    return {
        "cases": len(results),
        "right": sum(r.ok for r in results),
        "groups": {g: {"cases": len(rs), "right": sum(r.ok for r in rs)} for g, rs in sorted(groups.items())},
        "mrr": round(mrr, 3),
        "plan_ms_p50": round(times[len(times) // 2], 2) if times else 0.0,
        "plan_ms_p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2) if times else 0.0,
    }
