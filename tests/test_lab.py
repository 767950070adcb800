"""The retrieval lab (service/lab): each technique does what it says, over both demo portfolios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.engine import Planner
from service.engine.engine import Engine
from service.lab import run_lab
from service.lab.corpus import section_key
from service.lab.graph import hops
from service.lab.run import asked_of
from service.lab.tuning import tuning
from service.text import terms

KEYS = ["plain", "rewrite", "graph", "article", "fusion", "meaning", "parent", "chunks"]


@pytest.fixture(params=["demo", "mateo"])
def any_planner(request: pytest.FixtureRequest) -> Planner:
    planner: Planner = request.getfixturevalue("planner" if request.param == "demo" else "mateo_planner")
    return planner


def test_every_technique_reports_steps_formula_hits_and_a_comparison(any_planner: Planner) -> None:
    engine = any_planner.engine
    question = engine.samples[0]
    report = run_lab(engine, question)
    assert [t.key for t in report.techniques] == KEYS
    plain = report.technique("plain")
    assert plain.hits, f"plain search finds something for the ask page's own sample {question!r}"
    for t in report.techniques:
        assert t.name and t.explanation and t.formula and t.steps
        if t.key == "meaning":
            continue
        assert t.ms > 0
        for hit in [*t.hits, *(h for v in t.variants for h in v.hits)]:
            assert hit.article in engine.kb.articles and hit.text and hit.why
        if t.key != "plain":
            assert t.comparison is not None
            shared = [h for h in t.hits if h.in_plain]
            assert len(t.comparison.shared) == len(shared)
            assert len(t.comparison.shared) + len(t.comparison.new) == len(t.hits)
    assert "ln(1 + (N − n + 0.5) / (n + 0.5))" in plain.formula  # the word weight, shown beside the numbers
    assert any("ln(1 + (" in d for s in plain.steps for d in s.details)
    doc = json.loads(json.dumps(report.to_json()))
    assert [t["key"] for t in doc["techniques"]] == KEYS
    assert doc["techniques"][0]["hits"][0]["url"].startswith("/wiki/")


def test_meaning_search_ranks_passages_by_the_built_in_model(planner: Planner) -> None:
    meaning = run_lab(planner.engine, "how does she keep a search engine honest").technique("meaning")
    assert meaning.off is None and len(meaning.hits) == meaning.shown
    assert all(h.why.startswith("cos = ") for h in meaning.hits)
    assert [h.score for h in meaning.ranking] == sorted((h.score for h in meaning.ranking), reverse=True)
    assert "wordllama" in meaning.steps[0].text


def test_meaning_search_says_plainly_that_it_is_off(planner: Planner) -> None:
    engine = Engine.from_kb(planner.engine.kb)  # an engine without the model: EMBEDDINGS_ENABLED=false
    meaning = run_lab(engine, "search").technique("meaning")
    assert meaning.off is not None and meaning.off.startswith("off:")
    assert not meaning.hits and meaning.comparison is None


def test_bm25_sums_shown_add_up_to_the_scores(planner: Planner) -> None:
    for hit in run_lab(planner.engine, planner.engine.samples[0]).technique("plain").hits:
        parts = hit.why.split(" = ")[0].split(" + ")
        assert sum(float(p.rsplit(" ", 1)[1]) for p in parts) == pytest.approx(hit.score, abs=0.02)


def test_graph_hop_finds_a_passage_plain_search_misses(any_planner: Planner) -> None:
    """A name alone as the question: the graph reaches a neighbour's article that shares no word with it."""
    engine = any_planner.engine
    person = engine.kb.site.person
    for entity in sorted(engine.entities.values(), key=lambda e: e.iri):
        if entity.name == person:
            continue
        report = run_lab(engine, entity.label)
        asked, _ = asked_of(engine, entity.label)
        near = {e.name for e in hops(asked).neighbours if e.has_article}
        words = asked.corpus.index.bm25(dict.fromkeys(asked.words, 1.0))
        by_id = {p.id: n for n, p in enumerate(asked.corpus.docs)}
        plain = {h.passages[0] for h in report.technique("plain").hits}
        found = [h for h in report.technique("graph").hits
                 if h.article in near and h.passages[0] not in plain and by_id[h.passages[0]] not in words]  # fmt: skip
        if found:
            hit = found[0]
            assert hit.in_plain is False
            assert hit.passages[0] in report.technique("graph").comparison.new  # type: ignore[union-attr]
            linked = report.technique("graph").steps[1].details
            assert any(engine.by_name[hit.article].label in link for link in linked)
            assert "no search word: 0" in hit.why and f"+ {tuning().neighbour_bonus:g} ×" in hit.why
            return
    pytest.fail("no entity's neighbour article is reached by the graph hop alone")


