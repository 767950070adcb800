"""Name keys: every name and other name of a skill in lower case (`pf:nameKey`), added by the build beside the
reasoner's inferences. A stored query that finds a skill by name in any case looks its key up through the
store's index instead of comparing every label in lower case (queries/works-using-skill-named.rq): its work is
one lookup at any size of graph."""

from __future__ import annotations

import rdflib
from rdflib.namespace import RDF, RDFS, SKOS

from service.queries import name_key
from service.vocab import PF

NAME_KEY = rdflib.URIRef(PF + "nameKey")
_SKILL = rdflib.URIRef(PF + "Skill")


def name_keys(*graphs: rdflib.Graph) -> rdflib.Graph:
    """The name keys of every skill the graphs type (stated or inferred) and name (rdfs:label, skos:altLabel)."""
    skills = {s for g in graphs for s in g.subjects(RDF.type, _SKILL)}
    keys = rdflib.Graph()
    for g in graphs:
        for p in (RDFS.label, SKOS.altLabel):
            for s, name in g.subject_objects(p):
                if s in skills and isinstance(name, rdflib.Literal):
                    keys.add((s, NAME_KEY, rdflib.Literal(name_key(str(name)))))
    return keys
