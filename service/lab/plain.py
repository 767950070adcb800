"""a. Plain keyword search: BM25 over the wiki's passages, the question's words and nothing else."""

from __future__ import annotations

from service.lab.asked import Asked
from service.lab.model import Step, Technique
from service.lab.scoring import formula, plain_weights, ranked, sum_shown, weights_shown


def plain(asked: Asked) -> Technique:
    index, depth = asked.corpus.index, asked.tuning.depth
    weighted = plain_weights(asked.words)
    scores = index.bm25(weighted)
    found = ranked(scores, depth)
    t = Technique(
        "plain",
        "Plain keyword search",
        "The question's words, scored over every passage with BM25: rare words weigh more, and a word counts less "
        "each time it repeats and in a long passage.",
        formula(index),
        shown=asked.tuning.shown,
    )
    t.steps = [
        Step("Search words in the question (stop words dropped, endings cut): " + (", ".join(asked.words) or "none")),
        Step(f"Each word's weight over the {index.n} passages:", weights_shown(index, weighted)),
        Step(f"Scored every passage; {len(scores)} hold a search word. Kept the best {t.shown}."),
    ]
    t.ranking = [asked.passage_hit(doc, score, sum_shown(index, doc, weighted)) for doc, score in found]
    return t
