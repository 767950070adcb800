"""Each technique against plain search: which of its top pieces plain search also handed over, which are new, and
which of plain search's passages it leaves out."""

from __future__ import annotations

from service.lab.model import Technique, VersusPlain


def compare(technique: Technique, plain: Technique) -> VersusPlain:
    theirs = [h.passages[0] for h in plain.hits]
    shared: list[str] = []
    new: list[str] = []
    covered: set[str] = set()
    for hit in technique.hits:
        held = set(hit.passages)
        hit.in_plain = not held.isdisjoint(theirs)
        (shared if hit.in_plain else new).append(hit.passages[0] if len(hit.passages) == 1 else _name(hit.passages))
        covered |= held
    for variant in technique.variants:
        for hit in variant.hits:
            hit.in_plain = not set(hit.passages).isdisjoint(theirs)
            covered |= set(hit.passages)
    return VersusPlain(shared, new, [p for p in theirs if p not in covered])


def _name(passages: tuple[str, ...]) -> str:
    """Several passages in a row of one article: "Atlas#design-0 … Atlas#design-2"."""
    return passages[0] if len(passages) == 1 else f"{passages[0]} … {passages[-1]}"
