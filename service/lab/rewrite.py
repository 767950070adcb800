"""b. Query rewriting: the synonym table adds the other words of each group a search word belongs to."""

from __future__ import annotations

from service.lab.asked import Asked
from service.lab.model import Step, Technique
from service.lab.scoring import formula, plain_weights, ranked, sum_shown, weights_shown
from service.lab.synonyms import matches


def rewritten(asked: Asked) -> tuple[dict[str, float], list[str]]:
    """The search words with the synonyms' words added at the rewrite's weight, and what was added for what."""
    weighted = plain_weights(asked.words)
    said = []
    for m in matches(asked.words, asked.corpus.synonyms):
        for _, stems in m.others:
            for s in stems:
                weighted.setdefault(s, asked.tuning.added_weight)
        said.append(f"{' '.join(m.found)} → {', '.join(p for p, _ in m.others)}")
    return weighted, said


def rewrite(asked: Asked) -> Technique:
    index, tuning = asked.corpus.index, asked.tuning
    weighted, said = rewritten(asked)
    t = Technique(
        "rewrite",
        "Query rewriting with the synonym table",
        "Visitors and the wiki may use different words for one thing. Before searching, every word of the question "
        "that the synonym table knows brings the other words of its group, counted a little less.",
        f"{formula(index)}; an added word's weight × {tuning.added_weight:g}",
        shown=tuning.shown,
    )
    t.steps = [Step("Search words in the question: " + (", ".join(asked.words) or "none"))]
    if said:
        t.steps.append(Step("Rewrote the question by adding related words from the synonym table:", said))
    else:
        t.steps.append(Step("No search word is in the synonym table: the search is plain search's."))
    scores = index.bm25(weighted)
    t.steps += [
        Step("Each word's weight:", weights_shown(index, weighted)),
        Step(f"Scored every passage; {len(scores)} hold a word. Kept the best {t.shown}."),
    ]
    t.ranking = [asked.passage_hit(d, s, sum_shown(index, d, weighted)) for d, s in ranked(scores, tuning.depth)]
    return t
