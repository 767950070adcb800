"""Run every technique of the lab for one question over one engine's KB, each timed, each compared with plain."""

from __future__ import annotations

import time
from collections.abc import Callable

from service.engine.engine import Engine
from service.lab.article import whole_article
from service.lab.asked import Asked
from service.lab.chunks import chunk_sizes
from service.lab.compare import compare
from service.lab.corpus import corpus_of
from service.lab.fusion import multi_query
from service.lab.graph import graph
from service.lab.meaning import meaning
from service.lab.model import Report, Technique
from service.lab.parent import parent_document
from service.lab.plain import plain
from service.lab.rewrite import rewrite
from service.lab.tuning import tuning
from service.text import query_terms

TECHNIQUES: list[Callable[[Asked], Technique]] = [
    plain, rewrite, graph, whole_article, multi_query, meaning, parent_document, chunk_sizes,
]  # fmt: skip


def prepare(engine: Engine) -> float:
    """Build the lab's in-memory indexes for this engine now (once); the milliseconds it took, 0 if they were."""
    tuned = tuning()
    return corpus_of(engine, tuple(sorted({*tuned.chunk_sizes, tuned.child_sentences})))[1]


def asked_of(engine: Engine, question: str) -> tuple[Asked, float]:
    tuned = tuning()
    corpus, setup_ms = corpus_of(engine, tuple(sorted({*tuned.chunk_sizes, tuned.child_sentences})))
    words = query_terms(" ".join(question.split()), engine.search_stopwords)
    return Asked(question, words, engine, corpus, tuned), setup_ms


def run_lab(engine: Engine, question: str) -> Report:
    asked, setup_ms = asked_of(engine, question)
    done = []
    for technique in TECHNIQUES:
        started = time.perf_counter()
        t = technique(asked)
        t.ms = (time.perf_counter() - started) * 1000
        done.append(t)
    for t in done[1:]:
        if t.off is None:
            t.comparison = compare(t, done[0])
    return Report(question, list(asked.words), done, len(asked.corpus.docs), setup_ms)