def test_parent_document_hands_over_the_whole_section(any_planner: Planner) -> None:
    engine = any_planner.engine
    asked, _ = asked_of(engine, "x")
    sections = [parts for parts in asked.corpus.sections.values() if len(parts) >= 2]
    assert sections, "some section has more than one paragraph"
    tried = 0
    for parts in sections:
        sentence = parts[-1].text.split(". ")[0]  # a sentence of its last paragraph
        if len(terms(sentence)) < 6:
            continue
        tried += 1
        parent = run_lab(engine, sentence).technique("parent")
        for hit in parent.hits:  # every hit is a whole section, in its order
            key = section_key(next(p for p in engine.kb.passages if p.id == hit.passages[0]))
            whole = asked.corpus.sections[key]
            assert hit.passages == tuple(p.id for p in whole)
            assert hit.text == "\n\n".join(p.text for p in whole)
        first = parent.hits[0]
        if first.passages == tuple(p.id for p in parts):
            assert parts[0].text in first.text and sentence in first.text
            assert "best sentence" in first.why
            return
        assert tried < 20, "a sentence of a section should bring that section first"
    pytest.fail("no long enough sentence to try")


def test_rrf_scores_are_sums_of_one_over_60_plus_rank(any_planner: Planner) -> None:
    engine = any_planner.engine
    group = next(g for g in engine.kb.lexicon.synonym_groups() if " " not in g[0])
    name = next(e for e in sorted(engine.entities.values(), key=lambda e: e.iri) if e.kind == "work")
    report = run_lab(engine, f"{group[0]} {name.label}")
    fusion, plain = report.technique("fusion"), report.technique("plain")
    k = tuning().rrf_k
    assert k == 60 and f"1 / ({k} + rank)" in fusion.formula
    wordings = [s for s in fusion.steps if s.text.startswith("Wording")]
    assert len(wordings) >= 3, "the synonym table and the graph each add a wording"
    assert any("synonym table" in s.text for s in wordings) and any("graph" in s.text for s in wordings)
    for hit in fusion.ranking:
        assert hit.ranks
        assert hit.score == pytest.approx(sum(1 / (k + rank) for _, rank in hit.ranks))
        assert hit.why.endswith(f"= {hit.score:.4f}") and f"1/{k + hit.ranks[0][1]}" in hit.why
    first = {h.passages[0]: rank for rank, h in enumerate(plain.ranking, start=1)}
    for hit in fusion.ranking:  # wording 1 is the question itself: plain search's ranking
        assert dict(hit.ranks).get(1) == first.get(hit.passages[0])


def test_rewrite_adds_the_other_words_of_a_synonym_group(planner: Planner) -> None:
    engine = planner.engine
    group = next(g for g in engine.kb.lexicon.synonym_groups() if len(g) >= 3 and " " not in g[0])
    rewrite = run_lab(engine, f"what about {group[0]}").technique("rewrite")
    said = " ".join(d for s in rewrite.steps for d in s.details)
    assert all(other in said for other in group[1:])


def test_chunk_sizes_search_each_size_on_its_own(mateo_planner: Planner) -> None:
    chunks = run_lab(mateo_planner.engine, mateo_planner.engine.samples[0]).technique("chunks")
    sizes = tuning().chunk_sizes
    assert [v.name for v in chunks.variants] == [f"chunks of {n}" for n in sizes]
    for size, variant in zip(sizes, chunks.variants, strict=True):
        assert variant.hits and all(h.label.startswith(f"{size} sentence") for h in variant.hits)
    one, four = chunks.variants[0].hits[0].text, chunks.variants[-1].hits[0].text
    assert len(four) >= len(one)


def test_lab_eval_prints_a_row_per_technique(mateo_kb_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "eval", "--kb", str(mateo_kb_path)]) == 0
    out = capsys.readouterr().out
    assert "| technique | recall@3 | MRR | mean ms | p95 ms |" in out
    for name in ("Plain keyword search", "Graph hops", "Chunk sizes: chunks of 4", "the engine's own retrieval"):
        assert f"| {name}" in out
    assert "| Meaning search |" in out
