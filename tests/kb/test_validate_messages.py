"""Mistakes a site owner makes, each reported once as `file:line: [check] message`, the cause first, no cascade.

Every case edits a private copy of the tiny portfolio the way an owner would get it wrong, and expects one
problem at the line of the mistake whose message names the cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from service.errors import Problem
from service.kb.check import check_inputs
from service.kb.sources import Sources
from tests.conftest import copy_inputs


@dataclass(frozen=True)
class Mistake:
    id: str
    file: str  # relative to the copy's root
    old: str  # the text replaced (the first occurrence); "" appends `new`
    new: str
    at: str  # a text on the line the problem must point at, in the edited file (or `where`)
    says: str  # a phrase the message must hold
    where: str = ""  # the file the problem is reported in, when not the edited one


MISTAKES = [
    Mistake("tier-as-string", "data/works.ttl", "pf:tier 1 ; pf:keyRank 1 ;", 'pf:tier "1" ; pf:keyRank 1 ;',
            'pf:tier "1"', 'bare integer'),
    Mistake("tier-4", "data/works.ttl", "pf:tier 1 ; pf:keyRank 2 ;", "pf:tier 4 ; pf:keyRank 2 ;",
            "pf:tier 4", "1, 2 or 3"),
    Mistake("date-without-datatype", "data/people.ttl", 'pf:startDate "2021-08-01"^^xsd:date',
            'pf:startDate "2021-08-01"', 'pf:startDate "2021-08-01"', "^^xsd:date"),
    Mistake("month-without-datatype", "data/people.ttl", 'pf:startDate "2021-08-01"^^xsd:date',
            'pf:startDate "2021-08"', 'pf:startDate "2021-08"', 'first day: "2021-08-01"^^xsd:date'),
    Mistake("type-of-no-kind", "data/works.ttl", "",
            '\nid:Stray a <https://tiny.example/ns#Gizmo> ; rdfs:label "Stray" .\n', "id:Stray a",
            "no kind of the portfolio"),
    Mistake("month-as-date", "data/people.ttl", '"2019-09-01"^^xsd:date', '"2019-09"^^xsd:date',
            '"2019-09"^^xsd:date', "YYYY-MM-DD"),
    Mistake("label-with-language", "data/people.ttl", 'rdfs:label "Northhaven"', 'rdfs:label "Northhaven"@en',
            '"Northhaven"@en', "@en"),
    Mistake("entity-base-differs", "data/site.yaml", "entity_base: https://tiny.example/id/",
            "entity_base: https://tiny.example/ids/", "entity_base", "@prefix"),
    Mistake("property-typo", "data/works.ttl", "    pf:implements id:DeltaEncoding ;",
            "    pf:implement id:DeltaEncoding ;", "pf:implement id:", "pf:implement is not defined"),
    Mistake("venue-on-organisation", "data/people.ttl", '    pf:shortLabel "Orbitwell" ;\n',
            '    pf:shortLabel "Orbitwell" ;\n    pf:venue "Tiny Conf" ;\n', "pf:venue", "for a pf:Work"),
    Mistake("based-in-organisation", "data/people.ttl", "    pf:basedIn id:Northhaven .\n\nid:HarbourLab",
            "    pf:basedIn id:HarbourLab .\n\nid:HarbourLab", "pf:basedIn id:HarbourLab", "pf:Place"),
    Mistake("component-of-on-project", "data/works.ttl", "    pf:relatedTo id:Tidemark ;",
            "    pf:relatedTo id:Tidemark ;\n    pf:componentOf id:Tidemark ;", "pf:componentOf id:Tidemark",
            "pf:Component"),
    Mistake("category-as-type", "data/works.ttl", "id:Plotline a pf:Project , pf:Library ;",
            "id:Plotline a pf:Project , pf:Database ;", "id:Plotline a", "skill category"),
    Mistake("email-differs", "data/people.ttl", 'pf:email "hello@tiny.example"', 'pf:email "mira@tiny.example"',
            "pf:email", "contact_email"),
    Mistake("made-during-outside-role", "data/works.ttl",
            '    pf:startDate "2022-04-01"^^xsd:date ;\n    pf:uses id:Rust ;',
            '    pf:startDate "2022-04-01"^^xsd:date ;\n    pf:endDate "2022-05-01"^^xsd:date ;\n'
            '    pf:madeDuring id:RoleHarbourLab ;\n    pf:uses id:Rust ;', "pf:madeDuring id:RoleHarbourLab",
            "never overlap"),
    Mistake("absent-is-an-alias", "data/lexicon/absent.yaml", "- label: Kotlin", "- label: ts",
            "- label: ts", "alias"),
    Mistake("alias-to-nothing", "data/lexicon/aliases.yaml", "rtree: RTreeIndexing", "rtree: RTreeIndex",
            "rtree:", "not an entity"),
    Mistake("lexicon-yaml-error", "data/lexicon/synonyms.yaml", "", "\n- [unclosed, list\n- [a, b]\n",
            "- [a, b]", "flow sequence"),
    Mistake("site-yaml-error", "data/site.yaml", "name: Ask Mira", "name: [Ask Mira", "person:", "flow sequence"),
    Mistake("front-matter-error", "wiki/Plotline.md", "entity: Plotline", "entity: [Plotline", "title:",
            "flow sequence"),
    Mistake("query-syntax", "queries/key-works.rq", "ORDER BY", "ORDER BY (", "ORDER BY (", "expected"),
    Mistake("query-prefix", "queries/key-works.rq", "?work pf:keyRank ?keyRank", "?work ex:keyRank ?keyRank",
            "ex:keyRank", "prefix ex:"),
    Mistake("override-unknown-key", "data/lexicon/weights.yaml", "", "fusion:\n  kk: 60\n", "kk: 60",
            "not a setting"),
    Mistake("override-wrong-kind", "data/lexicon/intents.yaml", "", "contact:\n  mentions: commission\n",
            "mentions: commission", "expected a list"),
]


def _problems(tmp_path: Path, m: Mistake) -> tuple[list[Problem], Path]:
    copy_inputs(tmp_path, tiny=True)
    path = tmp_path / m.file
    path.parent.mkdir(parents=True, exist_ok=True)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if m.old:
        assert m.old in text, f"{m.id}: the fixture changed: {m.old!r} not in {m.file}"
        text = text.replace(m.old, m.new, 1)
    else:
        text += m.new
    path.write_text(text, encoding="utf-8")
    root = tmp_path
    checked = check_inputs(Sources(root / "ontology", root / "data", root / "wiki", root / "queries"))
    return checked.problems, (tmp_path / (m.where or m.file))


@pytest.mark.parametrize("m", MISTAKES, ids=[m.id for m in MISTAKES])
def test_one_clear_problem_at_the_mistake(tmp_path: Path, m: Mistake) -> None:
    problems, reported_in = _problems(tmp_path, m)
    assert problems, f"{m.id}: accepted silently"
    shown = "\n".join(map(str, problems))
    assert len(problems) == 1, f"{m.id}: a cascade of {len(problems)} problems:\n{shown}"
    p = problems[0]
    lines = reported_in.read_text(encoding="utf-8").splitlines()
    expected = next(n for n, line in enumerate(lines, 1) if m.at in line)
    assert p.path.endswith(reported_in.name), shown
    assert p.line == expected, f"{m.id}: reported at line {p.line}, the mistake is on line {expected}: {shown}"
    assert m.says.lower() in p.message.lower(), shown
    assert "Traceback" not in p.message and "\n" not in p.message, shown


def test_paper_published_before_its_start(tmp_path: Path) -> None:
    m = Mistake("published-before-start", "data/works.ttl", "", (
        '\nid:EarlyPaper a pf:Paper ;\n    rdfs:label "Early paper" ;\n'
        '    pf:description "A paper that says it was published before it was started." ;\n'
        '    pf:tier 2 ;\n    pf:author id:MiraQuell ;\n    pf:startDate "2023-05-01"^^xsd:date ;\n'
        '    pf:published "2023-01-10"^^xsd:date ;\n    pf:venue "Tiny Workshop" .\n'
    ), 'pf:published "2023-01-10"', "before")
    test_one_clear_problem_at_the_mistake(tmp_path, m)
