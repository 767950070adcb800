"""The evaluation suites: the regression suite (every case must pass) and the held-out set (reports only).

tests/search-eval.json      {"today": "...", "cases": [{"id", "question", "previous", "intent", "route", "task",
                            "operation", "entity", "top", "resources", "confidence", "must"}]}: each field given is
                            checked (`must` as in the held-out sets below).
tests/search-holdout.json   {"cases": [{"id", "question", "previous", "group", "expect", "must", "must_not"}]}, group
                            answerable / unrelated / absent. Two measures are reported:
                            - the old one: answered with an expected entity among the first results / not answered /
                              pivoted;
                            - the strict one, what a visitor judges: the old one, and the answer states every `must`
                              group (a string or a list of alternatives, found without case in the answer's text or
                              the first results' labels; a number only as a whole number, so "3" is not in "2023")
                              and none of the `must_not` strings (in the answer's text).
"""

from __future__ import annotations

import json
import re
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
    ok_old: bool | None = None  # held-out cases: right by the old measure (entities only, no `must`)


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
    missing = _missing(_stated(plan), case.get("must") or [])
    if missing:
        problems.append(f"the answer does not state {missing}")
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
    answer = plan.answer.text if plan.answer else ""
    stated = _stated(plan)
    missing = _missing(stated, case.get("must") or []) if group == "answerable" else []
    wrong = [s for s in case.get("must_not") or [] if _states(answer, s)] if group == "answerable" else []
    strict = ok and not missing and not wrong
    why = [] if strict else [f"route {plan.route}, {plan.confidence.level}, first results {names[:3]}"]
    if missing:
        why.append(f"the answer does not state {missing}")
    if wrong:
        why.append(f"the answer states {wrong}")
    return CaseResult(case["id"], case["question"], group, strict, why, rank, plan.timing_ms, plan.route,
                      plan.confidence.level, group == "answerable" and bool(expected), ok)  # fmt: skip


def _stated(plan: Plan) -> str:
    """What a visitor reads as stated: the answer's text and the first results' names."""
    answer = plan.answer.text if plan.answer else ""
    return "\n".join([answer, *(r.label for r in plan.results[:TOP])])


_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
_TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}


def _states(text: str, fact: str) -> bool:
    """Whether `text` states `fact`: without case; a number only as a whole number ("3" is not in "2023"), in
    digits or as a word ("within distance two" states 2)."""
    if fact.isdigit():
        if re.search(rf"(?<![\d.,]){fact}(?![\d]|[.,]\d)", text) is not None:
            return True
        n = int(fact)
        word = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else _TENS.get(n)
        return word is not None and re.search(rf"(?<![\w-]){word}(?![\w-])", text, re.I) is not None
    return fact.lower() in text.lower()


def _missing(text: str, groups: list[Any]) -> list[str]:
    """The `must` groups the text does not state (each a string or a list of alternatives)."""
    missing = []
    for group in groups:
        options = [group] if isinstance(group, str) else list(group)
        if not any(_states(text, str(o)) for o in options):
            missing.append(" or ".join(map(str, options)))
    return missing


def run_suite(planner: Planner, path: Path, *, holdout: bool,
              serve: Callable[[Plan], Plan] | None = None) -> tuple[list[CaseResult], date]:  # fmt: skip
    doc = json.loads(path.read_text(encoding="utf-8"))
    today = date.fromisoformat(doc.get("today", "2026-11-30"))
    if holdout:
        return [check_holdout(planner, case, today, serve) for case in doc["cases"]], today
    return [check_regression(planner, case, today) for case in doc["cases"]], today


def _tally(results: list[CaseResult], *, with_old: bool) -> dict[str, int]:
    tally = {"cases": len(results), "right": sum(r.ok for r in results)}
    return {**tally, "right_old": sum(bool(r.ok_old) for r in results)} if with_old else tally


def summary(results: list[CaseResult]) -> dict[str, Any]:
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(r.group, []).append(r)
    ranked = [r for r in results if r.expects]
    mrr = statistics.fmean(1 / r.rank if r.rank else 0.0 for r in ranked) if ranked else 0.0
    times = sorted(r.ms for r in results)
    old = [r for r in results if r.ok_old is not None]
    return {
        "cases": len(results),
        "right": sum(r.ok for r in results),
        **({"right_old": sum(bool(r.ok_old) for r in old)} if old else {}),
        "groups": {g: _tally(rs, with_old=bool(old)) for g, rs in sorted(groups.items())},
        "mrr": round(mrr, 3),
        "plan_ms_p50": round(times[len(times) // 2], 2) if times else 0.0,
        "plan_ms_p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2) if times else 0.0,
    }


def suite_files(folder: Path) -> list[Path]:
    """Every suite file of a portfolio's folder: the regression suite first, then the held-out sets in number
    order."""
    def order(path: Path) -> tuple[int, int, str]:
        digits = "".join(c for c in path.stem.rsplit("-", 1)[-1] if c.isdigit())
        return (0 if _is_regression(path) else 1, int(digits) if digits else 0, path.name)

    return sorted((p for p in folder.glob("*.json") if _suite(p)), key=order)


def _suite(path: Path) -> bool:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("cases"), list) and bool(doc["cases"])


def _is_regression(path: Path) -> bool:
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return not any("group" in c for c in cases)


def run_all(planner: Planner, folder: Path) -> list[tuple[str, dict[str, Any], list[CaseResult]]]:
    """Each suite of the folder run: (file name, summary, results)."""
    out = []
    for path in suite_files(folder):
        results, _ = run_suite(planner, path, holdout=not _is_regression(path))
        out.append((path.name, summary(results), results))
    return out


def markdown(runs: list[tuple[str, dict[str, Any], list[CaseResult]]]) -> list[str]:
    """The figures of every suite as a Markdown table, then the confidence each answer was given against whether
    it was right (strict), over them all."""
    lines = ["| suite | cases | right (strict) | old measure | answerable | unrelated | absent |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    total = {"cases": 0, "right": 0, "old": 0}
    for name, report, _ in runs:
        groups = report["groups"]

        def cell(g: str, groups: dict[str, Any] = groups) -> str:
            return f"{groups[g]['right']}/{groups[g]['cases']}" if g in groups else ""

        old = report.get("right_old", report["right"])
        pct = 100 * report["right"] / report["cases"]
        lines.append(f"| {name} | {report['cases']} | {report['right']} ({pct:.0f} %) | {old} | {cell('answerable')} | "
                     f"{cell('unrelated')} | {cell('absent')} |")  # fmt: skip
        total["cases"] += report["cases"]
        total["right"] += report["right"]
        total["old"] += old
    lines.append(f"| **all** | {total['cases']} | **{total['right']}** | {total['old']} | | | |")
    levels: dict[str, list[int]] = {}
    for _, _, results in runs:
        for r in results:
            levels.setdefault(r.level, [0, 0])[0 if r.ok else 1] += 1
    lines += ["", "| confidence | right | wrong |", "|---|---|---|"]
    lines += [f"| {level} | {levels[level][0]} | {levels[level][1]} |"
              for level in ("exact", "strong", "weak", "none") if level in levels]  # fmt: skip
    return lines
