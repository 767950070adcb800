"""A second portfolio, written from docs/DATA.md alone, builds with --data/--wiki and answers SPARQL."""

from __future__ import annotations

from pathlib import Path

from service.cli import main
from service.kb import KB
from tests.conftest import ROOT, TINY


def test_tiny_portfolio_builds_and_is_queryable(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    code = main(["build", "--data", str(TINY / "data"), "--wiki", str(TINY / "wiki"), "--kb", str(kb)])
    assert code == 0
    opened = KB.open(kb)
    base = opened.site.entity_base
    assert base != "https://inescalder.example/id/"
    key_works = [
        str(row["w"].value)
        for row in opened.query(
            "PREFIX pf: <https://folio.example/ns#> SELECT ?w WHERE { ?w pf:tier 1 ; pf:keyRank ?r } ORDER BY ?r"
        )
    ]
    assert len(key_works) >= 2 and all(w.startswith(base) for w in key_works)
    # the reasoner ran on it too: a skill knows the works that use it
    used_by = list(opened.query("PREFIX pf: <https://folio.example/ns#> SELECT ?s ?w WHERE { ?s pf:usedBy ?w }"))
    assert used_by
    assert opened.passages and all(p.entity for p in opened.passages)
    assert opened.manifest["sources"]["data"] == str(TINY / "data")
    assert opened.manifest["sources"]["ontology"] == str(ROOT / "ontology")
