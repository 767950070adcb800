"""OWL 2 RL reasoning with owlrl, keeping only the inferences an editor would otherwise have written.

owlrl's closure also holds noise Oxigraph refuses or nobody wants: literal subjects, reflexive owl:sameAs,
axioms about the RDF/OWL vocabulary itself, `x a owl:Thing`. Those are filtered. The result is cached by
the digest of ontology + data, so a wiki-only or query-only change skips reasoning.
"""

from __future__ import annotations

from pathlib import Path

import owlrl
import rdflib
from rdflib.namespace import OWL, RDF, RDFS, XSD

from service.kb.rdf import graph_to_ntriples

_BUILTIN = (str(RDF), str(RDFS), str(OWL), str(XSD))
_TRIVIAL_TYPES = {OWL.Thing, RDFS.Resource, OWL.NamedIndividual, RDFS.Class, OWL.Class}
_REFLEXIVE = {OWL.sameAs, OWL.equivalentClass, OWL.equivalentProperty, RDFS.subClassOf, RDFS.subPropertyOf}


def _useful(s: rdflib.term.Node, p: rdflib.term.Node, o: rdflib.term.Node) -> bool:
    if not isinstance(s, rdflib.URIRef):
        return False  # literal or blank subjects
    if str(s).startswith(_BUILTIN):
        return False  # statements about the vocabulary itself
    if p in _REFLEXIVE and s == o:
        return False
    if p == RDF.type and (o in _TRIVIAL_TYPES or (isinstance(o, rdflib.URIRef) and str(o).startswith(_BUILTIN))):
        return False
    if o in (OWL.Thing, RDFS.Resource):
        return False  # "is a subclass of / has domain Thing" says nothing
    return not isinstance(o, rdflib.BNode)


def infer(ontology: rdflib.Graph, data: rdflib.Graph) -> rdflib.Graph:
    """The triples OWL 2 RL adds to ontology + data, without the stated ones and without noise."""
    closure = rdflib.Graph()
    for triple in ontology:
        closure.add(triple)
    for triple in data:
        closure.add(triple)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(closure)
    inferred = rdflib.Graph()
    for s, p, o in closure:
        if (s, p, o) in data or (s, p, o) in ontology:
            continue
        if _useful(s, p, o):
            inferred.add((s, p, o))
    return inferred


def infer_cached(ontology: rdflib.Graph, data: rdflib.Graph, cache: Path, key: str) -> tuple[rdflib.Graph, bool]:
    """Inferred triples, read from `cache/inferred-KEY.nt` when present; returns (graph, was_cached)."""
    path = cache / f"inferred-{key}.nt"
    if path.exists():
        return rdflib.Graph().parse(path, format="nt"), True
    inferred = infer(ontology, data)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(graph_to_ntriples(inferred))
    tmp.replace(path)
    for old in cache.glob("inferred-*.nt"):
        if old != path:
            old.unlink()
    return inferred, False
