"""e. Multi-query with reciprocal rank fusion: the question in several wordings, made from the synonym table and
the graph (no language model), each searched on its own, the rankings fused by 1 / (k + rank)."""

from __future__ import annotations

from collections import defaultdict

from service.lab.asked import Asked
from service.lab.graph import hops
from service.lab.model import Step, Technique
from service.lab.scoring import RRF, plain_weights, ranked
from service.lab.synonyms import matches, replaced
from service.text import query_terms


def _swap(words: tuple[str, ...], old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """The words with `old` (where it stands, else wherever its words are) replaced by `new`."""
    for start in range(len(words) - len(old) + 1):
        if old and words[start : start + len(old)] == old:
            return words[:start] + new + words[start + len(old) :]
    return tuple(w for w in words if w not in old) + new


def wordings(asked: Asked) -> list[tuple[str, tuple[str, ...]]]:
    """(how it was made, its search words), the question first; each wording once."""
    tuning, words = asked.tuning, asked.words
    out = [("the question", words)]
    made = 0
    for m in matches(words, asked.corpus.synonyms):
        for phrase, stems in m.others:
            if made < tuning.synonym_rewrites:
                out.append((f"synonym table: {' '.join(m.found)} → {phrase}", replaced(words, m, stems)))
                made += 1
    found, made = hops(asked), 0
    stop = asked.engine.search_stopwords
    for e in found.names:
        said = found.said.get(e.iri, ())
        label = query_terms(e.label, stop)
        if label != said and made < tuning.graph_rewrites:
            out.append((f"graph: {e.label}'s full name", _swap(words, said, label)))
            made += 1
        for other in found.neighbours:
            if made < tuning.graph_rewrites:
                out.append((f"graph: {e.label} → its neighbour {other.label}",
                            _swap(words, said, query_terms(other.label, stop))))  # fmt: skip
                made += 1
    seen: set[tuple[str, ...]] = set()
    kept = []
    for how, w in out:
        if w and w not in seen:
            seen.add(w)
            kept.append((how, w))
    return kept


def fused(rankings: list[list[int]]) -> dict[int, list[tuple[int, int]]]:
    """Document -> (wording number, rank) for every ranking that holds it, numbers and ranks from 1."""
    held: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for number, ranking in enumerate(rankings, start=1):
        for rank, doc in enumerate(ranking, start=1):
            held[doc].append((number, rank))
    return held


def rrf(ranks: list[tuple[int, int]], k: int) -> float:
    return sum(1 / (k + rank) for _, rank in ranks)


def multi_query(asked: Asked) -> Technique:
    index, tuning, docs = asked.corpus.index, asked.tuning, asked.corpus.docs
    k = tuning.rrf_k
    t = Technique(
        "fusion",
        "Multi-query with rank fusion",
        "One wording can miss. The question is reworded with the synonym table and with the graph (a name's full "
        "label, a neighbour in its place), every wording is searched on its own, and the rankings are merged: a "
        "passage found by several wordings rises.",
        RRF.format(k=k) + f"; each wording ranked by BM25 to depth {tuning.depth}",
        shown=tuning.shown,
    )
    made = wordings(asked)
    rankings = []
    for number, (how, words) in enumerate(made, start=1):
        ranking = [d for d, _ in ranked(index.bm25(plain_weights(words)), tuning.depth)]
        rankings.append(ranking)
        top = "; ".join(f"{docs[d].title} ({docs[d].id})" for d in ranking[: tuning.shown]) or "nothing"
        t.steps.append(Step(f"Wording {number}, {how}: {', '.join(words)}", [f"top {tuning.shown}: {top}"]))
    held = fused(rankings)
    t.steps.append(Step(f"Fused the {len(rankings)} rankings: a passage earns 1 / ({k} + its rank) from every "
                        f"wording that holds it, and the earnings are added. Kept the best {t.shown}."))  # fmt: skip
    order = sorted(held, key=lambda d: (-rrf(held[d], k), d))[: tuning.depth]
    for doc in order:
        ranks = held[doc]
        why = " + ".join(f"1/{k + r} (wording {n})" for n, r in ranks) + f" = {rrf(ranks, k):.4f}"
        t.ranking.append(asked.passage_hit(doc, rrf(ranks, k), why, ranks=tuple(ranks)))
    return t
