"""A kind of work of the owner's own (docs/DATA.md, "Kinds of your own"): a subclass of a portfolio class declared
in the owner's data, with works typed only with it, is a kind like the ontology's: in the lists and counts of its
kind by its own names, in the answers (a work still going, dated but with no monthly activity, is current), at
/id and in the sitemap. The data is the block of docs/DATA.md, added to
the tiny portfolio, so the page and the product cannot part."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import httpx
import pytest

from service.engine import Planner, load
from service.kb import KB
from service.kb.build import build
from service.kb.check import check_inputs
from tests.conftest import ROOT, copy_inputs, quiet
from tests.web.conftest import serving

TODAY = date(2026, 11, 30)
BLOCK = re.compile(r'```turtle title="(data/works-installations\.ttl)"\n(.*?)```', re.S)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("own-kinds")
    sources = copy_inputs(where / "in", tiny=True)
    found = BLOCK.search((ROOT / "docs" / "DATA.md").read_text(encoding="utf-8"))
    assert found is not None, "docs/DATA.md lost its example of a kind of one's own"
    turtle = found.group(2).replace("https://adabyte.example/", "https://tiny.example/")  # the tiny one's base
    (sources.data / "works-installations.ttl").write_text(turtle, encoding="utf-8")
    assert check_inputs(sources).problems == []
    build(sources, where / "kb", log=quiet)
    return where / "kb"


def test_works_of_an_owners_own_kind_are_listed_counted_and_described(kb: Path) -> None:
    opened = KB.open(kb, in_memory=True)
    kinds = opened.catalog.run("entity-kinds")  # the engine's own query: her kind's portfolio classes
    assert {(r["entity"].value.rsplit("/", 1)[1], r["class"].value.rsplit("#", 1)[1]) for r in kinds.rows} >= {
        ("TideOrgan", "Work"), ("SaltChoir", "Work")}
    planner = load(opened)
    for question in ("installations", "which sound installations has she made?", "how many installations"):
        plan = planner.plan(question, today=TODAY)
        assert plan.answer is not None and plan.confidence.label == "High", (question, plan.route)
        assert {r.label for r in plan.results} == {"Tide Organ", "Salt Choir"}, (question, plan.route)
        assert "2 installations" in plan.answer.text, plan.answer.text
        assert {r.type for r in plan.results} == {"Installation"}
    plants = planner.plan("which plants does she use?", today=TODAY)  # a kind of skill of her own
    assert plants.answer is not None and "Sea kale" in plants.answer.text, plants.route
    about = planner.plan("tell me about Salt Choir", today=TODAY)
    assert about.answer is not None and "brine pans" in about.answer.text
    active = planner.plan("what was she doing in summer 2024?", today=TODAY)
    assert "Tide Organ" in {r.label for r in active.results}, active.answer
    going = planner.plan("what did she do in 2026?", today=TODAY)  # begun in 2025, no end: still going
    assert "Salt Choir" in {r.label for r in going.results}, going.answer
    now = planner.plan("what is she working on now?", today=TODAY)  # dates, no monthly activity: still going
    assert now.answer is not None and "Salt Choir" in [r.label for r in now.results[:2]], now.answer
    assert "Salt Choir" in now.answer.text and "Tide Organ" not in now.answer.text, now.answer.text


def test_an_owners_own_kind_has_its_pages(kb: Path, tmp_path: Path) -> None:
    with serving(kb, tmp_path) as base:
        page = httpx.get(base + "/id/TideOrgan", headers={"accept": "text/html"})
        assert page.status_code == 200 and "Tide Organ" in page.text
        assert "https://tiny.example/id/SaltChoir" in httpx.get(base + "/sitemap.xml").text


def test_a_verb_of_a_kind_asks_for_it_in_a_question_of_a_period(mateo_planner: Planner) -> None:
    """pf:askedWith: "did he present anything in '24" asks for the talks of 2024; "written in C" asks of C."""
    plan = mateo_planner.plan("did he present anything in '24?", today=TODAY)
    assert plan.route == "works_in_period" and plan.answer is not None
    assert plan.answer.text.startswith("1 talk was active between 1 January 2024 and 31 December 2024")
    assert mateo_planner.plan("which projects are written in C since 2020?", today=TODAY).route != "class_list"
    # "in 2021" after the verb is the period, not what it is written in
    written = mateo_planner.plan("what did he write in 2021", today=TODAY)
    assert written.answer is not None and written.answer.text.startswith("1 writing was active between 1 January 2021")
