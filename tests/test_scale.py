"""The synthetic portfolio (`python -m service synth`): valid, deterministic, N times the demo, prose that agrees
with the graph; and, slow, a 10x build that answers questions about what was generated."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
import rdflib

from service import engine, snapshot
from service.bench import bench_plan, bench_queries
from service.kb import KB
from service.kb.build import build
from service.kb.check import check_inputs
from service.kb.sources import Sources
from service.synth import generate, synthesise
from service.synth.months import said
from service.synth.prose import number

PF = rdflib.Namespace("https://folio.example/ns#")
TODAY = date(2026, 11, 30)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth") / "one"
    synthesise(1, out, seed=7)
    return out


def test_one_unit_is_valid(one: Path) -> None:
    checked = check_inputs(Sources.from_settings(data=one / "data", wiki=one / "wiki"))
    assert [str(p) for p in checked.problems] == []
    assert len(checked.articles) == 127


def test_the_same_seed_writes_the_same_files(one: Path, tmp_path: Path) -> None:
    synthesise(1, tmp_path / "again", seed=7)
    assert _files(tmp_path / "again") == _files(one)
    synthesise(1, tmp_path / "other", seed=8)
    assert _files(tmp_path / "other") != _files(one)


def test_two_units_are_twice_one() -> None:
    small, large = generate(1, seed=3), generate(2, seed=3)
    assert len(small.works) == 185
    for attr in ("works", "skills", "roles"):
        assert len(getattr(large, attr)) == 2 * len(getattr(small, attr)), attr
    assert sum(map(len, large.articles)) == 2 * sum(map(len, small.articles))
    assert [w.rank for w in large.works if w.rank] == list(range(1, 25))
    labels = [e.label.lower() for e in large.index().values()]
    assert len(labels) == len(set(labels))  # every name once, so linking is never ambiguous by accident


def _graph(one: Path) -> rdflib.Graph:
    g = rdflib.Graph()
    for path in sorted((one / "data").glob("*.ttl")):
        g.parse(path, format="turtle")
    return g


def _lead(path: Path) -> str:
    return path.read_text(encoding="utf-8").split("---\n", 2)[2].split("\n\n", 1)[0]


def test_work_articles_agree_with_the_graph(one: Path) -> None:
    g = _graph(one)
    base = "https://eliasvarenne.example/id/"
    checked = 0
    for path in sorted((one / "wiki").rglob("*.md")):
        work = rdflib.URIRef(base + path.stem)
        if g.value(work, PF.tier) is None or g.value(work, PF.published) is not None:
            continue  # not a work, or a paper or talk (dated by publication)
        text = path.read_text(encoding="utf-8")
        start = date.fromisoformat(str(g.value(work, PF.startDate)))
        end_value = g.value(work, PF.endDate)
        lead = _lead(path)
        if end_value is None:
            assert f"since {said(start)}" in lead
        else:
            end = date.fromisoformat(str(end_value))
            assert (f"between {said(start)} and {said(end)}" in lead) or (start.replace(day=1) == end.replace(day=1))
        uses = {str(o)[len(base) :] for o in g.objects(work, PF.uses)}
        linked = set(re.findall(r"\(/id/([A-Za-z0-9]+)\)", lead.split("It is built with", 1)[-1]))
        assert linked and linked <= uses, path.name
        active = len(list(g.objects(work, PF.activeMonth)))
        commits = re.search(r"commits in (\w+) (?:of the|months?)", text)
        if commits:
            assert commits.group(1) == number(active), path.name
        role = g.value(work, PF.madeDuring)
        if role is not None:
            org = str(g.value(role, PF.atOrganisation))[len(base) :]
            assert f"(/id/{org})" in lead
        checked += 1
    assert checked > 50


def test_role_articles_count_the_works_made_during_them(one: Path) -> None:
    g = _graph(one)
    base = "https://eliasvarenne.example/id/"
    for path in sorted((one / "wiki").rglob("Role*.md")):
        role = rdflib.URIRef(base + path.stem)
        n = len(set(g.subjects(PF.madeDuring, role)))
        lead = _lead(path)
        said_n = "No" if n == 0 else number(n)
        assert re.search(rf"\b{said_n}\b works? in the graph", lead, re.IGNORECASE), (path.name, n, lead)
        start = date.fromisoformat(str(g.value(role, PF.startDate)))
        assert f"{start.day} " in lead and str(start.year) in lead


@pytest.mark.slow
def test_ten_times_builds_and_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = synthesise(10, tmp_path / "synth", seed=1)
    monkeypatch.setenv("CACHE_DIR", str(tmp_path / "cache"))
    kb = tmp_path / "kb"
    manifest = build(Sources.from_settings(data=written.data, wiki=written.wiki), kb, log=lambda _m: None)
    assert manifest["counts"]["works_per_tier"] == {"1": 120, "2": 670, "3": 1060}
    assert set(manifest["memory_mb"]) == set(manifest["timings_s"]) - {"total"}
    planner = engine.load(KB.open(kb, in_memory=True))
    p = written.portfolio
    index = p.index()
    key = next(w for w in p.works if w.rank == 15)
    plan = planner.plan(f"when did {key.label} start?", today=TODAY)
    assert plan.answer is not None and said(key.start) in plan.answer.text
    plan = planner.plan(f"what does {key.label} use?", today=TODAY)
    assert plan.answer is not None and index[key.uses[0]].label in plan.answer.text
    skill = p.skills[200]
    users = [w for w in p.works if skill.local in w.uses]
    plan = planner.plan(f"which works use {skill.label}?", today=TODAY)
    assert plan.answer is not None and plan.route == "concept_works"
    assert f"{len(users)} work" in plan.answer.text or len(users) == 1

    lines: list[str] = []
    few = snapshot.questions(planner)[:60]
    monkeypatch.setattr(snapshot, "questions", lambda _planner: few)
    bench_plan(planner, rounds=1, out=lines.append)
    assert any(line.startswith("| **all** | 60 |") for line in lines)
    # bench queries on a 1x build: at 10x, concepts-of-class alone takes over a second a run (20 warm-up runs)
    small = synthesise(1, tmp_path / "small", seed=1)
    build(Sources.from_settings(data=small.data, wiki=small.wiki), tmp_path / "kb1", log=lambda _m: None)
    lines.clear()
    bench_queries(tmp_path / "kb1", runs=1, out=lines.append)
    assert sum(line.startswith("| ") for line in lines) > 10
