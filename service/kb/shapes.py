"""SHACL validation of ontology + data with pySHACL; each violation located at the entity's file and line."""

from __future__ import annotations

import logging

import pyshacl
import rdflib

from service.errors import Problem
from service.kb.rdf import ParsedTurtle

_SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")


def check_shapes(ontology: ParsedTurtle, data: ParsedTurtle, shapes: rdflib.Graph) -> list[Problem]:
    combined = rdflib.Graph()
    for g in (ontology.graph, data.graph):
        for triple in g:
            combined.add(triple)
    # rdflib logs a traceback for every ill-typed literal; the shapes report those properly.
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
    _, report, _ = pyshacl.validate(combined, shacl_graph=shapes, inference="none", advanced=True)
    problems = []
    for result in report.subjects(rdflib.RDF.type, _SH.ValidationResult):
        focus = str(report.value(result, _SH.focusNode))
        value = report.value(result, _SH.value)
        message = str(report.value(result, _SH.resultMessage) or "violates a shape")
        path, line = data.where(focus) if focus in data.locations else ontology.where(focus)
        detail = f" (value: {value})" if value is not None and str(value) != focus else ""
        problems.append(Problem(path or "data", line, "shape", f"{_short(focus)}: {message}{detail}"))
    return problems


def _short(iri: str) -> str:
    return iri.rsplit("/", 1)[-1].rsplit("#", 1)[-1] or iri
