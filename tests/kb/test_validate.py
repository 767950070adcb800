"""`validate` and `build` name the file and line of what is wrong, and a failed build changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.cli import main
from service.errors import ProblemsFound
from service.kb import KB
from service.kb import build as build_module
from service.kb.build import build
from service.kb.sources import Sources
from tests.conftest import ROOT, copy_inputs, quiet


def args(sources_root: Path, kb: Path) -> list[str]:
    return [f"--{n}={sources_root / n}" for n in ("ontology", "data", "wiki", "queries")] + ["--kb", str(kb)]


def validate(root: Path, kb: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["validate", *args(root, kb)])
    return code, capsys.readouterr().out


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the tiny portfolio, built once; returns (inputs root, kb)."""
    copy_inputs(tmp_path, tiny=True)
    kb = tmp_path / "kb"
    assert main(["build", *args(tmp_path, kb)]) == 0
    return tmp_path, kb


def test_tiny_portfolio_validates(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = validate(*tiny, capsys)
    assert code == 0, out
    assert out.startswith("ok")


def test_malformed_turtle_is_reported_with_file_and_line(
    tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, kb = tiny
    ttl = sorted((root / "data").glob("*.ttl"))[0]
    text = ttl.read_text().splitlines()
    at = len(text) // 2
    while text[at].strip():  # insert between two statements
        at += 1
    text.insert(at, 'id:Broken a pf:Project ; rdfs:label "unterminated .')
    ttl.write_text("\n".join(text) + "\n")
    code, out = validate(root, kb, capsys)
    assert code == 1
    assert re.search(rf"{ttl.name}:{at + 1}: \[syntax\]", out), out


def test_shape_violation_points_at_the_entity(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    ttl = sorted((root / "data").glob("*.ttl"))[0]
    ttl.write_text(
        ttl.read_text()
        + '\nid:NoTier a pf:Project ;\n    rdfs:label "No tier" ;\n    pf:description "A work without a tier."'
        + ' ;\n    pf:startDate "2024-02-30"^^xsd:date ;\n    pf:liveUrl <ftp://files.example/x> .\n'
    )
    code, out = validate(root, kb, capsys)
    assert code == 1
    where = f"{ttl.name}:{line_of(ttl, 'id:NoTier a')}: [shape] NoTier"
    assert f"{where}: a work needs one pf:tier" in out
    # a value or a link is reported at its own line, the missing tier at the entity's
    bad_date = line_of(ttl, 'pf:startDate "2024-02-30"')
    assert f"{ttl.name}:{bad_date}: [value] NoTier: pf:startDate" in out
    assert "is not a valid date" in out
    assert f"{ttl.name}:{line_of(ttl, 'pf:liveUrl <ftp')}: [shape] NoTier: pf:liveUrl must be an http(s) IRI" in out


def test_article_about_an_unknown_entity(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    (root / "wiki" / "Ghost.md").write_text(
        "---\nentity: Ghost\ntitle: Ghost\n---\nA lead.\n\n## Section\nSee [nothing](/id/Nowhere).\n"
    )
    code, out = validate(root, kb, capsys)
    assert code == 1
    assert "Ghost.md:2: [link] the article is about Ghost, which is not an entity" in out
    assert "Ghost.md:8: [link] links to /id/Nowhere, which is not an entity" in out


def test_dangling_reference_in_the_data(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    ttl = sorted((root / "data").glob("*.ttl"))[0]
    ttl.write_text(
        ttl.read_text() + '\nid:Dangler a pf:Theme ;\n    rdfs:label "Dangler" ;\n    pf:broader id:Missing .\n'
    )
    code, out = validate(root, kb, capsys)
    assert code == 1
    assert f"{ttl.name}:{line_of(ttl, 'id:Dangler a')}: [link] points at Missing, which is not defined" in out


def test_input_edited_without_rebuild(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    article = sorted((root / "wiki").rglob("*.md"))[0]
    article.write_text(article.read_text() + "\nOne more paragraph, written after the build.\n")
    code, out = validate(root, kb, capsys)
    assert code == 1
    assert f"{article.relative_to(root)}: changed since the build" in out
    assert main(["build", *args(root, kb)]) == 0
    code, out = validate(root, kb, capsys)
    assert code == 0, out


def test_another_portfolios_kb_is_named_not_listed_file_by_file(
    tiny: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """Validating a portfolio against a KB built from another (the default var/kb, say) says so in a line per
    folder, not a line per file of both."""
    root, kb = tiny
    other = tmp_path_factory.mktemp("other")
    copy_inputs(other, tiny=True)
    code, out = validate(other, kb, capsys)
    assert code == 1
    assert f"data: the KB was built from {root / 'data'}, not {other / 'data'}" in out
    assert "since the build" not in out and len(out.splitlines()) == 4, out  # one line per folder


@pytest.mark.parametrize(
    ("query", "line", "message"),
    [
        ("# title: T\nSELECT ?w WHERE {\n  ?w ?p $skill .\n}\n", 3, "$skill is used but not declared"),
        (
            "# title: T\n# param: skill iri the skill\nSELECT ?w WHERE { ?w ?p ?o }\n",
            2,
            "$skill is declared but never used",
        ),
        ("# title: T\n# param: s iri x\nSELECT ?w WHERE {\n  ?w nope:p $s .\n}\n", 4, "[syntax]"),
        (
            "# title: T\n# param: s iri x\nSELECT ?w $s\nWHERE { ?w ?p $s }\n",
            3,
            "$s is a parameter and cannot stand",
        ),
        ("# title: T\n# param: s colour x\nSELECT ?w WHERE { ?w ?p $s }\n", 2, "unknown type 'colour'"),
        (
            "# title: T\nSELECT * WHERE {\n SERVICE <http://x.example/> { ?s ?p ?o } }\n",
            3,
            "SERVICE is not allowed",
        ),
    ],
)
def test_bad_stored_query(
    tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str], query: str, line: int, message: str
) -> None:
    root, kb = tiny
    (root / "queries" / "broken.rq").write_text(query)
    code, out = validate(root, kb, capsys)
    assert code == 1
    assert any(f"broken.rq:{line}:" in row and message in row for row in out.splitlines()), out


def test_failed_build_leaves_the_previous_kb(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    before = KB.open(kb).manifest
    ttl = sorted((root / "data").glob("*.ttl"))[0]
    ttl.write_text(ttl.read_text() + "\nthis is not turtle\n")
    assert main(["build", *args(root, kb)]) == 1
    assert "nothing was built" in capsys.readouterr().err
    assert KB.open(kb).manifest == before
    assert len(list(kb.parent.joinpath("kb.builds").iterdir())) == 1


def test_failure_in_a_late_step_leaves_the_previous_kb(
    tiny: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, kb = tiny
    before = KB.open(kb).manifest
    article = sorted((root / "wiki").rglob("*.md"))[0]
    article.write_text(article.read_text() + "\nA new paragraph.\n")

    def disk_full(*_args: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build_module, "write_index", disk_full)
    sources = Sources(*(root / n for n in ("ontology", "data", "wiki", "queries")))
    with pytest.raises(OSError):
        build(sources, kb, log=quiet)
    assert KB.open(kb).manifest == before
    assert len(list((kb.parent / "kb.builds").iterdir())) == 1


def test_build_raises_problems_not_a_traceback(tmp_path: Path) -> None:
    sources = copy_inputs(tmp_path, tiny=True)
    (sources.data / "site.yaml").write_text("name: X\n")
    with pytest.raises(ProblemsFound) as info:
        build(sources, tmp_path / "kb", log=quiet)
    assert any("site.yaml" in str(p) and "`person:` is required" in str(p) for p in info.value.problems)
    assert not (tmp_path / "kb").exists()


def test_a_licence_that_is_not_an_iri_is_reported_at_its_line(tmp_path: Path) -> None:
    sources = copy_inputs(tmp_path, tiny=True)
    site = sources.data / "site.yaml"
    site.write_text(site.read_text() + "license: CC-BY please\n")
    with pytest.raises(ProblemsFound) as info:
        build(sources, tmp_path / "kb", log=quiet)
    assert any("site.yaml" in str(p) and "license is the http(s) IRI" in str(p) for p in info.value.problems)


def test_if_stale_skips_an_up_to_date_kb(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    assert main(["build", "--if-stale", *args(root, kb)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_wiki_only_change_reuses_the_reasoning(tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root, kb = tiny
    article = sorted((root / "wiki").rglob("*.md"))[0]
    article.write_text(article.read_text() + "\nAnother paragraph.\n")
    assert main(["build", *args(root, kb)]) == 0
    assert "(cached)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("turtle", "message"),
    [
        (
            'id:Typo a pf:Theme ;\n    rdfs:label "Typo" ;\n    pf:broadr id:Typo .',
            "pf:broadr is not defined by the ontology",
        ),
        (
            'id:SecondKey a pf:Project ;\n    rdfs:label "Second" ;\n    pf:description "Another key work." ;\n'
            '    pf:tier 1 ;\n    pf:keyRank 1 ;\n    pf:startDate "2024-01-01"^^xsd:date .',
            "pf:keyRank 1 is also the rank of",
        ),
        (
            'id:Early a pf:Project ;\n    rdfs:label "Early" ;\n    pf:description "Active before it began." ;\n'
            '    pf:tier 3 ;\n    pf:startDate "2024-05-01"^^xsd:date ;\n    pf:activeMonth "2024-01-01"^^xsd:date .',
            "pf:activeMonth 2024-01-01 is before the work's pf:startDate",
        ),
    ],
)
def test_editorial_rules(
    tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str], turtle: str, message: str
) -> None:
    root, kb = tiny
    ttl = sorted((root / "data").glob("*.ttl"))[0]
    ttl.write_text(ttl.read_text() + "\n" + turtle + "\n")
    code, out = validate(root, kb, capsys)
    assert code == 1
    rows = [r for r in out.splitlines() if "[rule]" in r and message in r]
    assert rows, out
    if "keyRank" not in message:  # the rule is reported at the line of the property it is about
        prop = message.split(maxsplit=1)[0]
        assert f"{ttl.name}:{line_of(ttl, '    ' + prop)}: [rule]" in rows[0]


def test_inits_next_steps_run_in_the_order_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new owner runs the commands `init` prints, one after the other: validate (before any build), then
    build, and each succeeds. `init` never assumes a profession: it asks (or, with no one to ask, says so)."""
    assert main(["init", str(tmp_path / "nobody"), "--name", "Ada Byte"]) == 2  # no terminal to ask at
    assert "--profession" in capsys.readouterr().err
    assert main(["init", str(tmp_path / "portfolio"), "--name", "Ada Byte", "--profession", "a potter"]) == 0
    assert "Ada Byte is a potter." in (tmp_path / "portfolio" / "data" / "portfolio.ttl").read_text()
    steps = [line.split("python -m service ", 1)[1].split() for line in capsys.readouterr().out.splitlines()
             if line.strip().startswith("python -m service ")]  # fmt: skip
    assert [s[0] for s in steps] == ["validate", "build", "serve"]
    assert main(steps[0]) == 0
    assert "no knowledge base at" in capsys.readouterr().out
    assert main(steps[1]) == 0
    assert main(steps[0]) == 0  # and after the build: up to date
    assert "is up to date" in capsys.readouterr().out


def test_a_portfolio_elsewhere_keeps_its_build_cache_beside_its_kb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without CACHE_DIR, the reasoning cache goes beside the KB, not into the checkout's var/cache."""
    monkeypatch.delenv("CACHE_DIR", raising=False)
    checkout_cache = ROOT / "var" / "cache"
    before = {p: p.stat().st_mtime_ns for p in checkout_cache.glob("*")} if checkout_cache.exists() else {}
    sources = copy_inputs(tmp_path / "in", tiny=True)
    build(sources, tmp_path / "site" / "kb", log=quiet)
    assert list((tmp_path / "site" / "cache").glob("inferred-*")), "no reasoning cache beside the KB"
    after = {p: p.stat().st_mtime_ns for p in checkout_cache.glob("*")} if checkout_cache.exists() else {}
    assert after == before, "the build wrote into the checkout's var/cache"
