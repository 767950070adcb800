"""OWL 2 RL reasoning, keeping only the inferences an editor would otherwise have written.

Two reasoners give the same result; the setting REASONER picks one: `owlrl`, `reasonable`, or `auto` (the
default: `reasonable` when it is installed, else `owlrl`). Times are the build's reasoning step on this
machine (docs/PERFORMANCE.md):

* `owlrl`, pure Python, is the reference: 7–11 s on the demo (5.7k stated triples), 1.5 s on examples/mateo,
  and it grows faster than the data (about 140 s at ten times the demo).
* `reasonable` (Rust, PyPI `reasonable` 0.4.4): 0.5 s on the demo, 0.13 s on mateo, 6 s at ten times the demo.
  Three things make its result equal to owlrl's, which tests/test_reason_fast.py checks on both portfolios
  and on a small ontology that exercises every rule below:

  1. It returns every plain literal typed as xsd:string. In RDF 1.1 that is the same term, but rdflib tells
     `"x"` from `"x"^^xsd:string`; each literal is given back the form the input wrote it in (no rule here
     makes a new literal), and a triple counts as stated when it equals a stated one as an RDF 1.1 term.
  2. Of the schema rules (OWL 2 RL Table 9) it implements only subclass transitivity and scm-eqc1. Its closure
     lacks e.g. `pf:uses rdfs:domain schema:CreativeWork` (scm-dom1: the domain pf:Work, and pf:Work ⊑
     schema:CreativeWork), `pf:componentOf rdfs:subPropertyOf dcterms:isPartOf` (scm-spo) and the reversed
     `schema:Person owl:equivalentClass pf:Person` (scm-eqc2): 88 triples on the demo, and as many on mateo.
     `_schema_rules` is all of Table 9 (scm-cls … scm-uni, as owlrl writes them, with its guards against
     reflexive conclusions). It runs on the input before `reasonable`, and again on the closure until it adds
     nothing (a second round only when instance rules reach a schema triple, e.g. owl:sameAs between
     classes). The instance triples were equal without it: the scm rules are shortcuts of cax-sco, prp-dom …
  3. It lacks five instance rules: prp-spo2 (owl:propertyChainAxiom), prp-key (owl:hasKey), cls-maxc2 and
     cls-maxqc3/4 (owl:maxCardinality, owl:maxQualifiedCardinality) and cls-oo (owl:oneOf). The ontology uses
     none of them; should the inputs ever use one, `auto` runs owlrl instead (`_BEYOND_REASONABLE`), while
     REASONER=reasonable still runs `reasonable` and misses those rules' conclusions.

Both closures also hold noise Oxigraph refuses or nobody wants: literal subjects, reflexive owl:sameAs,
axioms about the RDF/OWL vocabulary itself, `x a owl:Thing`. Those are filtered. The result is cached by
the reasoner (name and version) and the digest of ontology + data, so a wiki-only or query-only change skips
reasoning and switching reasoners never reads the other one's result.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from collections.abc import Iterable, Iterator
from importlib.metadata import version
from pathlib import Path

import owlrl
import rdflib
from rdflib.namespace import OWL, RDF, RDFS, XSD

from service.config import setting
from service.kb.rdf import graph_to_ntriples

Node = rdflib.term.Node
Triple = tuple[Node, Node, Node]

REASONERS = ("owlrl", "reasonable")

_BUILTIN = (str(RDF), str(RDFS), str(OWL), str(XSD))
_TRIVIAL_TYPES = {OWL.Thing, RDFS.Resource, OWL.NamedIndividual, RDFS.Class, OWL.Class}
_REFLEXIVE = {OWL.sameAs, OWL.equivalentClass, OWL.equivalentProperty, RDFS.subClassOf, RDFS.subPropertyOf}
# The OWL 2 RL rules `reasonable` 0.4.4 does not implement are triggered by these predicates only.
_BEYOND_REASONABLE = {OWL.propertyChainAxiom, OWL.hasKey, OWL.maxCardinality, OWL.maxQualifiedCardinality, OWL.oneOf}
_PROPERTY_TYPES = {OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property}  # scm-op, scm-dp (owlrl adds Property)


def _useful(s: Node, p: Node, o: Node) -> bool:
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


# -- which reasoner ----------------------------------------------------------------------------------


def reasonable_installed() -> bool:
    return importlib.util.find_spec("reasonable") is not None


def reasoner_name(*graphs: rdflib.Graph) -> str:
    """The reasoner `infer` runs, `owlrl` or `reasonable`, as REASONER says.

    Given the input graphs, `auto` also answers `owlrl` when they use a construct `reasonable` lacks a rule for.
    """
    choice = setting("REASONER").strip().lower()
    if choice == "auto":
        if not reasonable_installed() or any(p in _BEYOND_REASONABLE for g in graphs for p in g.predicates()):
            return "owlrl"
        return "reasonable"
    if choice not in REASONERS:
        raise ValueError(f"REASONER is {choice!r}; it must be one of auto, {', '.join(REASONERS)}")
    if choice == "reasonable" and not reasonable_installed():
        raise RuntimeError("REASONER is 'reasonable' but the package is not installed: pip install reasonable")
    return choice


def _cache_tag(name: str) -> str:
    """The reasoner and its version, so an upgrade does not read the old version's result either."""
    return f"{name}{version(name)}"


