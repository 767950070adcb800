"""BM25 with its numbers shown: the ranking every technique starts from, each word's weight and each hit's sum."""

from __future__ import annotations

from collections.abc import Mapping

from service.engine.retrieve import Bm25

BM25 = "score = Σ weight(word) × tf·(k1 + 1) / (tf + k1·(1 − b + b·length / average length)), k1 = {k1:g}, b = {b:g}"
WEIGHT = "weight(word) = ln(1 + (N − n + 0.5) / (n + 0.5)): N pieces of text, n of them hold the word"
RRF = "fused = Σ 1 / ({k} + rank), one term for every wording whose ranking holds the passage"


def formula(index: Bm25) -> str:
    return f"{BM25.format(k1=index.k1, b=index.b)}; {WEIGHT}"


def ranked(scores: Mapping[int, float], depth: int) -> list[tuple[int, float]]:
    """Documents with a score above 0, best first (ties: the earlier document), to `depth`."""
    return sorted(((d, s) for d, s in scores.items() if s > 0), key=lambda ds: (-ds[1], ds[0]))[:depth]


def search(index: Bm25, weighted: Mapping[str, float], depth: int) -> list[tuple[int, float]]:
    return ranked(index.bm25(weighted), depth)


def weights_shown(index: Bm25, weighted: Mapping[str, float]) -> list[str]:
    """Each search word's weight with the numbers that make it (× its query weight when it is not 1)."""
    out = []
    for term, factor in weighted.items():
        n = index.df(term)
        if not n:
            out.append(f"{term}: in no piece of text, adds nothing")
            continue
        shown = f"{term}: ln(1 + ({index.n} − {n} + 0.5) / ({n} + 0.5)) = {index.idf(term):.2f}"
        out.append(shown + (f" × {factor:g}" if factor != 1 else ""))
    return out


def parts(index: Bm25, doc: int, weighted: Mapping[str, float]) -> list[tuple[str, float]]:
    """What each word adds to one document's BM25 score (the same sum `Bm25.bm25` makes)."""
    k1, b = index.k1, index.b
    norm = k1 * (1 - b + b * index.lengths[doc] / index.avg)
    out = []
    for term, factor in weighted.items():
        tf = index.postings.get(term, {}).get(doc)
        if tf:
            out.append((term, index.idf(term) * factor * tf * (k1 + 1) / (tf + norm)))
    return out


def sum_shown(index: Bm25, doc: int, weighted: Mapping[str, float]) -> str:
    """ "lantern 3.21 + rust 1.10 = 4.31" """
    found = parts(index, doc, weighted)
    if not found:
        return "no search word: 0"
    return " + ".join(f"{t} {v:.2f}" for t, v in found) + f" = {sum(v for _, v in found):.2f}"


def plain_weights(words: tuple[str, ...]) -> dict[str, float]:
    return dict.fromkeys(words, 1.0)
