"""The Plan and its parts. `Plan.to_json()` is the contract of docs (DESIGN.md, "The plan")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.engine.trace import Trace
from service.queries import QueryRun


@dataclass(frozen=True)
class Resource:
    role: str  # "about", "live" or "source"
    url: str

    def to_json(self) -> dict[str, str]:
        return {"role": self.role, "url": self.url}


@dataclass
class Result:
    iri: str
    label: str
    type: str
    tier: int | None
    score: float
    resources: list[Resource] = field(default_factory=list)
    primary: str = "about"  # the role of the resource offered first

    def to_json(self) -> dict[str, Any]:
        return {
            "iri": self.iri,
            "label": self.label,
            "type": self.type,
            "tier": self.tier,
            "score": round(self.score, 4),
            "resources": [r.to_json() for r in self.resources],
            "primary": self.primary,
        }


@dataclass(frozen=True)
class Source:
    id: str  # S1, S2, ...
    kind: str  # "graph", "passage" or "definition"
    title: str
    url: str
    text: str
    ref: str  # what was read: a query name, a passage id, a definition term, an entity IRI

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "kind": self.kind, "title": self.title, "url": self.url, "text": self.text}


@dataclass
class Answer:
    text: str
    sources: list[Source]

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "sources": [s.to_json() for s in self.sources]}


@dataclass(frozen=True)
class Confidence:
    level: str  # exact, strong, weak, none
    score: int  # 0..100
    label: str  # High, Medium, Low, None
    model_allowed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "score": self.score, "label": self.label, "model_allowed": self.model_allowed}


@dataclass
class Plan:
    question: str
    normalized: str
    corrections: list[tuple[str, str]] = field(default_factory=list)
    intent: str = "search"
    task: str = "learn"
    operation: str = "overview"
    entity: str | None = None
    route: str = "empty"
    answer: Answer | None = None
    results: list[Result] = field(default_factory=list)
    ambiguous: list[tuple[str, list[str]]] = field(default_factory=list)
    confidence: Confidence = field(default_factory=lambda: Confidence("none", 0, "None"))
    sparql: list[QueryRun] = field(default_factory=list)
    search_terms: list[str] = field(default_factory=list)
    expansions: list[str] = field(default_factory=list)
    period: tuple[str, str] | None = None
    fallback: str | None = None  # the "not covered" text with the contact link, for an abstention
    contact_url: str | None = None
    previous: str | None = None
    timing_ms: float = 0.0
    trace: Trace | None = None  # how the answer was found, when asked for
    hedged: bool = False  # the answer is a passage of the work named that lacks the question's words (weak)
    generated: dict[str, Any] | None = None  # a checked model answer: {"by", "verified", "rounds"} (service/fallback)
    # every result of the answer, best first, with its score: `results` is the first page of it (Planner.page)
    ranked: list[tuple[str, float]] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        """How many results the answer has in all (a model's answer has only its own)."""
        return max(len(self.ranked), len(self.results))

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "normalized": self.normalized,
            "corrections": [{"from": a, "to": b} for a, b in self.corrections],
            "intent": self.intent,
            "interpretation": {"task": self.task, "operation": self.operation, "entity": self.entity},
            "route": self.route,
            "answer": self.answer.to_json() if self.answer else None,
            "results": [r.to_json() for r in self.results],
            "results_total": self.total,
            "ambiguous": [{"text": t, "candidates": c} for t, c in self.ambiguous],
            "confidence": self.confidence.to_json(),
            "sparql": [run.to_json() for run in self.sparql],
            "search": {"terms": self.search_terms, "expanded": self.expansions},
            "period": {"start": self.period[0], "end": self.period[1]} if self.period else None,
            "fallback": self.fallback,
            "contact_url": self.contact_url,
            "previous": self.previous,
            "timing_ms": round(self.timing_ms, 3),
        } | ({"trace": [step.to_json() for step in self.trace]} if self.trace is not None else {}) | (
            {"generated": self.generated} if self.generated is not None else {}
        )