# -- reasoning -----------------------------------------------------------------------------------------


def infer(ontology: rdflib.Graph, data: rdflib.Graph, reasoner: str | None = None) -> rdflib.Graph:
    """The triples OWL 2 RL adds to ontology + data, without the stated ones and without noise.

    `reasoner` is `owlrl` or `reasonable`; None means `reasoner_name(ontology, data)`.
    """
    name = reasoner or reasoner_name(ontology, data)
    if name not in REASONERS:
        raise ValueError(f"unknown reasoner {name!r}")
    inferred = rdflib.Graph()
    if name == "owlrl":
        for s, p, o in _owlrl_closure(ontology, data):
            if (s, p, o) in data or (s, p, o) in ontology:
                continue
            if _useful(s, p, o):
                inferred.add((s, p, o))
        return inferred
    stated = {canonical(t) for g in (ontology, data) for t in g}
    for t in _reasonable_closure(ontology, data):
        if canonical(t) not in stated and _useful(*t):
            inferred.add(t)
    return inferred


def _owlrl_closure(ontology: rdflib.Graph, data: rdflib.Graph) -> rdflib.Graph:
    closure = rdflib.Graph()
    for triple in ontology:
        closure.add(triple)
    for triple in data:
        closure.add(triple)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(closure)
    return closure


def canonical(triple: Triple) -> Triple:
    """The triple with `"x"^^xsd:string` written `"x"`: the same RDF 1.1 term, which rdflib tells apart."""
    s, p, o = triple
    if isinstance(o, rdflib.Literal) and o.datatype == XSD.string and not o.language:
        o = rdflib.Literal(str(o))
    return s, p, o


def _literal_key(lit: rdflib.Literal) -> tuple[str, str | None, str | None]:
    if lit.language:
        return str(lit), lit.language.lower(), None
    return str(lit), None, str(lit.datatype or XSD.string)


