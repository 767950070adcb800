"""A new route without Python (docs/ROUTES.md): one stored query and one declaration added to a copy of the demo
portfolio, built, and a question that reaches the new route and answers from its query; an owner's sentence in
place of the engine's. The files are the blocks of docs/ROUTES.md, so the page and the product cannot part."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pyoxigraph as ox
import pytest

from service.engine import load
from service.kb import KB
from service.kb.build import build
from service.kb.check import check_inputs
from tests.conftest import ROOT, copy_inputs, quiet

TODAY = date(2026, 11, 30)
_BLOCK = re.compile(r'```\w+ title="([^"]+)"\n(.*?)```', re.S)


def _blocks() -> dict[str, str]:
    return dict(_BLOCK.findall((ROOT / "docs" / "ROUTES.md").read_text(encoding="utf-8")))


@pytest.mark.slow
def test_a_route_added_as_a_query_and_a_declaration_answers(tmp_path: Path) -> None:
    blocks = _blocks()
    assert {"queries/venues.rq", "data/lexicon/routes/venues.yaml", "data/lexicon/routes/concept_works.yaml"} <= set(
        blocks)
    sources = copy_inputs(tmp_path / "in")
    for name, text in blocks.items():  # a file the portfolio has already gets the block after what it holds
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + text, encoding="utf-8")
    assert check_inputs(sources).problems == []
    build(sources, tmp_path / "kb", log=quiet)
    planner = load(KB.open(tmp_path / "kb", in_memory=True))

    plan = planner.plan("which venues has she presented at?", today=TODAY)
    assert plan.route == "venues" and plan.confidence.level == "exact"
    assert plan.answer is not None and "Northern Symposium on Information Retrieval" in plan.answer.text
    run = plan.sparql[0]
    assert run.name == "venues" and run.file == "queries/venues.rq"
    again = planner.engine.kb.store.query(run.query, use_default_graph_as_union=True)
    assert isinstance(again, ox.QuerySolutions)
    assert [row["venue"].value for row in again if row["venue"] is not None] == [r["venue"].value for r in run.rows]
    for question in planner.engine.declarations["venues"].examples:
        assert planner.plan(question, today=TODAY).route == "venues", question
    assert planner.plan("where was the Japanese segmentation paper published?", today=TODAY).route != "venues"

    rust = planner.plan("Rust projects", today=TODAY)  # the owner's sentence in place of the engine's
    assert rust.answer is not None
    assert re.match(r"\d+ pieces of work use Rust\.", rust.answer.text), rust.answer.text


def test_a_wrong_route_file_is_reported_at_its_line(tmp_path: Path) -> None:
    sources = copy_inputs(tmp_path / "in")
    route = tmp_path / "in" / "data" / "lexicon" / "routes" / "venues.yaml"
    route.parent.mkdir(parents=True, exist_ok=True)
    route.write_text("about: venues\nways:\n  - step: graph.lists\n    precedence: 104\nqueries:\n"
                     "  list: {query: venue-list}\n  works: {query: works-using-skill, params: {tool: skill}}\n",
                     encoding="utf-8")
    said = [p.message for p in check_inputs(sources).problems if p.path.endswith("routes/venues.yaml")]
    assert any("no step is called 'graph.lists'" in m for m in said), said
    assert any("venue-list, which is not a stored query" in m for m in said), said
    assert any("fills $tool, which it does not declare" in m for m in said), said
