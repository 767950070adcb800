"""g. Parent-document retrieval: match small pieces (sentences), hand over the whole section that holds each."""

from __future__ import annotations

from service.lab.asked import Asked
from service.lab.corpus import section_key
from service.lab.model import Hit, Step, Technique
from service.lab.scoring import formula, plain_weights, ranked, sum_shown


def parent_document(asked: Asked) -> Technique:
    tuning, corpus = asked.tuning, asked.corpus
    size = tuning.child_sentences
    children = corpus.chunks(size)
    index = children.bm25
    weighted = plain_weights(asked.words)
    t = Technique(
        "parent",
        "Parent document",
        "Small pieces match precisely but give little to read. The question is matched against single sentences, "
        "and for each match the whole section it sits in (everything under its heading) is handed over, once.",
        f"{formula(index)} (a piece of text is a child of {size} sentence{'s' if size > 1 else ''}); a section "
        "scores as its best child",
        shown=tuning.shown,
    )
    scores = index.bm25(weighted)
    best = ranked(scores, tuning.children)
    t.steps = [
        Step("Search words in the question: " + (", ".join(asked.words) or "none")),
        Step(f"Scored {index.n} child chunks of {size} sentence{'s' if size > 1 else ''}; the best {len(best)}:",
             [f"“{children.pieces[d].text}” ({children.pieces[d].title}): {sum_shown(index, d, weighted)}"
              for d, _ in best]),
    ]  # fmt: skip
    by_id = {p.id: p for parts in corpus.sections.values() for p in parts}
    parents: dict[tuple[str, str], Hit] = {}
    for doc, score in ranked(scores, len(scores)):
        child = children.pieces[doc]
        key = section_key(by_id[child.passages[0]])
        if key in parents:
            continue
        section = corpus.section(by_id[child.passages[0]])
        why = f"best sentence “{child.text}”: {sum_shown(index, doc, weighted)}"
        parents[key] = asked.piece_hit(section, score, why, f"whole section, {len(section.passages)} passage(s)")
        if len(parents) >= tuning.depth:
            break
    t.ranking = list(parents.values())
    handed = [h.heading for h in t.hits]
    t.steps.append(Step(f"Those belong to {len({section_key(by_id[children.pieces[d].passages[0]]) for d, _ in best})}"
                        f" section(s); handed over the best {len(handed)} whole, each once:", handed))  # fmt: skip
    return t