def _reasonable_closure(ontology: rdflib.Graph, data: rdflib.Graph) -> set[Triple]:
    """ontology + data + what `reasonable` infers, completed with the schema rules it lacks."""
    import reasonable  # noqa: PLC0415  # optional: imported only when chosen

    stated = [t for g in (ontology, data) for t in g]
    # Every literal of the closure comes from the input (no rule here makes new ones): give each its written form.
    written = {_literal_key(o): o for _, _, o in stated if isinstance(o, rdflib.Literal)}

    def restored(triples: Iterable[Triple]) -> Iterator[Triple]:
        for s, p, o in triples:
            yield s, p, (written.get(_literal_key(o), o) if isinstance(o, rdflib.Literal) else o)

    # The schema rules go first, so one reason() usually suffices; the loop is for the rare schema triple
    # only instance rules reach (through owl:sameAs between classes, say). Reflexive ones (c ⊑ c) the schema
    # rules use but make again each time, and reasonable draws nothing from them: they are not passed on.
    # Functional and inverse-functional properties are kept from `reasonable`, which joins every pair of such a
    # property's triples (a thousand works of tier 2 make a million pairs: 22 GB at 100x the demo); their rules
    # (prp-fp, prp-ifp) run here instead, grouping values by subject (`_keyed_rules`).
    hidden = [t for t in stated if t[1] == RDF.type and t[2] in _KEYED_TYPES]
    given = [t for t in stated if not (t[1] == RDF.type and t[2] in _KEYED_TYPES)]
    r = reasonable.PyReasoner()
    first = set(stated)
    r.from_graph(given + [t for t in _schema_rules(first) | _keyed_rules(first) if t[0] != t[2]])
    closure = set(restored(r.reason())) | set(hidden)
    while extra := {t for t in _schema_rules(closure) | _keyed_rules(closure) if t[0] != t[2]} - closure:
        closure |= extra
        r.from_graph(list(extra))  # appends; the next reason() is incremental
        closure |= set(restored(r.reason()))
    return closure


_KEYED_TYPES = frozenset({OWL.FunctionalProperty, OWL.InverseFunctionalProperty})


def _keyed_rules(triples: set[Triple]) -> set[Triple]:
    """prp-fp and prp-ifp: two values of a functional property for one subject are the same (owl:sameAs), as are
    two subjects of one value of an inverse-functional property; linear, by grouping."""
    functional = {s for s, p, o in triples if p == RDF.type and o == OWL.FunctionalProperty}
    inverse = {s for s, p, o in triples if p == RDF.type and o == OWL.InverseFunctionalProperty}
    groups: dict[tuple[Node, Node, bool], set[Node]] = defaultdict(set)
    for s, p, o in triples:
        if p in functional:
            groups[(s, p, True)].add(o)
        if p in inverse:
            groups[(o, p, False)].add(s)
    return {(a, OWL.sameAs, b) for same in groups.values() if len(same) > 1 for a in same for b in same if a != b}


SC, SPO, EQC, EQP = RDFS.subClassOf, RDFS.subPropertyOf, OWL.equivalentClass, OWL.equivalentProperty
HV, SVF, AVF, ON = OWL.hasValue, OWL.someValuesFrom, OWL.allValuesFrom, OWL.onProperty
_SCHEMA_PREDICATES = frozenset({RDF.type, SC, SPO, EQC, EQP, RDFS.domain, RDFS.range, HV, SVF, AVF, ON,
                                OWL.intersectionOf, OWL.unionOf, RDF.first, RDF.rest})  # fmt: skip
_SCHEMA_TYPES = frozenset({OWL.Class, *_PROPERTY_TYPES})


def _schema_rules(triples: set[Triple]) -> set[Triple]:
    """What OWL 2 RL Table 9 (scm-*) adds to `triples`, to a fixpoint, as owlrl writes the rules."""
    schema = {t for t in triples if t[1] in _SCHEMA_PREDICATES and (t[1] != RDF.type or t[2] in _SCHEMA_TYPES)}
    out = set(schema)
    while new := _schema_step(out) - out:
        out |= new
    return out - schema - triples


