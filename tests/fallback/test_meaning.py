"""Meaning-based search against the simulated provider's embeddings: vectors in the KB with their model's
name, fusion with BM25, the skip when keywords cover the question, the drop when the provider fails or is
slow, and a KB made with another model searched by keywords alone."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from service.engine import Planner
from service.engine.engine import Engine
from service.engine.meaning import Meaning
from service.engine.plan import Planner as PlannerClass
from service.kb import KB
from service.kb.build import build
from service.kb.vectors import DIR, write_vectors
from tests.conftest import copy_inputs, quiet
from tests.fallback.conftest import settings
from tests.simllm import Sim

TODAY = date(2026, 11, 30)


@pytest.fixture(scope="module")
def embedded(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory, sim: Sim) -> Path:
    """A copy of the demo build with vectors made by the simulated provider ("sim-embed")."""
    kb = tmp_path_factory.mktemp("embedded") / "kb"
    shutil.copytree(demo_kb_path.resolve(), kb)
    passages = KB.open(kb).passages
    assert write_vectors(passages, kb, settings(sim, embeddings_enabled=True, embeddings_model="sim-embed"), quiet)
    return kb


@pytest.fixture
def meaning_planner(embedded: Path, model: Sim) -> Iterator[Planner]:
    planner = PlannerClass(Engine.from_kb(KB.open(embedded, in_memory=True)))
    on = settings(model, embeddings_enabled=True, embeddings_model="sim-embed")
    planner.engine.meaning = Meaning.open(embedded, planner.engine.passages, on)
    yield planner


def test_the_vectors_are_stored_with_the_model_s_name(embedded: Path) -> None:
    meta = (embedded / DIR / "meta.json").read_text()
    assert '"model": "sim-embed"' in meta
    assert (embedded / DIR / "vectors.f32").stat().st_size == 4 * 64 * len(KB.open(embedded).passages)


def test_another_model_is_never_used_on_these_vectors(embedded: Path, planner: Planner, sim: Sim) -> None:
    other = settings(sim, embeddings_enabled=True, embeddings_model="another-model")
    assert Meaning.open(embedded, planner.engine.passages, other) is None
    assert Meaning.open(embedded, planner.engine.passages, settings(sim)) is None  # EMBEDDINGS_ENABLED off


def test_the_question_is_embedded_and_fused(meaning_planner: Planner, model: Sim) -> None:
    meaning = meaning_planner.engine.meaning
    plan = meaning_planner.plan("how does she test search quality", today=TODAY)
    assert [r["body"]["input"] for r in model.requests] == [["how does she test search quality"]]
    assert meaning.asked == 1 and meaning.dropped == 0
    assert plan.route == "empty"  # planned on with the fused articles (this one still finds no answer)
    meaning_planner.plan("how does she test search quality", today=TODAY)
    assert len(model.requests) == 1  # the vector was cached


def test_fusion_is_reciprocal_rank(meaning_planner: Planner, planner: Planner) -> None:
    engine = meaning_planner.engine
    from service.engine.retrieve import search_articles  # noqa: PLC0415
    from service.text import query_terms  # noqa: PLC0415

    terms = query_terms("open data volunteering", engine.search_stopwords)
    found = search_articles(engine.passages, terms, engine.synonyms, engine.weights["article"])
    fused = engine.meaning.fuse(engine.passages, terms, "open data volunteering", found,
                                engine.passages.coverage_of(terms, engine.synonyms))  # fmt: skip
    assert {h.article for h in found} <= {h.article for h in fused}
    assert fused[0].score == pytest.approx(found[0].score)  # the first keeps BM25's best score
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)


def test_skipped_when_the_best_keyword_passage_holds_every_term(meaning_planner: Planner, model: Sim) -> None:
    engine = meaning_planner.engine
    passage = engine.passages.docs[0]
    words = sorted(engine.passages.passage_terms(passage))[:3]  # three of its own (stemmed) words
    from service.engine.retrieve import search_articles  # noqa: PLC0415

    found = search_articles(engine.passages, words, engine.synonyms, engine.weights["article"])
    assert engine.meaning.covered(engine.passages, words, found) == (
        set(words) <= engine.passages.passage_terms(found[0].best.passage))
    meaning_planner.plan("volunteering for transit data", today=TODAY)  # three words, all in one passage
    assert model.requests == []


def test_dropped_when_the_provider_fails_or_is_slow(meaning_planner: Planner, planner: Planner, model: Sim) -> None:
    question = "how does she test search quality"
    plain = planner.plan(question, today=TODAY).to_json()
    model.embed_mode = "slow"
    started = time.monotonic()
    slow = meaning_planner.plan(question, today=TODAY).to_json()
    assert time.monotonic() - started < 2.8  # cut at 2 s
    assert meaning_planner.engine.meaning.dropped == 1
    model.embed_mode = "fail"
    failed = meaning_planner.plan("which conferences did she speak at", today=TODAY)
    assert len(model.requests) == 1  # cooling down after the failure: not asked again
    for doc in (slow,):
        for d in (doc, plain):  # timings differ from run to run, the plan does not
            d.pop("timing_ms", None)
            for run in d.get("sparql") or []:
                run.pop("ms", None)
        assert doc == plain  # keyword search alone: the plan of a site without meaning search
    assert failed.route


@pytest.mark.slow
def test_the_build_embeds_every_passage(tmp_path: Path, model: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("EMBEDDINGS_ENABLED", "true"), ("EMBEDDINGS_MODEL", "sim-embed"), ("LLM_BASE_URL", model.url)):
        monkeypatch.setenv(name, value)
    sources = copy_inputs(tmp_path, tiny=True)
    build(sources, tmp_path / "kb", log=quiet)
    kb = KB.open(tmp_path / "kb")
    assert (kb.path / DIR / "meta.json").exists()
    assert sum(len(r["body"]["input"]) for r in model.requests) == len(kb.passages)
