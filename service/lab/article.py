"""d. Whole-article retrieval: rank whole articles with BM25 and hand over each one whole, in its order."""

from __future__ import annotations

from service.lab.asked import Asked
from service.lab.model import Step, Technique
from service.lab.scoring import formula, plain_weights, ranked, sum_shown, weights_shown


def whole_article(asked: Asked) -> Technique:
    articles, tuning = asked.corpus.articles, asked.tuning
    index = articles.bm25
    weighted = plain_weights(asked.words)
    scores = index.bm25(weighted)
    t = Technique(
        "article",
        "Whole-article retrieval",
        "Cutting text into passages can part a sentence from the one that explains it. Here each whole article "
        "is scored as one text, and the best are handed over whole, in their own order: more to read, nothing cut.",
        formula(index) + " (a piece of text is a whole article)",
        shown=tuning.shown,
    )
    t.steps = [
        Step("Search words in the question: " + (", ".join(asked.words) or "none")),
        Step(f"Each word's weight over the {index.n} articles:", weights_shown(index, weighted)),
        Step(f"Scored each whole article; {len(scores)} hold a search word. Handed over the best {t.shown} whole."),
    ]
    for doc, score in ranked(scores, tuning.depth):
        piece = articles.pieces[doc]
        t.ranking.append(asked.piece_hit(piece, score, sum_shown(index, doc, weighted), "whole article"))
    return t
