"""The demo portfolio is built at the scale the product is measured on, and its KB holds what it should."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main
from service.kb import KB
from service.kb.rdf import GRAPH_DATA, GRAPH_INFERRED

ID = "https://inescalder.example/id/"
PREFIXES = ("PREFIX pf: <https://folio.example/ns#> PREFIX id: <https://inescalder.example/id/> "
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ")


def rows(kb: KB, query: str) -> list[tuple[str, ...]]:
    return [tuple(str(t.value) for t in row) for row in kb.query(PREFIXES + query)]


def count(kb: KB, where: str) -> int:
    return int(rows(kb, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {where} }}")[0][0])


def test_scale_of_the_graph(demo_kb: KB) -> None:
    c = demo_kb.manifest["counts"]
    assert c["entities"] >= 400
    assert c["triples"]["stated"] >= 5000
    assert count(demo_kb, "?x a pf:Work") >= 120
    assert count(demo_kb, "?x a pf:Skill") >= 100
    assert count(demo_kb, "?x a pf:Technique") >= 40
    assert count(demo_kb, "?x a pf:Paper") >= 3
    assert count(demo_kb, "?x a pf:Component ; pf:partOf id:ThisSite") >= 10
    for cls in ("Theme", "Organisation", "Role", "Place", "Dataset"):
        assert count(demo_kb, f"?x a pf:{cls}") >= 5, cls


def test_key_works_have_an_explicit_order(demo_kb: KB) -> None:
    ranks = rows(demo_kb, "SELECT ?x ?r WHERE { ?x pf:tier 1 ; pf:keyRank ?r } ORDER BY ?r")
    assert len(ranks) >= 10
    assert [int(r) for _, r in ranks] == list(range(1, len(ranks) + 1))
    assert ranks[0][0] == ID + "ThisSite"


def test_activity_spreads_over_several_years(demo_kb: KB) -> None:
    years = rows(demo_kb, "SELECT DISTINCT (YEAR(?m) AS ?y) WHERE { ?w pf:activeMonth ?m } ORDER BY ?y")
    assert len(years) >= 6
    # every work with a repository has month-level activity
    assert count(demo_kb, "?x pf:repository ?r FILTER NOT EXISTS { ?x pf:activeMonth ?m }") == 0


def test_wiki_scale(demo_kb: KB) -> None:
    assert demo_kb.manifest["counts"]["articles"] >= 100
    assert len(demo_kb.passages) >= 500
    articles = {p.article for p in demo_kb.passages}
    assert len(articles) >= 100


def test_lexicon_scale(demo_kb: KB) -> None:
    lex = demo_kb.lexicon
    assert len(lex.absent) >= 25
    assert len(lex.synonym_groups()) >= 20 and lex.synonyms  # the engine's groups and the owner's
    assert len(lex.definitions) >= 40
    assert all(d.url.startswith("https://") for d in lex.definitions)
    assert {"Go", "Make", "Rust"} <= set(lex.ordinary_words)


def test_reasoner_adds_what_editors_would_write_twice(demo_kb: KB) -> None:
    # inverse: the skill knows the works that use it
    assert count(demo_kb, "id:Rust pf:usedBy ?x") == count(demo_kb, "?x pf:uses id:Rust") > 0
    # symmetric: related-to holds both ways
    assert count(demo_kb, "?a pf:relatedTo ?b FILTER NOT EXISTS { ?b pf:relatedTo ?a }") == 0
    # transitive: a component of a component is part of the site
    nested = count(demo_kb, "?x pf:componentOf ?y . ?y pf:componentOf id:ThisSite")
    assert nested > 0
    assert count(demo_kb, "?x pf:partOf id:ThisSite") > count(demo_kb, "?x pf:componentOf id:ThisSite")
    # sub-classes: every game is a work and a schema.org creative work
    assert count(demo_kb, "?x a pf:Game FILTER NOT EXISTS { ?x a <https://schema.org/CreativeWork> }") == 0


def test_inferred_triples_are_kept_apart(demo_kb: KB) -> None:
    stated = count(demo_kb, f"GRAPH <{GRAPH_DATA}> {{ id:Rust pf:usedBy ?x }}")
    inferred = count(demo_kb, f"GRAPH <{GRAPH_INFERRED}> {{ id:Rust pf:usedBy ?x }}")
    assert stated == 0 and inferred > 0
    # owlrl's noise is filtered: no reflexive sameAs, no literal-typed junk
    assert count(demo_kb, f"GRAPH <{GRAPH_INFERRED}> {{ ?x <http://www.w3.org/2002/07/owl#sameAs> ?x }}") == 0


def test_every_name_of_a_skill_is_kept_in_lower_case_for_lookups(demo_kb: KB) -> None:
    keys = {k for (k,) in rows(demo_kb, f"SELECT ?k WHERE {{ GRAPH <{GRAPH_INFERRED}> {{ id:Go pf:nameKey ?k }} }}")}
    assert {"go", "golang", "go language"} == keys  # its label and its other names
    assert count(demo_kb, "?x a pf:Skill ; pf:nameKey ?k") == count(demo_kb, "?x a pf:Skill ; rdfs:label ?l")
    assert count(demo_kb, "?x pf:nameKey ?k FILTER NOT EXISTS { ?x a pf:Skill }") == 0  # only skills'


def test_every_named_thing_has_its_place_in_lists(demo_kb: KB) -> None:
    """pf:listRank: key works first by key rank, then the other works by tier, then what is no work."""
    def rank(name: str) -> int:
        (value,), = rows(demo_kb, f"SELECT ?r WHERE {{ GRAPH <{GRAPH_INFERRED}> {{ id:{name} pf:listRank ?r }} }}")
        return int(value)

    first = rows(demo_kb, "SELECT ?w WHERE { ?w pf:keyRank 1 }")[0][0].rsplit("/", 1)[-1]
    assert rank(first) == 10_001
    assert rank("Rust") == 91_000  # a skill: no tier, no key rank
    assert count(demo_kb, "?x rdfs:label ?l FILTER (isIRI(?x) && NOT EXISTS { ?x pf:listRank ?r })") == 0
    works = rows(demo_kb, "SELECT ?t ?r WHERE { ?w pf:tier ?t ; pf:listRank ?r "
                          "FILTER NOT EXISTS { ?w pf:keyRank ?k } }")
    assert works and all(int(r) == int(t) * 10_000 + 1_000 for t, r in works)


def test_nothing_private_in_the_graph(demo_kb: KB) -> None:
    props = {p for (p,) in rows(demo_kb, "SELECT DISTINCT ?p WHERE { ?s ?p ?o }")}
    for word in ("birth", "phone", "telephone", "address", "gender"):
        assert not [p for p in props if word in p.lower()], word


def test_info_prints_the_counts(demo_kb_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--kb", str(demo_kb_path)]) == 0
    out = capsys.readouterr().out
    assert "stated" in out and "inferred" in out and "passages" in out
    assert main(["info", "--kb", str(demo_kb_path), "--json"]) == 0
    assert '"ontology_version"' in capsys.readouterr().out


def test_demo_validates(demo_kb_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--kb", str(demo_kb_path)]) == 0, capsys.readouterr().out
