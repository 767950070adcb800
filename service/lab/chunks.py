"""h. Chunk sizes: the passages' text re-cut into chunks of 1, 2 and 4 sentences, each size searched on its own."""

from __future__ import annotations

from service.lab.asked import Asked
from service.lab.model import Step, Technique, Variant
from service.lab.scoring import formula, plain_weights, ranked, sum_shown


def chunk_sizes(asked: Asked) -> Technique:
    tuning, corpus = asked.tuning, asked.corpus
    weighted = plain_weights(asked.words)
    sizes = tuning.chunk_sizes
    t = Technique(
        "chunks",
        "Chunk sizes",
        "The same text cut into chunks of " + ", ".join(map(str, sizes)) + " sentences (within each section), and "
        "each size searched on its own. Small chunks are precise but can cut an answer in half; big ones keep it "
        "together but carry words that have nothing to do with the question.",
        formula(corpus.chunks(sizes[0]).bm25) + " (a piece of text is one chunk; N and the average length are "
        "those of its size)",
        shown=len(sizes),
    )
    t.steps = [Step("Search words in the question: " + (", ".join(asked.words) or "none"))]
    best = []
    for size in sizes:
        pieces = corpus.chunks(size)
        index = pieces.bm25
        label = f"{size} sentence{'s' if size > 1 else ''} per chunk"
        ranking = [asked.piece_hit(pieces.pieces[d], s, sum_shown(index, d, weighted), label)
                   for d, s in ranked(index.bm25(weighted), tuning.depth)]  # fmt: skip
        t.variants.append(Variant(f"chunks of {size}", ranking[: tuning.shown], ranking))
        top = ranking[0] if ranking else None
        said = f"best in {top.title}, {len(top.text)} characters, score {top.score:.2f}" if top else "no chunk matches"
        t.steps.append(Step(f"Size {size}: {index.n} chunks; {said}"))
        if top:
            best.append(top)
    t.steps.append(Step("The best chunk of each size side by side below; each size's own top "
                        f"{tuning.shown} under it. A real system picks one size first."))  # fmt: skip
    t.ranking = best
    return t
