"""The values an owner writes, checked before the shapes: a tier is a bare integer 1, 2 or 3, a date is
"YYYY-MM-DD"^^xsd:date, a name is a plain string. Each mistake is reported once, at its own line, in words
that say how to write it; the shape and rule checks that would only repeat it are skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

import rdflib
from rdflib.namespace import RDFS, SKOS, XSD

from service.errors import Problem
from service.kb.rdf import PF, ParsedTurtle


def _p(name: str) -> rdflib.URIRef:
    return rdflib.URIRef(PF + name)


_INTEGERS = {_p("tier"), _p("keyRank")}
_DATES = {_p("startDate"), _p("endDate"), _p("published"), _p("activeMonth")}
_STRINGS = {RDFS.label, SKOS.altLabel, _p("shortLabel"), _p("description"), _p("roleTitle"), _p("venue"),
            _p("email"), _p("sourceFile")}  # fmt: skip


@dataclass
class Values:
    problems: list[Problem] = field(default_factory=list)
    reported: set[tuple[str, str]] = field(default_factory=set)  # (subject, property) already reported

    def subjects(self) -> set[str]:
        return {s for s, _ in self.reported}


def prefixed(term: rdflib.term.Node) -> str:
    """A term as validate names it: pf:tier, rdfs:label, skos:altLabel, or the whole IRI."""
    text = str(term)
    for ns, prefix in ((PF, "pf:"), (str(RDFS), "rdfs:"), (str(SKOS), "skos:")):
        if text.startswith(ns):
            return prefix + text[len(ns) :]
    return text


def _written(o: rdflib.Literal) -> str:
    if o.language:
        return f'"{o}"@{o.language}'
    if o.datatype is not None:
        return f'"{o}"^^{prefixed(o.datatype).replace(str(XSD), "xsd:")}'
    return f'"{o}"'


def check_values(data: ParsedTurtle) -> Values:
    out = Values()
    for s, p, o in sorted(data.graph, key=lambda t: (str(t[0]), str(t[1]), str(t[2]))):
        if not isinstance(o, rdflib.Literal):
            continue
        message = _problem(p, o)
        if message is None:
            continue
        path, line = data.line_of(str(s), str(p))
        local = str(s).rsplit("/", 1)[-1].rsplit("#", 1)[-1]
        out.problems.append(Problem(path or "data", line, "value", f"{local}: {message}"))
        out.reported.add((str(s), str(p)))
    return out


def _as_date(text: str) -> str | None:
    """The date a value most likely means, as valid xsd:date text: a year-month is its first day, a year its
    first day; None when it says no date."""
    found = re.fullmatch(r"\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?\s*", text)
    if found is None:
        return None
    year, month, day = int(found.group(1)), int(found.group(2) or 1), int(found.group(3) or 1)
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _problem(p: rdflib.term.Node, o: rdflib.Literal) -> str | None:
    name = prefixed(p)
    if p in _INTEGERS:
        if o.datatype != XSD.integer:
            return f"{name} is a bare integer ({name} 1), not {_written(o)}"
        if p == _p("tier") and o.value not in (1, 2, 3):
            return f"{name} is 1, 2 or 3 (1 key work, 2 project, 3 side work), not {o}"
        if p == _p("keyRank") and (not isinstance(o.value, int) or o.value < 1):
            return f"{name} is a positive integer (1 first), not {o}"
    elif p in _DATES:
        meant = _as_date(str(o))
        if o.datatype is None and not o.language and meant == str(o):
            return f'{name} {_written(o)} is a date: write it "{o}"^^xsd:date'
        if (o.datatype is None and not o.language) or o.datatype != XSD.date or o.ill_typed:
            hint = f' ("{meant}"^^xsd:date?)' if meant else ""
            if meant and len(str(o)) == 7:
                hint = f' (a month is its first day: "{meant}"^^xsd:date)'
            return f"{name} {_written(o)} is not a valid date: write \"YYYY-MM-DD\"^^xsd:date{hint}"
        if p == _p("activeMonth") and not str(o).endswith("-01"):
            return f"{name} {_written(o)} is the first day of a month (\"{str(o)[:8]}01\"^^xsd:date)"
    elif p in _STRINGS:
        if o.language:
            return f'{name} is a plain string: write "{o}" without @{o.language}'
        if o.datatype is not None and o.datatype != XSD.string:
            return f'{name} is a plain string: write "{o}" without ^^{prefixed(o.datatype)}'
    return None
