"""SHACL validation of ontology + data with pySHACL; each violation located at the entity's file and line."""

from __future__ import annotations

import logging

import pyshacl
import rdflib

from service.errors import Problem
from service.kb.rdf import ParsedTurtle

_SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")


def check_shapes(
    ontology: ParsedTurtle, data: ParsedTurtle, shapes: rdflib.Graph, reported: set[tuple[str, str]] | None = None
) -> list[Problem]:
    """Violations of the shapes, each once; `reported`: (entity, property) pairs whose value was already found
    wrong, so a shape over that value, or over the entity as a whole (a key work without a key rank, when its
    tier was the mistake), says nothing more."""
    reported = reported or set()
    focus_reported = {s for s, _ in reported}
    combined = rdflib.Graph()
    for g in (ontology.graph, data.graph):
        for triple in g:
            combined.add(triple)
    # rdflib logs a traceback for every ill-typed literal; the shapes report those properly.
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
    # inplace: `combined` is ours and thrown away, so pySHACL need not copy it first (a second graph's memory)
    _, report, _ = pyshacl.validate(combined, shacl_graph=shapes, inference="none", advanced=True, inplace=True)
    problems: set[Problem] = set()
    for result in report.subjects(rdflib.RDF.type, _SH.ValidationResult):
        focus = str(report.value(result, _SH.focusNode))
        path_term = report.value(result, _SH.resultPath)
        if (focus, str(path_term)) in reported or (path_term is None and focus in focus_reported):
            continue
        value = report.value(result, _SH.value)
        message = str(report.value(result, _SH.resultMessage) or "violates a shape")
        where = data if focus in data.locations else ontology
        path, line = where.line_of(focus, str(path_term)) if path_term is not None else where.where(focus)
        detail = f" (value: {value})" if value is not None and str(value) != focus else ""
        problems.add(Problem(path or "data", line, "shape", f"{_short(focus)}: {message}{detail}"))
    return sorted(problems)


def _short(iri: str) -> str:
    return iri.rsplit("/", 1)[-1].rsplit("#", 1)[-1] or iri
