"""The fast reasoner (`reasonable`) infers exactly what the reference (owlrl) infers, after the noise filter.

Both closures are compared with each literal in its RDF 1.1 form (`"x"^^xsd:string` is `"x"`), on the demo
and on the second portfolio as the build reads them, and on a small ontology that exercises every schema rule
`reasonable` lacks (service/kb/reason.py adds those).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib

from service.kb.rdf import parse_turtle
from service.kb.reason import canonical, infer, infer_cached, reasoner_name
from service.kb.sources import Sources
from tests.conftest import MATEO, ROOT

Triple = tuple[rdflib.term.Node, rdflib.term.Node, rdflib.term.Node]


def _inputs(data: Path) -> tuple[rdflib.Graph, rdflib.Graph]:
    """Ontology and data graphs as check_inputs parses them for the build."""
    sources = Sources(ROOT / "ontology", data, ROOT / "wiki", ROOT / "queries").resolved()
    ontology, stated = parse_turtle(sources.ontology_files()), parse_turtle(sources.data_files())
    assert not ontology.problems and not stated.problems
    return ontology.graph, stated.graph


def _closure(ontology: rdflib.Graph, data: rdflib.Graph, reasoner: str) -> set[Triple]:
    return {canonical(t) for t in infer(ontology, data, reasoner)}


def _assert_same(ontology: rdflib.Graph, data: rdflib.Graph) -> rdflib.Graph:
    """Both reasoners' closures are equal; returns the fast one as inferred."""
    fast = infer(ontology, data, "reasonable")
    reference = _closure(ontology, data, "owlrl")
    mine = {canonical(t) for t in fast}
    only_reference = sorted(" ".join(n.n3() for n in t) for t in reference - mine)
    only_fast = sorted(" ".join(n.n3() for n in t) for t in mine - reference)
    assert only_reference == [] and only_fast == []
    assert len(fast) == len(reference)
    # Literals come back as the input wrote them, not retyped as xsd:string.
    written = {o for g in (ontology, data) for o in g.objects() if isinstance(o, rdflib.Literal)}
    assert {o for o in fast.objects() if isinstance(o, rdflib.Literal)} <= written
    return fast


@pytest.mark.slow
@pytest.mark.parametrize("data", [ROOT / "data", MATEO / "data"], ids=["demo", "mateo"])
def test_fast_reasoner_gives_the_reference_closure(data: Path) -> None:
    ontology, stated = _inputs(data)
    fast = _assert_same(ontology, stated)
    assert len(fast) > 1000  # inverses, transitive and symmetric properties, subclass types, schema closure


SCHEMA = """
@prefix : <urn:t#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

:A a owl:Class ; rdfs:subClassOf :B .
:B a owl:Class ; rdfs:subClassOf :C .
:C a owl:Class ; rdfs:subClassOf :A .
:D owl:equivalentClass :E .
:p a owl:ObjectProperty ; rdfs:subPropertyOf :q ; rdfs:domain :A ; rdfs:range :D .
:q a owl:ObjectProperty ; rdfs:subPropertyOf :r .
:r a owl:ObjectProperty ; rdfs:domain :F .
:F rdfs:subClassOf :G .
:s owl:equivalentProperty :t .
:t a owl:DatatypeProperty ; rdfs:range xsd:string .
:u rdfs:subPropertyOf :v .
:v rdfs:subPropertyOf :u .
:HasRed owl:equivalentClass [ a owl:Restriction ; owl:onProperty :p ; owl:hasValue :red ] .
:HasRedQ owl:equivalentClass [ a owl:Restriction ; owl:onProperty :q ; owl:hasValue :red ] .
:SomeF owl:equivalentClass [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :F ] .
:SomeG owl:equivalentClass [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :G ] .
:SomeFq owl:equivalentClass [ a owl:Restriction ; owl:onProperty :q ; owl:someValuesFrom :F ] .
:OnlyF owl:equivalentClass [ a owl:Restriction ; owl:onProperty :p ; owl:allValuesFrom :F ] .
:OnlyG owl:equivalentClass [ a owl:Restriction ; owl:onProperty :p ; owl:allValuesFrom :G ] .
:OnlyFq owl:equivalentClass [ a owl:Restriction ; owl:onProperty :q ; owl:allValuesFrom :F ] .
:AD owl:equivalentClass [ owl:intersectionOf ( :A :D ) ] .
:AorF owl:equivalentClass [ owl:unionOf ( :A :F ) ] .
:w rdfs:domain :K .
:K owl:sameAs :L .
:L rdfs:subClassOf :M .
"""

