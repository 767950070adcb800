"""Snapshots: plan() over questions generated from templates x the KB's entities, recorded and compared, so a
refactor can prove it changed nothing (and `bench plan` has a realistic workload)."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path
from typing import Any

from service.engine.model import Plan
from service.engine.plan import Planner

TEMPLATES: dict[str, list[str]] = {
    "work": ["{label}", "tell me about {label}", "what is {label} built with?", "how does {label} work?",
             "open {label}", "{label} source code", "when did {they} start {label}?"],
    "skill": ["{label} projects", "how many works use {label}?", "what is {label}?", "works using {label}"],
    "technique": ["{label}", "what is {label}?", "which works implement {label}?"],
    "theme": ["{label}", "works about {label}"],
    "dataset": ["{label}", "which works use the {label}?"],
    "organisation": ["what did {they} do at {label}?", "{label}"],
    "role": ["{label}"],
    "place": ["what is {label}?", "{label}"],
}  # fmt: skip
GENERAL = [
    "what did {they} build in {year}?", "what was {they} working on in Q{q} {year}?", "projects since {year}",
    "early {year}", "what did {they} do in March {year}?",
]  # fmt: skip
ABSENT = ["{label} projects", "does {they} use {label}?"]


def questions(planner: Planner) -> list[str]:
    engine = planner.engine
    they = engine.voice.pronoun.subject
    out: list[str] = []
    for e in sorted(engine.entities.values(), key=lambda e: e.iri):
        for template in TEMPLATES.get(e.kind, []):
            out.append(template.format(label=e.display, they=they))
    years = str(engine.kb.manifest["counts"].get("activity_years") or "").split("-")
    first, last = (int(years[0]), int(years[-1])) if years[0].isdigit() else (2013, 2026)
    for year in range(first, last + 1):
        for n, template in enumerate(GENERAL):
            out.append(template.format(year=year, q=1 + (year + n) % 4, they=they))
    for label in sorted(engine.absent):
        out += [t.format(label=label, they=they) for t in ABSENT]
    return list(dict.fromkeys(out))


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digest(plan: Plan) -> dict[str, Any]:
    """What a refactor must not change: the understanding, the route, the results, the answer, the SPARQL."""
    answer = plan.answer.text if plan.answer else ""
    return {
        "normalized": plan.normalized,
        "intent": plan.intent,
        "route": plan.route,
        "interpretation": [plan.task, plan.operation, plan.entity],
        "confidence": [plan.confidence.level, plan.confidence.score],
        "results": [r.iri for r in plan.results[:5]],
        "answer": _short_hash(answer),
        "sparql": [
            [run.name, len(run.rows), hashlib.sha256(run.query.encode()).hexdigest()[:12]] for run in plan.sparql
        ],
    }


def record(planner: Planner, today: date) -> dict[str, Any]:
    return {"today": today.isoformat(), "plans": {q: digest(planner.plan(q, today=today)) for q in questions(planner)}}


def save(planner: Planner, path: Path, today: date) -> int:
    snap = record(planner, today)
    path.write_text(json.dumps(snap, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return len(snap["plans"])


def check(planner: Planner, path: Path) -> list[str]:
    """Differences between the recorded plans and plans made now, one line each."""
    before = json.loads(path.read_text(encoding="utf-8"))
    now = record(planner, date.fromisoformat(before["today"]))
    diffs = []
    for q in sorted(set(before["plans"]) | set(now["plans"])):
        a, b = before["plans"].get(q), now["plans"].get(q)
        if a is None or b is None:
            diffs.append(f"{q!r}: {'new question' if a is None else 'question no longer generated'}")
            continue
        for key in a:
            if a[key] != b.get(key):
                diffs.append(f"{q!r}: {key} was {a[key]!r}, now {b.get(key)!r}")
    return diffs
