"""Reading the editor's Turtle: parse with exact error positions, and remember where each subject is written."""

from __future__ import annotations

import logging
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
    lines: dict[str, list[str]] = field(default_factory=dict)  # file -> its lines
    prefixes: dict[str, dict[str, str]] = field(default_factory=dict)  # file -> prefix -> namespace
    starts: dict[str, list[int]] = field(default_factory=dict)  # file -> lines where a subject starts

    def where(self, iri: str) -> tuple[str, int]:
        return self.locations.get(iri, ("", 0))

    def line_of(self, subject: str, *terms: str) -> tuple[str, int]:
        """Where a statement about `subject` mentions the first of `terms` it finds (an IRI, written as a
        prefixed name or in full, or any text): the line of the property, not of the entity."""
        path, start = self.where(subject)
        if not path:
            return path, start
        lines = self.lines.get(path, [])
        later = [n for n in self.starts.get(path, []) if n > start]
        end = later[0] if later else len(lines) + 1
        for term in terms:
            forms = [term] if "://" not in term else [f"<{term}>"] + [
                f"{p}:{term[len(ns):]}" for p, ns in self.prefixes.get(path, {}).items() if term.startswith(ns)
            ]
            for number in range(start, end):
                if any(_mentions(lines[number - 1], f) for f in forms):
                    return path, number
        return path, start


def parse_turtle(paths: list[Path]) -> ParsedTurtle:
    out = ParsedTurtle()
    # rdflib logs a traceback for every ill-typed literal ("2021-03"^^xsd:date); the checks report those.
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
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
        text = path.read_text(encoding="utf-8")
        out.lines[shown] = text.splitlines()
        out.prefixes[shown] = file_prefixes(text)
        subjects = _subject_lines(text)
        out.starts[shown] = sorted({line for _, line in subjects})
        for iri, line in subjects:
            out.locations.setdefault(iri, (shown, line))
    return out


def _mentions(line: str, form: str) -> bool:
    """A whole token of the line is `form` (so pf:implement is not found in pf:implements)."""
    at = line.find(form)
    while at >= 0:
        after = line[at + len(form) : at + len(form) + 1]
        before = line[at - 1 : at] if at else " "
        if not (after.isalnum() or after in "_-") and not (before.isalnum() or before in "_:"):
            return True
        at = line.find(form, at + 1)
    return False


def file_prefixes(text: str) -> dict[str, str]:
    """The prefixes a Turtle file declares: prefix -> namespace."""
    found = {}
    for line in text.splitlines():
        m = _PREFIX.match(line)
        if m:
            found[m.group(1) or ""] = m.group(2)
    return found


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