DATA = """
@prefix : <urn:t#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

:x :p :y ; :p :red ; :u :w ; :w :z .
:y a :D .
:x :t "plain" , "typed"^^xsd:string ; :s "hola"@es-ES , "42"^^xsd:integer .
"""


def test_fast_reasoner_adds_the_schema_rules_it_lacks() -> None:
    ontology = rdflib.Graph().parse(data=SCHEMA, format="turtle")
    data = rdflib.Graph().parse(data=DATA, format="turtle")
    fast = _assert_same(ontology, data)
    t = rdflib.Namespace("urn:t#")
    rdfs, owl = rdflib.RDFS, rdflib.OWL
    for triple in [
        (t.A, owl.equivalentClass, t.B),  # scm-eqc2 over a cycle
        (t.p, rdfs.subPropertyOf, t.r),  # scm-spo
        (t.u, owl.equivalentProperty, t.v),  # scm-eqp2
        (t.p, rdfs.domain, t.C),  # scm-dom1
        (t.p, rdfs.domain, t.F),  # scm-dom2
        (t.p, rdfs.range, t.E),  # scm-rng1
        (t.HasRed, rdfs.subClassOf, t.HasRedQ),  # scm-hv
        (t.SomeF, rdfs.subClassOf, t.SomeFq),  # scm-svf2
        (t.SomeF, rdfs.subClassOf, t.SomeG),  # scm-svf1
        (t.OnlyF, rdfs.subClassOf, t.OnlyG),  # scm-avf1
        (t.OnlyFq, rdfs.subClassOf, t.OnlyF),  # scm-avf2
        (t.AD, rdfs.subClassOf, t.D),  # scm-int
        (t.F, rdfs.subClassOf, t.AorF),  # scm-uni
        (t.w, rdfs.domain, t.M),  # scm-dom1 after eq-rep-o, in a second round
    ]:
        assert triple in fast, triple


KEYED = """
@prefix : <urn:t#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
:mother a owl:ObjectProperty , owl:FunctionalProperty .
:tag a owl:InverseFunctionalProperty .
:rank a owl:DatatypeProperty , owl:FunctionalProperty .
:kid :mother :ann , :anna .
:ann :knows :bob .
:one :tag :t1 . :two :tag :t1 .
:kid :rank 1 . :sib :rank 1 . :other :rank 2 .
"""


def test_functional_properties_are_reasoned_by_grouping_with_the_same_result() -> None:
    """prp-fp and prp-ifp run in Python (reasonable would join every pair of a functional property's triples),
    and both reasoners agree, sameAs consequences included."""
    data = rdflib.Graph().parse(data=KEYED, format="turtle")
    fast = _assert_same(rdflib.Graph(), data)
    t, owl = rdflib.Namespace("urn:t#"), rdflib.OWL
    assert (t.ann, owl.sameAs, t.anna) in fast and (t.anna, t.knows, t.bob) in fast  # prp-fp, then eq-rep-s
    assert (t.one, owl.sameAs, t.two) in fast  # prp-ifp
    assert not any(p == owl.sameAs and {s, o} <= {t.kid, t.sib, t.other} for s, p, o in fast)  # shared values alone


def test_auto_falls_back_to_owlrl_for_rules_reasonable_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REASONER", "auto")
    ontology = rdflib.Graph().parse(data=SCHEMA, format="turtle")
    assert reasoner_name() == reasoner_name(ontology) == "reasonable"
    chain = rdflib.Graph().parse(data="<urn:t#g> <http://www.w3.org/2002/07/owl#propertyChainAxiom> () .")
    assert reasoner_name(ontology, chain) == "owlrl"
    monkeypatch.setenv("REASONER", "reasonable")
    assert reasoner_name(ontology, chain) == "reasonable"  # asked for by name: no fallback
    monkeypatch.setenv("REASONER", "hermit")
    with pytest.raises(ValueError, match="REASONER"):
        reasoner_name()


def test_each_reasoner_has_its_own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ontology = rdflib.Graph().parse(data=SCHEMA, format="turtle")
    data = rdflib.Graph().parse(data=DATA, format="turtle")
    results = {}
    for name in ("owlrl", "reasonable"):
        monkeypatch.setenv("REASONER", name)
        first, cached = infer_cached(ontology, data, tmp_path, "k")
        assert not cached  # the other reasoner's file is not read
        again, cached = infer_cached(ontology, data, tmp_path, "k")
        assert cached and len(again) == len(first)
        (path,) = tmp_path.glob("inferred-*.nt")  # the other reasoner's file is gone
        assert path.name.startswith(f"inferred-{name}")
        results[name] = {canonical(x) for x in again}
    assert results["owlrl"] == results["reasonable"]
