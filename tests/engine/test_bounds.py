"""Search across the site scores only the passages of the articles that could be among the first
(service/engine/bounds.py): its hits are exactly those of scoring every passage."""

from __future__ import annotations

import pytest

from service import snapshot
from service.engine import retrieve
from service.engine.plan import Planner
from service.text import query_terms


def _hits(planner: Planner, query: tuple[str, ...], limit: int) -> list[tuple[object, ...]]:
    e = planner.engine
    found = retrieve.search_articles(e.passages, query, e.synonyms, e.weights["article"], limit=limit)
    return [(h.article, h.score, h.coverage, h.best.passage.id, [p.passage.id for p in h.passages]) for h in found]


@pytest.mark.parametrize("limit", [30, 3])
def test_bounded_search_finds_exactly_what_scoring_every_passage_finds(
    planner: Planner, monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    e = planner.engine
    asked = snapshot.questions(planner)[::3]
    queries = list(dict.fromkeys(t for q in asked if (t := query_terms(q, e.search_stopwords))))
    bounded_runs = 0
    original = e.passages.bounds.contenders

    def counted(*args: object, **kwargs: object) -> list[str] | None:
        nonlocal bounded_runs
        names = original(*args, **kwargs)  # type: ignore[arg-type]
        bounded_runs += names is not None and len(names) < len(e.passages.article_docs)
        return names

    monkeypatch.setattr(e.passages.bounds, "contenders", counted)
    monkeypatch.setattr(retrieve, "_BOUNDED_FROM", 0)
    bounded = [_hits(planner, q, limit) for q in queries]
    monkeypatch.setattr(retrieve, "_BOUNDED_FROM", 10**9)  # every passage holding a word scored
    every = [_hits(planner, q, limit) for q in queries]
    assert len(queries) > 1000 and bounded_runs > len(queries) // 4  # the bounds left articles out, often
    assert bounded == every
