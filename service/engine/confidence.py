"""Confidence (main seed, Algorithm 5), decided by the route the answer took, plus a 0-100 score and a label.

exact: the engine knows (an authored or graph answer, or an ambiguity the visitor resolves);
strong: it was told what to look at (a named entity), or one article holds nearly the whole question;
weak: it found words, not meaning; none: nothing to answer with. A one-word question is carried "whole" by
any passage holding that word, so support alone makes a plan strong only from `strong_min_terms` words on.
"""

from __future__ import annotations

from service.engine.model import Confidence


def label_for(score: int) -> str:
    if score >= 75:
        return "High"
    if score >= 50:
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
) -> Confidence:
    if ambiguous:
        level, score = "exact", 90
    elif not answered:
        level, score = "none", 0
    elif exact_route:
        level, score = "exact", 96
    elif named or (support >= strong_support and terms >= strong_min_terms):
        level, score = "strong", 70 + round(19 * min(1.0, support))
    else:
        level, score = "weak", 35 + round(30 * min(1.0, support))
    allowed = model_enabled and level in ("weak", "none") and not ambiguous
    return Confidence(level, score, label_for(score), allowed)
