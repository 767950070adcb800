"""The portfolio's graph as Turtle files, written the way an owner writes them (docs/DATA.md section 3)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

from service.synth.model import Concept, Entity, Organisation, Place, Portfolio, Role, Skill, Work

_PREFIXES = """@prefix id:   <{base}> .
@prefix pf:   <https://folio.example/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .

"""


def _s(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _d(day: date) -> str:
    return f'"{day.isoformat()}"^^xsd:date'


def _ids(names: Iterable[str]) -> str:
    return " , ".join(f"id:{n}" for n in names)


def _block(local: str, types: list[str], props: list[tuple[str, str]]) -> str:
    lines = [f"id:{local} a {' , '.join(types)} ;"]
    lines += [f"    {p} {o} ;" for p, o in props]
    lines[-1] = lines[-1][:-2] + " ."
    return "\n".join(lines) + "\n"


def _names(e: Entity) -> list[tuple[str, str]]:
    props = [("rdfs:label", _s(e.label))]
    if e.short:
        props.append(("pf:shortLabel", _s(e.short)))
    if e.alt:
        props.append(("skos:altLabel", " , ".join(_s(a) for a in e.alt)))
    if e.description:
        props.append(("pf:description", _s(e.description)))
    return props


def _place(e: Place) -> str:
    return _block(e.local, ["pf:Place"], _names(e) + ([("pf:locatedIn", f"id:{e.located_in}")] if e.located_in else []))


def _org(e: Organisation) -> str:
    return _block(e.local, [f"pf:{e.cls}"], [*_names(e), ("pf:basedIn", f"id:{e.place}")])


def _role(e: Role) -> str:
    props = [
        *_names(e),
        ("pf:roleTitle", _s(e.title)),
        ("pf:atOrganisation", f"id:{e.org}"),
        ("pf:basedIn", f"id:{e.place}"),
        ("pf:startDate", _d(e.start)),
    ]
    if e.end:
        props.append(("pf:endDate", _d(e.end)))
    return _block(e.local, [f"pf:{e.cls}"], props)


def _skill(e: Skill) -> str:
    props = [*_names(e), ("pf:category", f"pf:{e.category}")]
    if e.broader:
        props.append(("pf:broader", f"id:{e.broader}"))
    return _block(e.local, ["pf:Skill"], props)


def _concept(e: Concept) -> str:
    return _block(e.local, [f"pf:{e.cls}"], _names(e))


def _work(e: Work, person: str) -> str:
    types = [f"pf:{e.base}"] + ([f"pf:{e.kind}"] if e.kind else [])
    props = [*_names(e), ("pf:tier", str(e.tier))]
    if e.rank is not None:
        props.append(("pf:keyRank", str(e.rank)))
    props += [("pf:author", f"id:{person}"), ("pf:startDate", _d(e.start))]
    if e.end:
        props.append(("pf:endDate", _d(e.end)))
    if e.published:
        props.append(("pf:published", _d(e.published)))
    if e.venue:
        props.append(("pf:venue", _s(e.venue)))
    for prop, values in (
        ("pf:uses", e.uses),
        ("pf:implements", e.implements),
        ("pf:theme", e.themes),
        ("pf:usesDataset", e.datasets),
        ("pf:relatedTo", e.related),
    ):
        if values:
            props.append((prop, _ids(values)))
    for prop, value in (("pf:succeeds", e.succeeds), ("pf:componentOf", e.component_of), ("pf:madeDuring", e.role)):
        if value:
            props.append((prop, f"id:{value}"))
    if e.source_file:
        props.append(("pf:sourceFile", _s(e.source_file)))
    if e.repository:
        props.append(("pf:repository", f"<{e.repository}>"))
    if e.months:
        props.append(
            (
                "pf:activeMonth",
                " ,\n        ".join(", ".join(_d(m) for m in e.months[i : i + 4]) for i in range(0, len(e.months), 4)),
            )
        )
    return _block(e.local, types, props)


def write_turtle(p: Portfolio, data: Path) -> list[Path]:
    head = _PREFIXES.format(base=p.person.base)
    person = p.person
    me = [
        ("rdfs:label", _s(person.label)),
        ("pf:shortLabel", _s(person.short)),
        ("pf:description", _s(person.description)),
        ("pf:basedIn", f"id:{person.place}"),
        ("pf:email", _s(person.email)),
        ("pf:holdsRole", _ids(r.local for r in p.roles)),
    ]
    files: dict[str, list[str]] = {
        "person.ttl": [_block(person.local, ["pf:Person"], me)]
        + [_place(x) for x in p.places]
        + [_org(x) for x in p.orgs]
        + [_role(x) for x in p.roles],
        "skills.ttl": [_skill(x) for x in p.skills],
        "concepts.ttl": [_concept(x) for x in p.concepts],
    }
    by_local = {w.local: w for w in p.works}
    width = len(str(len(p.units)))
    for n, unit in enumerate(p.units, start=1):
        files[f"works-{n:0{width}d}.ttl"] = [_work(by_local[w], person.local) for w in unit]
    data.mkdir(parents=True, exist_ok=True)
    written = []
    for name, blocks in files.items():
        path = data / name
        path.write_text(head + "\n".join(blocks), encoding="utf-8")
        written.append(path)
    return written
