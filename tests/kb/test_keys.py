"""What the build adds beside the reasoner (service/kb/keys.py), read from small graphs of an owner's own kinds."""

from __future__ import annotations

import rdflib
from rdflib.namespace import RDF, RDFS, XSD

from service.kb.keys import DATED_FROM, DATED_UNTIL, dated_spans
from service.vocab import PF

EX = rdflib.Namespace("https://example.org/id/")


def _p(name: str) -> rdflib.URIRef:
    return rdflib.URIRef(PF + name)


def _day(text: str) -> rdflib.Literal:
    return rdflib.Literal(text, datatype=XSD.date)


def _span(graph: rdflib.Graph, work: str) -> tuple[str | None, str | None]:
    def one(p: rdflib.URIRef) -> str | None:
        value = graph.value(EX[work], p)
        return None if value is None else str(value)

    return one(DATED_FROM), one(DATED_UNTIL)


def test_a_work_is_dated_to_its_end_else_its_publication_else_once_by_its_kind() -> None:
    """A recital (the owner's kind, dated once in their own files) counts on its day; an exhibition with an end
    to its end; a book to its publication; a garden with a tier and nothing to end it is still going."""
    owner = rdflib.Graph()
    owner.add((EX.Recital, RDFS.subClassOf, _p("Work")))
    owner.add((EX.Recital, _p("datedOnce"), rdflib.Literal(True)))
    data = rdflib.Graph()
    facts: dict[str, tuple[dict[str, str | int], rdflib.URIRef]] = {
        "Recital": ({"startDate": "2024-03-02"}, EX.Recital),
        "Show": ({"startDate": "2023-05-01", "endDate": "2023-09-30", "tier": 2}, _p("Work")),
        "Book": ({"startDate": "2022-01-01", "published": "2023-04-01", "tier": 2}, _p("Work")),
        "Garden": ({"startDate": "2021-06-01", "tier": 2}, _p("Work")),
        "Press": ({"startDate": "2024-01-01"}, _p("PressCoverage")),
        "Engine": ({"startDate": "2020-01-01", "activeMonth": "2020-02-01", "tier": 1}, _p("Work")),
    }
    for name, (values, kind) in facts.items():
        data.add((EX[name], RDF.type, kind))
        for p, v in values.items():
            data.add((EX[name], _p(p), rdflib.Literal(v) if isinstance(v, int) else _day(v)))
    spans = dated_spans(owner, data)
    assert _span(spans, "Recital") == ("2024-03-02", "2024-03-02")
    assert _span(spans, "Show") == ("2023-05-01", "2023-09-30")
    assert _span(spans, "Book") == ("2022-01-01", "2023-04-01")
    assert _span(spans, "Garden") == ("2021-06-01", None)
    assert _span(spans, "Press") == (None, None)  # no work of a list: no tier, nothing ends it
    assert _span(spans, "Engine") == (None, None)  # active by month: read from its months


def test_a_kind_is_dated_once_only_when_it_says_so() -> None:
    data = rdflib.Graph()
    data.add((EX.Recital, RDF.type, _p("Work")))
    data.add((EX.Recital, _p("tier"), rdflib.Literal(2)))
    data.add((EX.Recital, _p("startDate"), _day("2024-03-02")))
    assert _span(dated_spans(data), "Recital") == ("2024-03-02", None)  # still going
