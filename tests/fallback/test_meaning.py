"""The meaning model served by an embeddings server (the simulated provider's embeddings) instead of the
built-in one: vectors in the KB with their model's name, the question embedded once for the results' fusion, the
drop when the server fails or is slow, and a KB made with another model never searched with this one."""

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


def test_the_question_is_embedded_once(meaning_planner: Planner, model: Sim) -> None:
    meaning = meaning_planner.engine.meaning
    question = "what does she care about"  # no rule answers it: the route is chosen by meaning, or none
    meaning_planner.plan(question, today=TODAY)
    asked = [r["body"]["input"] for r in model.requests]
    assert asked.count([question]) == 1 and meaning.asked == 1 and meaning.dropped == 0
    assert any(len(batch) > 1 for batch in asked)  # the routes' meaning questions, embedded once, together
    meaning_planner.plan(question, today=TODAY)
    assert [r["body"]["input"] for r in model.requests] == asked  # the vectors were kept


def test_dropped_when_the_provider_fails_or_is_slow(meaning_planner: Planner, embedded: Path, model: Sim) -> None:
    question = "what does she care about"
    planner = PlannerClass(Engine.from_kb(KB.open(embedded, in_memory=True)))  # no meaning model at all
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
        assert doc == plain  # keyword search alone: the plan of a site without the meaning model
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
