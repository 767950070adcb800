"""Confidence (main seed, Algorithm 5), decided by the route the answer took, plus a 0-100 score and a label.

exact: the engine knows (an authored or graph answer, or an ambiguity the visitor resolves);
strong: it was told what to look at (a named entity), or one article holds nearly the whole question;
weak: it found words, not meaning; none: nothing to answer with. A one-word question is carried "whole" by
any passage holding that word, so support alone makes a plan strong only from `strong_min_terms` words on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.engine.model import Confidence


@dataclass(frozen=True)
class Scale:
    """How levels become a 0-100 score and a label (lexicon/weights.yaml, `confidence.scores`)."""

    ambiguous: int = 90
    exact: int = 96
    strong: tuple[int, int] = (70, 89)  # from, to: scaled by support
    weak: tuple[int, int] = (35, 65)
    high: int = 75  # a score from here on is High
    medium: int = 50

    @classmethod
    def of(cls, spec: Mapping[str, Any] | None) -> Scale:
        if not spec:
            return cls()
        return cls(
            int(spec["ambiguous"]), int(spec["exact"]), (int(spec["strong"][0]), int(spec["strong"][1])),
            (int(spec["weak"][0]), int(spec["weak"][1])), int(spec["high"]), int(spec["medium"]),
        )  # fmt: skip

    def between(self, span: tuple[int, int], support: float) -> int:
        return span[0] + round((span[1] - span[0]) * min(1.0, max(0.0, support)))


def label_for(score: int, scale: Scale = Scale()) -> str:
    if score >= scale.high:
        return "High"
    if score >= scale.medium:
        return "Medium"
    return "Low" if score > 0 else "None"


def decide(
    *,
    ambiguous: bool,
    exact_route: bool,
    answered: bool,
    named: bool,
    support: float,
    strong_support: float,
    terms: int = 2,
    strong_min_terms: int = 2,
    model_enabled: bool = False,
    scale: Scale = Scale(),
    hedged: bool = False,
) -> Confidence:
    """`hedged`: the text answers though it does not use the question's words; weak at best."""
    if ambiguous:
        level, score = "exact", scale.ambiguous
    elif not answered:
        level, score = "none", 0
    elif exact_route:
        level, score = "exact", scale.exact
    elif not hedged and (named or (support >= strong_support and terms >= strong_min_terms)):
        level, score = "strong", scale.between(scale.strong, support)
    else:
        level, score = "weak", scale.between(scale.weak, support)
    allowed = model_enabled and level in ("weak", "none") and not ambiguous
    return Confidence(level, score, label_for(score, scale), allowed)
