"""Weighted reciprocal rank fusion (main seed, Algorithm 3), then a nudge by editorial tier."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence


def fuse(
    lists: Mapping[str, Sequence[str]],
    weights: Mapping[str, float],
    tiers: Mapping[str, int | None],
    tier_factor: Mapping[int, float],
    k: int = 60,
) -> list[tuple[str, float]]:
    """Candidates of every list, scored sum(weight / (k + rank)) times their tier's factor, best first.

    `lists` maps a list's name (linked, graph, wiki) to IRIs in rank order; only IRIs with a known tier
    entry (every entity of the KB) are kept.
    """
    scores: dict[str, float] = defaultdict(float)
    for name, ranked in lists.items():
        weight = weights.get(name, 0.0)
        for rank, iri in enumerate(dict.fromkeys(ranked), start=1):
            scores[iri] += weight / (k + rank)
    out = []
    for iri, score in scores.items():
        if iri not in tiers:
            continue
        tier = tiers[iri]
        out.append((iri, score * (tier_factor.get(tier, 1.0) if tier is not None else 1.0)))
    out.sort(key=lambda pair: (-pair[1], pair[0]))
    return out
