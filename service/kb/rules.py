"""Editorial rules the SHACL shapes cannot say cheaply: vocabulary typos, one person, a strict key-work
order, activity inside a work's dates, and local names that make clean URLs."""

from __future__ import annotations

import re
from collections import defaultdict

import rdflib
from rdflib.namespace import RDF

from service.errors import Problem
from service.kb.rdf import PF, ParsedTurtle
from service.kb.values import prefixed

_LOCAL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
_SCHEMA = {rdflib.OWL.Class, rdflib.RDFS.Class, rdflib.RDF.Property, rdflib.OWL.ObjectProperty,
           rdflib.OWL.DatatypeProperty, rdflib.OWL.AnnotationProperty}  # fmt: skip


def _p(name: str) -> rdflib.URIRef:
    return rdflib.URIRef(PF + name)


def check_rules(
    ontology: ParsedTurtle,
    data: ParsedTurtle,
    base: str,
    person: str,
    contact_email: str = "",
    skip: set[str] | None = None,
) -> list[Problem]:
    """`skip`: subjects whose values were already reported (a rule over a broken date would only repeat it)."""
    problems: list[Problem] = []
    skip = skip or set()

    def bad(subject: rdflib.term.Node, message: str, *at: rdflib.term.Node) -> None:
        path, line = data.line_of(str(subject), *(str(a) for a in at)) if at else data.where(str(subject))
        problems.append(Problem(path or "data", line, "rule", message))

    defined = {str(s) for s in ontology.graph.subjects()}
    reported: set[str] = set()
    for s, p, o in data.graph:
        for term in (p, o if p == RDF.type else None):
            name = str(term)
            if isinstance(term, rdflib.URIRef) and name.startswith(PF) and name not in defined and name not in reported:
                reported.add(name)
                bad(s, f"pf:{name[len(PF) :]} is not defined by the ontology (a typo?)", term)

    for s in set(data.graph.subjects(RDF.type, None)):
        if str(s).startswith(base) and not _LOCAL_NAME.match(str(s)[len(base) :]):
            bad(s, f"{str(s)[len(base) :]!r}: a local name is letters and digits, starting with a letter")

    for s, message in _unshown(ontology, data, base):
        bad(s, message)

    people = sorted(str(s) for s in data.graph.subjects(RDF.type, _p("Person")))
    if people != [base + person]:
        shown = ", ".join(x[len(base) :] if x.startswith(base) else x for x in people) or "none"
        problems.append(
            Problem("data/site.yaml", 0, "rule", f"exactly one pf:Person, {person}, is expected; found: {shown}")
        )

    email = data.graph.value(rdflib.URIRef(base + person), _p("email"))
    if email is not None and contact_email and str(email) != contact_email:
        bad(rdflib.URIRef(base + person), f"pf:email {email} is not site.yaml's contact_email {contact_email}: "
                                          "the graph and the site give one public address", _p("email"))  # fmt: skip

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

    problems += _dates(data, skip)
    for work in set(data.graph.subjects(_p("activeMonth"), None)) - {rdflib.URIRef(s) for s in skip}:
        start = data.graph.value(work, _p("startDate"))
        end = data.graph.value(work, _p("endDate"))
        for month in sorted(str(m) for m in data.graph.objects(work, _p("activeMonth"))):
            if start is not None and month[:7] < str(start)[:7]:
                bad(work, f"pf:activeMonth {month} is before the work's pf:startDate {start}", _p("activeMonth"))
            if end is not None and month[:7] > str(end)[:7]:
                bad(work, f"pf:activeMonth {month} is after the work's pf:endDate {end}", _p("activeMonth"))
    return problems


def _day(graph: rdflib.Graph, s: rdflib.term.Node, name: str) -> str | None:
    value = graph.value(s, _p(name))
    return str(value)[:10] if isinstance(value, rdflib.Literal) and not value.ill_typed else None


def _dates(data: ParsedTurtle, skip: set[str]) -> list[Problem]:
    """A paper published before it was begun; a work made during a role whose dates it never meets."""
    graph, out = data.graph, []
    for s in set(graph.subjects(_p("published"), None)):
        start, published = _day(graph, s, "startDate"), _day(graph, s, "published")
        if str(s) not in skip and start and published and published < start:
            path, line = data.line_of(str(s), PF + "published")
            out.append(Problem(path, line, "rule", f"{_local(s)}: pf:published {published} is before its "
                                                   f"pf:startDate {start}"))  # fmt: skip
    for work, role in graph.subject_objects(_p("madeDuring")):
        if str(work) in skip or str(role) in skip:
            continue
        w0, w1 = _day(graph, work, "startDate"), _day(graph, work, "endDate") or "9999-12-31"
        r0, r1 = _day(graph, role, "startDate"), _day(graph, role, "endDate") or "9999-12-31"
        if w0 and r0 and (w1 < r0 or w0 > r1):
            path, line = data.line_of(str(work), PF + "madeDuring")
            spans = f"the work {w0} to {_until(w1)}, the role {r0} to {_until(r1)}"
            out.append(Problem(path, line, "rule", f"{_local(work)} is made during {_local(role)}, but their dates "
                                                   f"never overlap ({spans})"))  # fmt: skip
    return out


def _local(s: rdflib.term.Node) -> str:
    return str(s).rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def _until(day: str) -> str:
    return "now" if day.startswith("9999") else day


def _unshown(ontology: ParsedTurtle, data: ParsedTurtle, base: str) -> list[tuple[rdflib.term.Node, str]]:
    """The entities of the portfolio whose every type is a class of no portfolio kind (not under pf:Entity, in
    the ontology or by the owner's own rdfs:subClassOf): no page, list or answer can show them."""
    below: dict[rdflib.term.Node, set[rdflib.term.Node]] = defaultdict(set)
    for graph in (ontology.graph, data.graph):
        for sub, sup in graph.subject_objects(rdflib.RDFS.subClassOf):
            below[sub].add(sup)

    def is_kind(cls: rdflib.term.Node, seen: set[rdflib.term.Node]) -> bool:
        if cls == _p("Entity") or (str(cls).startswith(PF) and cls != _p("SkillCategory")):
            return True  # a portfolio class (a misspelt one is reported as undefined above)
        seen.add(cls)
        return any(is_kind(up, seen) for up in below.get(cls, ()) if up not in seen)

    out = []
    for s in sorted(set(data.graph.subjects(RDF.type, None)), key=str):
        types = set(data.graph.objects(s, RDF.type))
        if not str(s).startswith(base) or not types or types & _SCHEMA or any(is_kind(t, set()) for t in types):
            continue  # (a class or a property the owner declares is no entity)
        shown = ", ".join(prefixed(t) for t in sorted(types, key=str))
        out.append((s, f"{str(s)[len(base) :]}: its type ({shown}) is no kind of the portfolio, so no page, list or "
                       "answer can show it; make the class an rdfs:subClassOf a portfolio class (pf:Work, "
                       "pf:Organisation, pf:Skill ...)"))  # fmt: skip
    return out

