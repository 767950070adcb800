"""Passage search: our BM25 over Whoosh's postings ranks like Whoosh's own BM25F, and articles rank sensibly."""

from __future__ import annotations

import pytest
from whoosh import scoring
from whoosh.query import Or, Term

from service.engine import Planner
from service.engine.retrieve import search_articles
from service.text import query_terms


@pytest.mark.parametrize(
    "question",
    ["simulated annealing delivery routes", "kanji tokenizer segmentation", "weather station balcony",
     "reciprocal rank fusion", "why do dispatchers prefer stable plans"],
)  # fmt: skip
def test_bm25_ranks_like_whoosh(planner: Planner, question: str) -> None:
    index = planner.engine.passages
    terms = query_terms(question, planner.engine.stopwords)
    ours = sorted(index.bm25(dict.fromkeys(terms, 1.0)).items(), key=lambda kv: -kv[1])[:5]
    with planner.engine.kb.index.searcher(weighting=scoring.BM25F(B=0.75, K1=1.2)) as searcher:
        theirs = [hit["id"] for hit in searcher.search(Or([Term("body", t) for t in terms]), limit=5)]
    assert [index.docs[d].id for d, _ in ours][:3] == theirs[:3]


def test_articles_rank_by_best_passage_title_and_coverage(planner: Planner) -> None:
    e = planner.engine
    hits = search_articles(e.passages, query_terms("weather station", e.stopwords), e.synonyms, e.weights["article"])
    assert hits[0].article == "Saltwind" and hits[0].coverage == 1.0
    unknown = search_articles(e.passages, query_terms("pizza station", e.stopwords), e.synonyms, e.weights["article"])
    assert all(h.coverage < 0.5 for h in unknown)  # a word the site never uses weighs the most


def test_synonyms_expand_the_search_and_are_shown(planner: Planner) -> None:
    plan = planner.plan("how much did the search cluster cost")
    assert plan.search_terms and plan.expansions  # cost -> price, spend ... (lexicon/synonyms.yaml)


@pytest.mark.parametrize(
    ("portfolio", "question", "heading"),
    [
        ("demo", "why did she build Lantern?", "Why it exists"),  # not "The companion crates", which says "build"
        ("demo", "how does the tessera reasoner handle deletions", "Deletions"),  # a heading naming what is asked
        ("demo", "how does Tidewise work?", "How it works"),
        ("mateo", "how does Noctule work", "How it works"),
        ("mateo", "what went wrong with Noctule", "What went wrong"),
    ],
)
def test_the_section_quoted_suits_the_kind_of_question(planner: Planner, mateo_planner: Planner, portfolio: str,
                                                       question: str, heading: str) -> None:  # fmt: skip
    chosen = (planner if portfolio == "demo" else mateo_planner).plan(question)
    assert chosen.route == "explain" and chosen.answer is not None
    passage = next(s for s in chosen.answer.sources if s.kind == "passage")
    assert passage.title.endswith(heading), passage.title
