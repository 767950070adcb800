"""Reading the editor's Turtle: parse with exact error positions, and remember where each subject is written."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
import rdflib

from service.errors import Problem, display_path
from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY, PF

__all__ = ["GRAPH_DATA", "GRAPH_INFERRED", "GRAPH_ONTOLOGY", "PF", "ParsedTurtle", "graph_to_ntriples", "parse_turtle"]


_PREFIX = re.compile(r"^\s*@?prefix\s+([A-Za-z][\w-]*)?:\s*<([^>]*)>", re.IGNORECASE)
_SUBJECT = re.compile(r"^(<[^>\s]+>|[A-Za-z][\w-]*:[\w.-]*|:[\w.-]+)(?=\s)")


@dataclass
class ParsedTurtle:
    """Triples of a set of files, the problems met, and where each subject first appears."""

    graph: rdflib.Graph = field(default_factory=rdflib.Graph)
    problems: list[Problem] = field(default_factory=list)
    locations: dict[str, tuple[str, int]] = field(default_factory=dict)
    per_file: dict[str, int] = field(default_factory=dict)

    def where(self, iri: str) -> tuple[str, int]:
        return self.locations.get(iri, ("", 0))


def parse_turtle(paths: list[Path]) -> ParsedTurtle:
    out = ParsedTurtle()
    for path in paths:
        shown = display_path(path)
        try:
            # pyoxigraph reports the exact line and column of a syntax error, and refuses invalid IRIs.
            for _ in ox.parse(path=str(path), format=ox.RdfFormat.TURTLE):
                pass
        except SyntaxError as e:
            out.problems.append(Problem(shown, e.lineno or 0, "syntax", _syntax_message(e)))
            continue
        before = len(out.graph)
        try:
            out.graph.parse(path, format="turtle")
        except Exception as e:  # rdflib raises several types; every one is a syntax problem here
            out.problems.append(Problem(shown, 0, "syntax", str(e).splitlines()[0]))
            continue
        out.per_file[shown] = len(out.graph) - before
        for iri, line in _subject_lines(path.read_text(encoding="utf-8")):
            out.locations.setdefault(iri, (shown, line))
    return out


def _syntax_message(e: SyntaxError) -> str:
    return str(e.msg) if e.msg else str(e)


def _subject_lines(text: str) -> list[tuple[str, int]]:
    prefixes: dict[str, str] = {}
    found: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = _PREFIX.match(line)
        if m:
            prefixes[m.group(1) or ""] = m.group(2)
            continue
        m = _SUBJECT.match(line)
        if not m:
            continue
        token = m.group(1)
        if token.startswith("<"):
            found.append((token[1:-1], number))
        else:
            prefix, _, local = token.partition(":")
            if prefix in prefixes:
                found.append((prefixes[prefix] + local, number))
    return found


def graph_to_ntriples(graph: rdflib.Graph) -> bytes:
    data = graph.serialize(format="nt", encoding="utf-8")
    return data if isinstance(data, bytes) else data.encode()
