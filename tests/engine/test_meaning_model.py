"""The built-in meaning model, on by default with no server: the same vectors as wordllama's own, made for every
passage at build, read at question time; where the rules and words fail, a route chosen by its nearest `meaning:`
question, and an answer undone only for a word the visitor used and the answer does not kept when the model
bridges the two, both weakly."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from service.cli import main
from service.embedding import BUILTIN_NAME, Builtin, builtin
from service.engine import Planner, load
from service.engine.engine import Engine
from service.kb import KB
from service.kb.vectors import DIR

NOOR = Path(__file__).resolve().parents[2] / "examples" / "noor"


@pytest.fixture(scope="module")
def noor_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kb = tmp_path_factory.mktemp("noor") / "kb"
    assert main(["build", "--data", str(NOOR / "data"), "--wiki", str(NOOR / "wiki"), "--kb", str(kb)]) == 0
    return kb


def test_the_builtin_model_computes_wordllama_s_own_vectors() -> None:
    import wordllama  # type: ignore[import-untyped]  # noqa: PLC0415  # here only: the service reads its files

    reference = wordllama.WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)
    texts = ["day job", "which competitions did she enter", "Rain gardens in Delfshaven: 23 of them, planted in 2019"]
    ours = builtin().embed(texts)
    assert ours.shape == (3, 256)
    assert np.allclose(ours, reference.embed(texts, norm=True), atol=1e-5)
    assert np.allclose(np.linalg.norm(builtin().embed(["", "x"]), axis=1), [0.0, 1.0])  # nothing to embed: zeros


def test_on_by_default_built_in_and_stored_with_the_model_s_name(demo_kb_path: Path, planner: Planner) -> None:
    meta = (demo_kb_path / DIR / "meta.json").read_text()
    assert f'"model": "{BUILTIN_NAME}"' in meta
    passages = len(KB.open(demo_kb_path).passages)
    assert (demo_kb_path / DIR / "vectors.f32").stat().st_size == 4 * 256 * passages
    meaning = planner.engine.meaning
    assert meaning is not None and isinstance(meaning.model, Builtin) and meaning.local
    assert meaning.matrix.shape == (passages, 256)


def test_a_route_is_chosen_by_its_nearest_meaning_question_when_no_rule_answers(planner: Planner) -> None:
    question = "did her projects ever get any recognition, like a prize?"  # no cue word of the awards route
    plan = planner.plan(question, trace=True)
    assert plan.route == "awards" and plan.answer is not None and "Prémio Mapa Cívico" in plan.answer.text
    assert plan.confidence.level == "weak"
    assert plan.trace is not None
    chosen = [s for s in plan.trace if s.stage == "meaning"]
    assert chosen and chosen[0].facts["route"] == "awards" and chosen[0].facts["cosine"] >= 0.55
    words_only = Planner(Engine.from_kb(planner.engine.kb))
    assert words_only.plan(question).route == "empty"
    for unrelated in ("what's the weather in Lisbon?", "which movies does she like?"):
        assert planner.plan(unrelated).confidence.level == "none"


def test_a_word_only_the_visitor_uses_is_bridged_when_nothing_else_answers(noor_kb: Path) -> None:
    question = "which competitions did she enter"  # the graph says "entry", "entries"
    with_meaning = load(KB.open(noor_kb, in_memory=True))
    plan = with_meaning.plan(question, trace=True)
    assert plan.route == "class_list" and plan.answer is not None
    assert "Dok Noord" in plan.answer.text and "Douro" in plan.answer.text
    assert plan.confidence.level == "weak"  # bridged, not stated in the visitor's words: never High
    assert plan.trace is not None
    bridged = [s for s in plan.trace if s.stage == "meaning"]
    assert bridged and bridged[0].facts["word"] == "enter" and bridged[0].facts["to"].startswith("entr")
    words_only = Planner(Engine.from_kb(KB.open(noor_kb, in_memory=True)))  # the engine without the model
    assert words_only.plan(question).route == "empty"


def test_a_word_no_answer_is_near_stays_unanswered(noor_kb: Path) -> None:
    planner = load(KB.open(noor_kb, in_memory=True))
    for question in ("which competitions did she bake", "how much does Noor earn per year?"):
        assert planner.plan(question).confidence.level == "none"


def test_the_passage_stating_the_amount_asked_is_found_by_meaning_where_words_fail(planner: Planner) -> None:
    question, previous = "how long has it been going?", "what is Margins?"  # no passage says "going"
    plan = planner.plan(question, previous=previous, trace=True)
    assert plan.answer is not None and "October 2014" in plan.answer.text
    assert plan.trace is not None and any(s.stage == "meaning" and s.facts.get("article") == "Margins"
                                          for s in plan.trace)  # fmt: skip
    words_only = Planner(Engine.from_kb(planner.engine.kb))
    assert words_only.plan(question, previous=previous).route == "empty"
