"""Editorial rules the SHACL shapes cannot say cheaply: vocabulary typos, one person, a strict key-work
order, activity inside a work's dates, and local names that make clean URLs."""

from __future__ import annotations

import re
from collections import defaultdict

import rdflib
from rdflib.namespace import RDF

from service.errors import Problem
from service.kb.rdf import PF, ParsedTurtle

_LOCAL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")


def _p(name: str) -> rdflib.URIRef:
    return rdflib.URIRef(PF + name)


def check_rules(ontology: ParsedTurtle, data: ParsedTurtle, base: str, person: str) -> list[Problem]:
    problems: list[Problem] = []

    def bad(subject: rdflib.term.Node, message: str) -> None:
        path, line = data.where(str(subject))
        problems.append(Problem(path or "data", line, "rule", message))

    defined = {str(s) for s in ontology.graph.subjects()}
    reported: set[str] = set()
    for s, p, o in data.graph:
        for term in (p, o if p == RDF.type else None):
            name = str(term)
            if isinstance(term, rdflib.URIRef) and name.startswith(PF) and name not in defined | reported:
                reported.add(name)
                bad(s, f"pf:{name[len(PF) :]} is not defined by the ontology (a typo?)")

    for s in set(data.graph.subjects(RDF.type, None)):
        if str(s).startswith(base) and not _LOCAL_NAME.match(str(s)[len(base) :]):
            bad(s, f"{str(s)[len(base) :]!r}: a local name is letters and digits, starting with a letter")

    people = sorted(str(s) for s in data.graph.subjects(RDF.type, _p("Person")))
    if people != [base + person]:
        shown = ", ".join(x[len(base) :] if x.startswith(base) else x for x in people) or "none"
        problems.append(
            Problem("data/site.yaml", 0, "rule", f"exactly one pf:Person, {person}, is expected; found: {shown}")
        )

    ranks: dict[int, list[rdflib.term.Node]] = defaultdict(list)
    for s, value in data.graph.subject_objects(_p("keyRank")):
        if isinstance(value, rdflib.Literal) and isinstance(value.value, int):
            ranks[value.value].append(s)
    for rank, works in sorted(ranks.items()):
        works.sort(key=lambda w: data.where(str(w)))  # report the ones written later
        for w in works[1:]:
            bad(w, f"pf:keyRank {rank} is also the rank of {str(works[0]).rsplit('/', 1)[-1]}")
    if ranks and sorted(ranks) != list(range(1, len(ranks) + 1)):
        first = ranks[max(ranks)][0]
        bad(first, f"key ranks should run 1..{len(ranks)} without gaps; found {sorted(ranks)}")

    for work in set(data.graph.subjects(_p("activeMonth"), None)):
        start = data.graph.value(work, _p("startDate"))
        end = data.graph.value(work, _p("endDate"))
        for month in sorted(str(m) for m in data.graph.objects(work, _p("activeMonth"))):
            if start is not None and month[:7] < str(start)[:7]:
                bad(work, f"pf:activeMonth {month} is before the work's pf:startDate {start}")
            if end is not None and month[:7] > str(end)[:7]:
                bad(work, f"pf:activeMonth {month} is after the work's pf:endDate {end}")
    return problems
