"""What the reasoner would silently change: a property used on an entity outside its domain, or pointing at one
outside its range, makes the reasoner retype that entity (a pf:Talk with pf:venue becomes a pf:Paper, a place
given as an organisation's pf:basedIn becomes ... an organisation that is also a place). And a type that is
no class at all (`a pf:Database`, a skill category). Each is reported at the line that says it."""

from __future__ import annotations

from collections import defaultdict

import rdflib
from rdflib.namespace import OWL, RDF, RDFS

from service.errors import Problem
from service.kb.rdf import PF, ParsedTurtle


def _short(iri: rdflib.term.Node) -> str:
    text = str(iri)
    return "pf:" + text[len(PF) :] if text.startswith(PF) else text.rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def _supers(ontology: rdflib.Graph) -> dict[rdflib.term.Node, set[rdflib.term.Node]]:
    """Each class with every class it is a subclass of (itself included)."""
    direct: dict[rdflib.term.Node, set[rdflib.term.Node]] = defaultdict(set)
    for c, parent in ontology.subject_objects(RDFS.subClassOf):
        direct[c].add(parent)
    out: dict[rdflib.term.Node, set[rdflib.term.Node]] = {}
    for c in set(direct) | set(ontology.subjects(RDF.type, OWL.Class)):
        seen, todo = {c}, [c]
        while todo:
            for parent in direct.get(todo.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        out[c] = seen
    return out


def check_domains(ontology: ParsedTurtle, data: ParsedTurtle, skip: set[str] | None = None) -> list[Problem]:
    onto, graph = ontology.graph, data.graph
    supers = _supers(onto)
    classes = set(onto.subjects(RDF.type, OWL.Class)) | set(supers)
    categories = set(onto.subjects(RDF.type, rdflib.URIRef(PF + "SkillCategory")))
    problems: list[Problem] = []
    reported: set[tuple[str, str]] = set()

    def bad(s: rdflib.term.Node, term: rdflib.term.Node, message: str) -> None:
        if (str(s), str(term)) in reported or str(s) in (skip or set()):
            return
        reported.add((str(s), str(term)))
        path, line = data.line_of(str(s), str(term))
        problems.append(Problem(path or "data", line, "type", f"{_short(s)}: {message}"))

    stated: dict[rdflib.term.Node, set[rdflib.term.Node]] = defaultdict(set)
    for s, cls in graph.subject_objects(RDF.type):
        if not str(cls).startswith(PF):
            continue
        if cls in categories:
            bad(s, cls, f"{_short(cls)} is a skill category, not a kind of thing: a work is typed with a kind of "
                        f"work (pf:Library, pf:Game ...); a skill takes `pf:category {_short(cls)}`")  # fmt: skip
        elif cls in classes:
            stated[s].add(cls)
        elif (cls, None, None) in onto:
            bad(s, cls, f"{_short(cls)} is not a class of the ontology, so nothing can be `a {_short(cls)}`")

    def within(entity: rdflib.term.Node, cls: rdflib.term.Node) -> bool | None:
        """Whether the entity's stated classes fall under `cls`; None when it states none (not ours to judge)."""
        types = stated.get(entity)
        if not types:
            return None
        return any(cls in supers.get(t, {t}) for t in types)

    for p in set(onto.subjects(RDF.type, OWL.DatatypeProperty)):
        for s, o in graph.subject_objects(p):
            if not isinstance(o, rdflib.Literal):
                bad(s, p, f"{_short(p)} takes a value written in quotes (text, a date or a number), not a link")
    for p in set(onto.subjects(RDF.type, OWL.ObjectProperty)):
        for s, o in graph.subject_objects(p):
            if isinstance(o, rdflib.Literal):
                bad(s, p, f"{_short(p)} points at an entity (id:Name) or an address (<https://...>), not at text "
                          f"\"{o}\"")  # fmt: skip
    for p, domain in onto.subject_objects(RDFS.domain):
        if not str(domain).startswith(PF):
            continue
        for s in set(graph.subjects(p, None)):
            if within(s, domain) is False:
                kinds = " and ".join(sorted(_short(t) for t in stated[s]))
                bad(s, p, f"{_short(p)} is for a {_short(domain)} (its domain), and this is a {kinds}: the reasoner "
                          f"would make it a {_short(domain)} too")  # fmt: skip
    for p, range_ in onto.subject_objects(RDFS.range):
        if not str(range_).startswith(PF):
            continue
        for s, o in graph.subject_objects(p):
            if isinstance(o, rdflib.URIRef) and within(o, range_) is False:
                kinds = " and ".join(sorted(_short(t) for t in stated[o]))
                bad(s, p, f"{_short(p)} points at a {_short(range_)} (its range), and {_short(o)} is a {kinds}: the "
                          f"reasoner would make it a {_short(range_)} too")  # fmt: skip
    return problems
