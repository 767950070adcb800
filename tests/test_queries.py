"""Every stored query, run on the demo KB: real rows in the right order, and the text shown is the text run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest

from service import language
from service.examples import Examples
from service.kb import KB
from service.kb.build import build
from service.kb.sources import Sources
from service.queries import QueryError, QueryRun
from tests.conftest import ROOT, demo_sources, quiet

ID = "https://inescalder.example/id/"
PF = "https://folio.example/ns#"


def labels(run: QueryRun, column: str) -> list[str]:
    return [row[column].label or row[column].value for row in run.rows]


# (query, parameters, column, the first rows expected, in order, and how many rows at least)
ROUTES: list[tuple[str, dict[str, Any], str, list[str], int]] = [
    ("works-using-skill", {"skill": ID + "Rust"}, "work", ["Tessera", "Lantern", "Shapeshift"], 20),
    # filters that compose: each given narrows the others' works
    ("works-filtered", {"concept": ID + "Rust", "start": "2020-01-01", "end": "2020-12-31"}, "work",
     ["Tensile", "Glimmer"], 2),
    ("works-filtered-in-place", {"class": PF + "Talk", "place": ID + "Lisbon", "start": "2023-01-01",
                                 "end": "2026-12-05"}, "work", ["Hands-on SPARQL workshop",
                                                                "Validating knowledge graphs in CI"], 7),
    ("works-filtered-in-place", {"concept": ID + "RaspberryPi", "place": ID + "Edinburgh"}, "work",
     ["Tenement Bus Sign", "Anemone", "Office Noise Meter"], 3),
    # the works that took place somewhere else: no Raspberry Pi work of Edinburgh's, each of Lisbon's and Berlin's
    ("works-filtered-outside-place", {"concept": ID + "RaspberryPi", "place": ID + "UnitedKingdom"}, "work",
     ["Tram departure board", "Thermidor", "Bridgewatch"], 3),
    ("works-filtered", {"concept": ID + "Redis", "organisation": ID + "Quillon"}, "work",
     ["Quillon Spelling Suggestions", "Quillon Autocomplete"], 2),
    (
        "works-under-theme",
        {"theme": ID + "KnowledgeGraphs"},
        "work",
        ["Ask Ines", "Tessera", "Shapeshift", "Sparqlette"],
        15,
    ),
    ("works-for-concept", {"concept": ID + "BM25"}, "work", ["Ask Ines", "Lantern", "Quillon Search"], 10),
    ("works-for-concept", {"concept": ID + "LisbonGTFS"}, "work", ["Transit Pulse"], 5),
    ("related-works", {"work": ID + "Lantern"}, "other", ["Ask Ines", "Tessera", "Quillon Search"], 10),
    (
        "works-in-period",
        {"start": "2025-07-01", "end": "2025-09-30"},
        "work",
        ["Ask Ines", "Lantern", "Shapeshift"],
        15,
    ),
    (
        "works-during-role",
        {"role": ID + "RoleKyotoVisit"},
        "work",
        ["Kanji-aware Tokenizer", "Kamo Test Collection"],
        5,
    ),
    (
        "works-made-during-role",
        {"role": ID + "RoleKyotoVisit"},
        "work",
        ["Kanji-aware Tokenizer", "Kamo Test Collection"],
        4,
    ),
    ("key-works", {}, "work", ["Ask Ines", "Tessera", "Lantern"], 12),
    (
        "roles-in-place",
        {"place": "https://inescalder.example/id/Japan"},
        "role",
        ["Visiting researcher, Kansai Institute of Informatics"],
        1,
    ),
    (
        "roles-outside-place",
        {"place": "https://inescalder.example/id/Europe"},
        "role",
        ["Visiting researcher, Kansai Institute of Informatics"],
        1,
    ),
    (
        "events-in-place",
        {"place": "https://inescalder.example/id/Germany", "outside": False},
        "work",
        ["Routing Vans on a Shoestring", "A Search Library in 2,000 Lines of Rust"],
        4,
    ),
    (
        "events-in-place",
        {"place": "https://inescalder.example/id/Portugal", "outside": True},
        "work",
        ["Git for Coursework", "Routing Vans on a Shoestring"],
        5,
    ),
    (
        "roles-in-period",
        {"start": "2018-01-01", "end": "2018-12-31"},
        "role",
        [
            "Research assistant, Leith Information Retrieval Group",
            "Visiting researcher, Kansai Institute of Informatics",
        ],
        2,
    ),
    ("career", {"person": ID + "InesCalder"}, "role", ["Independent engineer, Calder Studio"], 11),
    ("works-of-class", {"class": PF + "Paper"}, "work", ["Retrieval for Small Corpora"], 5),
    ("works-of-two-classes", {"first": PF + "KeyWork", "second": PF + "HardwareProject"}, "work", ["Fernkey"], 1),
    ("works-of-class", {"class": PF + "Game"}, "work", ["Wordloom"], 10),
    ("skills-of-category", {"category": PF + "ProgrammingLanguage"}, "skill", ["Python", "Rust"], 14),
    ("skills-of-category-in-class", {"category": PF + "ProgrammingLanguage", "class": PF + "Game"}, "skill",
     ["GDScript", "JavaScript", "Lua", "Rust"], 6),
    (
        "works-using-category",
        {"category": PF + "Database"},
        "work",
        ["Ask Ines", "Tessera", "Quillon Search", "Tidewise"],
        20,  # the first 20 (LIMIT): key works first
    ),
    ("key-works-using-category", {"category": PF + "Database"}, "work",
     ["Ask Ines", "Tessera", "Quillon Search", "Tidewise", "Transit Pulse", "Sparqlette"], 6),
    ("works-with-both", {"first": ID + "Rust", "second": ID + "WebAssembly"}, "work", [], 3),
    (
        "works-with-all-three",
        {"first": ID + "Python", "second": ID + "SPARQL", "third": ID + "Oxigraph"},
        "work",
        ["Ask Ines", "Tessera"],
        2,
    ),
    ("compare", {"first": ID + "Tessera", "second": ID + "Shapeshift"}, "propertyLabel", ["end date"], 10),
    ("entity-facts", {"entity": ID + "Tidewise"}, "propertyLabel", [], 8),
    ("entity-stack", {"work": ID + "Tidewise"}, "skill", ["PostGIS", "PostgreSQL", "OR-Tools", "C++", "Go"], 5),
    ("entity-neighbours", {"entity": ID + "KanjiTokenizer"}, "neighbour", [], 10),
    ("recent-works", {"since": "2025-11-01"}, "work", ["Ask Ines", "Lantern", "Shapeshift", "Sparqlette"], 10),
    ("ongoing-works", {}, "work", ["Ask Ines", "Lantern", "Shapeshift"], 9),
    ("definition", {"concept": ID + "BM25"}, "label", ["BM25"], 1),
    ("person", {"person": ID + "InesCalder"}, "placeLabel", ["Lisbon"], 1),
    ("places-of-roles", {"person": ID + "InesCalder"}, "withinLabel", ["Scotland", "United Kingdom", "Europe"], 10),
    ("entities-by-mentions", {"class": PF + "Skill"}, "entity", ["Python", "Rust"], 100),
    ("latest-activity", {}, "last", ["2026-11-01"], 1),
    ("concepts-of-class", {"class": PF + "Technique"}, "concept", ["BM25"], 20),
    ("relation-names", {}, "name", ["award"], 20),
    ("awards", {}, "award", ["Prémio Mapa Cívico"], 1),
    ("clients", {}, "client", ["Open Transit Collective"], 1),
    ("works-for-client", {"client": ID + "ArdosiaLearning"}, "workLabel", ["Course search tuning for Ardósia Learning"],
     1),
    ("press-coverage", {}, "coverage", ["Os elétricos que chegam tarde"], 1),
    ("skills-of-kind-with", {"kind": PF + "Skill", "concept": ID + "BM25"}, "skill", ["Python", "Rust"], 40),
    ("occurrences", {"work": ID + "SparqlWorkshop"}, "occurrence",
     ["SPARQL workshop at the November 2024 meetup", "SPARQL workshop at the October 2025 meetup"], 2),
]


@pytest.mark.parametrize(("name", "params", "column", "first", "at_least"), ROUTES, ids=[r[0] for r in ROUTES])
def test_route_rows(
    demo_kb: KB, name: str, params: dict[str, Any], column: str, first: list[str], at_least: int
) -> None:
    run = demo_kb.catalog.run(name, params)
    got = labels(run, column)
    assert got[: len(first)] == first
    assert len(got) >= at_least
    assert not run.truncated and run.ms > 0


def test_every_stored_query_has_a_route_test(demo_kb: KB) -> None:
    # read at start-up
    internal = {"entity-names", "entity-catalog", "entity-kinds", "class-names", "class-verbs", "top-skills"}
    assert set(demo_kb.catalog) == {r[0] for r in ROUTES} | {"count-works", "works-using-skill-named"} | internal


@pytest.mark.parametrize(("name", "params", "column", "first", "at_least"), ROUTES, ids=[r[0] for r in ROUTES])
def test_shown_text_returns_the_same_rows(
    demo_kb: KB, name: str, params: dict[str, Any], column: str, first: list[str], at_least: int
) -> None:
    run = demo_kb.catalog.run(name, params)
    # a parameter left unbound stays a variable of the text shown ($since, a filter not given)
    assert "$" not in run.query.split("WHERE", 1)[1] or name in ("recent-works", "works-filtered",
                                                                  "works-filtered-in-place", "occurrences",
                                                                  "works-filtered-outside-place",
                                                                  "awards", "press-coverage")
    plain = demo_kb.store.query(run.query, use_default_graph_as_union=True)
    assert isinstance(plain, ox.QuerySolutions)
    again = [{v.value: row[v].value for v in plain.variables if row[v] is not None} for row in plain]
    assert again == [{k: c.value for k, c in row.items()} for row in run.rows]


def test_key_work_first_then_rank_then_recent(demo_kb: KB) -> None:
    rows = demo_kb.catalog.run("works-using-skill", {"skill": ID + "Python"}).rows
    keys = [(int(r["tier"].value), int(r["keyRank"].value) if "keyRank" in r else 1000) for r in rows]
    assert keys == sorted(keys)
    tier2 = [r for r in rows if r["tier"].value == "2"]
    ends = [r["end"].value if "end" in r else "9999" for r in tier2]
    assert ends == sorted(ends, reverse=True)


def test_counts_agree_with_the_lists(demo_kb: KB) -> None:
    for skill in ("Rust", "Python", "Oxigraph"):
        count = demo_kb.catalog.run("count-works", {"concept": ID + skill}).rows[0]["works"].value
        assert int(count) == len(demo_kb.catalog.run("works-using-skill", {"skill": ID + skill}).rows)


def test_absent_technology_has_no_rows_but_a_known_one_does(demo_kb: KB) -> None:
    assert demo_kb.catalog.run("works-using-skill-named", {"name": "Scala"}).rows == []
    rows = demo_kb.catalog.run("works-using-skill-named", {"name": "golang"}).rows  # an alternative label, any case
    assert rows and {r["skill"].label for r in rows} == {"Go"}
    shouted = demo_kb.catalog.run("works-using-skill-named", {"name": "RuSt"})  # filled in lower case, as keys are
    assert len(shouted.rows) >= 20 and '"rust"' in shouted.query


def test_compare_says_what_is_shared(demo_kb: KB) -> None:
    rows = demo_kb.catalog.run("compare", {"first": ID + "Tessera", "second": ID + "Shapeshift"}).rows
    shared = {r["valueLabel"].value for r in rows if r["side"].value == "both" and "valueLabel" in r}
    only_first = {r["valueLabel"].value for r in rows if r["side"].value == "first" and "valueLabel" in r}
    assert "Knowledge graphs" in shared
    assert "OWL 2 RL reasoning" in only_first
    places = demo_kb.catalog.run("compare", {"first": ID + "Berlin", "second": ID + "Lisbon"}).rows
    assert {"Quillon", "Berlin Systems Meetup"} <= {r["valueLabel"].value for r in places if r["side"].value == "first"}


def test_facts_mark_inferred_ones(demo_kb: KB) -> None:
    rows = demo_kb.catalog.run("entity-facts", {"entity": ID + "Wordloom"}).rows
    by_value = {r["value"].label or r["value"].value: r["inferred"].value for r in rows}
    assert by_value["Game"] == "false" and by_value["Work"] == "true"


def test_row_cap_sets_truncated(demo_kb: KB) -> None:
    run = demo_kb.catalog.run("works-using-skill", {"skill": ID + "Python"}, row_cap=3)
    assert len(run.rows) == 3 and run.truncated


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"skill": "https://evil.example/x\u003e } DROP ALL"}, "neither an entity"),
        ({"skill": "javascript:alert(1)"}, "neither an entity"),
        ({"skill": "https://user:pw@code.example/x"}, "neither an entity"),
        ({}, "$skill is required"),
        ({"skill": ID + "Rust", "extra": 1}, "no parameter extra"),
    ],
)
def test_bad_parameters_are_refused(demo_kb: KB, params: dict[str, Any], message: str) -> None:
    with pytest.raises(QueryError, match=message.replace("$", r"\$")):
        demo_kb.catalog.run("works-using-skill", params)


def test_dates_must_be_dates(demo_kb: KB) -> None:
    with pytest.raises(QueryError, match="start"):
        demo_kb.catalog.run("works-in-period", {"start": "2025-13-01", "end": "2025-12-31"})
    with pytest.raises(QueryError):
        demo_kb.catalog.run("works-in-period", {"start": '2025-01-01"^^xsd:date) } #', "end": "2025-12-31"})


def test_editor_changes_a_query_without_touching_python(tmp_path: Path) -> None:
    """Copy queries/, change one ORDER BY, rebuild with --queries, reopen: the answer changes."""
    queries = tmp_path / "queries"
    shutil.copytree(ROOT / "queries", queries)
    rq = queries / "works-using-skill.rq"
    text = rq.read_text()
    assert "ORDER BY ?tier" in text
    rq.write_text(text.replace(text[text.index("ORDER BY") :], "ORDER BY ?workLabel\n"))
    src = demo_sources()
    kb = tmp_path / "kb"
    build(Sources(src.ontology, src.data, src.wiki, queries), kb, log=quiet)
    edited = KB.open(kb).catalog.run("works-using-skill", {"skill": ID + "Rust"})
    names = labels(edited, "work")
    assert names == sorted(names) and names[0] != "Tessera"
    assert "ORDER BY ?workLabel" in edited.query


@pytest.mark.parametrize("owner", [True, False], ids=["owner-examples", "engine-defaults"])
def test_every_stored_query_has_an_example_that_runs(demo_kb: KB, owner: bool) -> None:
    """`bench queries` runs each query with its example: the owner's query-examples.yaml over the engine's, or
    the engine's alone, whose markers (@Skill, @person, @quarter-start ...) fit any portfolio."""
    examples = demo_kb.lexicon.extra["query-examples"] if owner else language.engine_doc("query-examples")
    resolver = Examples(demo_kb.catalog, ID + "InesCalder", demo_kb.lexicon.extra["routes"]["routes"])
    assert set(examples) == set(demo_kb.catalog)
    for name in demo_kb.catalog:
        values = resolver.values(demo_kb.catalog[name], examples.get(name) or {}, demo_kb.site.entity_base)
        run = demo_kb.catalog.run(name, values)
        if name == "entity-kinds":  # rows only where an owner declares kinds of their own (tests/engine/test_own_kinds)
            continue
        assert run.rows, f"{name}: its example returns no row"  # the console opens each one with rows