def _schema_step(triples: set[Triple]) -> set[Triple]:
    """One round of the scm-* rules over the schema triples."""
    by: dict[Node, list[tuple[Node, Node]]] = defaultdict(list)
    for s, p, o in triples:
        by[p].append((s, o))
    sup: dict[Node, set[Node]] = defaultdict(set)  # class -> its superclasses
    for c1, c2 in by[SC]:
        sup[c1].add(c2)
    supp: dict[Node, set[Node]] = defaultdict(set)  # property -> its superproperties
    subp: dict[Node, set[Node]] = defaultdict(set)  # property -> its subproperties
    for p1, p2 in by[SPO]:
        supp[p1].add(p2)
        subp[p2].add(p1)
    on: dict[Node, set[Node]] = defaultdict(set)  # restriction -> its owl:onProperty
    for c, p in by[ON]:
        on[c].add(p)
    first, rest = dict(by[RDF.first]), dict(by[RDF.rest])

    def members(head: Node) -> Iterator[Node]:
        seen: set[Node] = set()
        while head in first and head not in seen:
            seen.add(head)
            yield first[head]
            head = rest.get(head, RDF.nil)

    out: set[Triple] = set()
    for x, kind in by[RDF.type]:
        if kind == OWL.Class:  # scm-cls
            out |= {(x, SC, x), (x, EQC, x), (x, SC, OWL.Thing), (OWL.Nothing, SC, x)}
        else:  # scm-op, scm-dp
            out |= {(x, SPO, x), (x, EQP, x)}
    for c1, c2 in by[SC]:
        if c1 != c2:
            out |= {(c1, SC, c3) for c3 in sup[c2] if c3 != c1}  # scm-sco
        if c1 in sup[c2]:
            out.add((c1, EQC, c2))  # scm-eqc2
    for c1, c2 in by[EQC]:  # scm-eqc1
        if c1 != c2:
            out |= {(c1, SC, c2), (c2, SC, c1)}
    for p1, p2 in by[SPO]:
        if p1 != p2:
            out |= {(p1, SPO, p3) for p3 in supp[p2] if p3 != p1}  # scm-spo
        if p1 in supp[p2]:
            out.add((p1, EQP, p2))  # scm-eqp2
    for p1, p2 in by[EQP]:  # scm-eqp1
        if p1 != p2:
            out |= {(p1, SPO, p2), (p2, SPO, p1)}
    for axis in (RDFS.domain, RDFS.range):
        for p, c in by[axis]:
            out |= {(p, axis, c2) for c2 in sup[c] if c2 != c}  # scm-dom1, scm-rng1
            out |= {(p1, axis, c) for p1 in subp[p] if p1 != p}  # scm-dom2, scm-rng2
    for kind in (HV, SVF, AVF):
        holders: dict[Node, set[Node]] = defaultdict(set)  # filler (value or class) -> its restrictions
        for c, y in by[kind]:
            holders[y].add(c)
        for c1, y in by[kind]:
            for c2 in holders[y]:  # scm-hv, scm-svf2, scm-avf2: the same filler, c1's property ⊑ c2's
                if any(p2 in supp[p1] for p1 in on[c1] for p2 in on[c2]):
                    out.add((c2, SC, c1) if kind == AVF else (c1, SC, c2))
            if kind != HV:  # scm-svf1, scm-avf1: the same property, c1's filler ⊑ c2's
                out |= {(c1, SC, c2) for y2 in sup[y] for c2 in holders[y2] if on[c1] & on[c2]}
    for c, head in by[OWL.intersectionOf]:  # scm-int
        out |= {(c, SC, ci) for ci in members(head)}
    for c, head in by[OWL.unionOf]:  # scm-uni
        out |= {(ci, SC, c) for ci in members(head)}
    return out


def infer_cached(ontology: rdflib.Graph, data: rdflib.Graph, cache: Path, key: str) -> tuple[rdflib.Graph, bool]:
    """Inferred triples, read from `cache/inferred-REASONER-KEY.nt` when present; returns (graph, was_cached)."""
    name = reasoner_name(ontology, data)
    path = cache / f"inferred-{_cache_tag(name)}-{key}.nt"
    if path.exists():
        return rdflib.Graph().parse(path, format="nt"), True
    inferred = infer(ontology, data, name)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(graph_to_ntriples(inferred))
    tmp.replace(path)
    for old in cache.glob("inferred-*.nt"):
        if old != path:
            old.unlink()
    return inferred, False
