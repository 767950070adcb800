"""`python -m service lab eval`: every technique over the evaluation questions that name an expected article,
with recall@3, MRR and time per technique, beside the engine's own retrieval (its plan's sources and results).

A case counts when it has no previous question (the lab reads one question alone) and names at least one entity
with a wiki article: `top` in a regression suite, `expect` in a held-out set (service/evaluate.py). A technique's
ranking is the articles of the pieces it hands over, in order; recall@3 is the share of the expected articles
(at most 3) among the first 3, MRR the mean of 1 / the rank of the first expected article (0 when none is within
the lab's depth).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from service.config import ROOT
from service.engine.model import Plan
from service.engine.plan import Planner
from service.kb import KB
from service.lab.run import run_lab

ENGINE = "the engine's own retrieval (plan sources, then results)"
AT = 3


@dataclass(frozen=True)
class Case:
    suite: str
    id: str
    question: str
    expected: tuple[str, ...]  # article names
    today: date


@dataclass
class Row:
    name: str
    ranks: list[float] = field(default_factory=list)  # reciprocal ranks
    recalls: list[float] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    off: str | None = None

    def add(self, articles: list[str], expected: tuple[str, ...], ms: float) -> None:
        first = next((i for i, a in enumerate(articles, start=1) if a in expected), None)
        self.ranks.append(1 / first if first else 0.0)
        top = set(articles[:AT])
        self.recalls.append(sum(1 for a in expected[:AT] if a in top) / min(AT, len(expected)))
        self.ms.append(ms)

    def figures(self) -> dict[str, Any]:
        if self.off or not self.ms:
            return {"technique": self.name, "off": self.off}
        ms = sorted(self.ms)
        return {
            "technique": self.name,
            "recall_at_3": round(statistics.fmean(self.recalls), 3),
            "mrr": round(statistics.fmean(self.ranks), 3),
            "ms_mean": round(statistics.fmean(ms), 2),
            "ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2),
        }


def default_files(kb: KB) -> list[Path]:
    """The portfolio's own evaluation folder beside its data (examples/mateo/eval), else the demo's suites."""
    data = kb.manifest.get("sources", {}).get("data")
    own = Path(data).resolve().parent / "eval" if data else None
    if own is not None and own.is_relative_to(ROOT) and own.is_dir() and own.resolve() != (ROOT / "data").resolve():
        return sorted(own.glob("*.json"))
    tests = ROOT / "tests"
    return [tests / "search-eval.json", *sorted(tests.glob("search-holdout*.json"))]


def read_cases(paths: list[Path], articles: set[str]) -> tuple[list[Case], int]:
    """The cases that count, and how many were left out for following a previous question."""
    out, followed = [], 0
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        today = date.fromisoformat(doc.get("today", "2026-11-30"))
        for c in doc["cases"]:
            expected = tuple(n for n in (c.get("top") or c.get("expect") or []) if n in articles)
            if not expected or (c.get("group") not in (None, "answerable")):
                continue
            if c.get("previous"):
                followed += 1
                continue
            out.append(Case(path.name, str(c["id"]), str(c["question"]), expected, today))
    return out, followed


def plan_articles(planner: Planner, plan: Plan) -> list[str]:
    """The articles the engine's plan read from or points to, in order: its sources, then its results."""
    articles = planner.engine.kb.articles
    found: list[str] = []
    for s in plan.answer.sources if plan.answer else []:
        path = urlsplit(s.url).path
        if path.startswith(("/wiki/", "/id/")):
            found.append(path.rsplit("/", 1)[-1])
    for r in plan.results:
        e = planner.engine.entities.get(r.iri)
        if e is not None:
            found.append(e.name)
    return [a for a in dict.fromkeys(found) if a in articles]


def evaluate(planner: Planner, cases: list[Case]) -> list[Row]:
    rows: dict[str, Row] = {}
    engine_row = Row(ENGINE)
    for case in cases:
        report = run_lab(planner.engine, case.question)
        for t in report.techniques:
            parts = [(v.name, v.ranking) for v in t.variants] if t.variants else [(t.name, t.ranking)]
            for name, ranking in parts:
                label = name if name == t.name else f"{t.name}: {name}"
                row = rows.setdefault(label, Row(label, off=t.off))
                if t.off is None:
                    row.add([h.article for h in ranking], case.expected, t.ms / len(parts))
        plan = planner.plan(case.question, today=case.today)
        engine_row.add(plan_articles(planner, plan), case.expected, plan.timing_ms)
    return [*rows.values(), engine_row]


def markdown(rows: list[Row]) -> str:
    lines = ["| technique | recall@3 | MRR | mean ms | p95 ms |", "|---|---:|---:|---:|---:|"]
    for row in rows:
        f = row.figures()
        if "off" in f:
            lines.append(f"| {row.name} | {f['off']} | | | |")
        else:
            lines.append(f"| {row.name} | {f['recall_at_3']:.3f} | {f['mrr']:.3f} | {f['ms_mean']:.2f} | "
                         f"{f['ms_p95']:.2f} |")  # fmt: skip
    return "\n".join(lines)
