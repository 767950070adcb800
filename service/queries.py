"""The catalog of stored SPARQL queries (queries/*.rq): load, check, and fill.

A file is plain SPARQL 1.1 with a comment header:

    # title: Works that use a skill
    # description: every work whose stack includes the skill, key work first
    # param: skill  iri   the skill to look up

Parameters are the query's `$name` variables. Filling replaces each `$name` token by a term serialized
by pyoxigraph, so the text shown is the text run and user text is never pasted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from service import sparql_text
from service.errors import Problem, display_path

PARAM_TYPES = ("iri", "string", "date", "integer", "decimal", "boolean")
_HEADER = re.compile(r"^#\s*(title|description|param)\s*:\s*(.*)$")
_PARSE_POSITION = re.compile(r"error at (\d+):(\d+)")
_FORBIDDEN = {"SERVICE", "LOAD", "INSERT", "DELETE", "DROP", "CLEAR", "CREATE", "COPY", "MOVE", "ADD"}


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    optional: bool
    help: str
    line: int


@dataclass
class StoredQuery:
    name: str
    path: str
    text: str
    title: str = ""
    description: str = ""
    params: dict[str, Param] = field(default_factory=dict)


def read_query(path: Path) -> tuple[StoredQuery, list[Problem]]:
    shown = display_path(path)
    text = path.read_text(encoding="utf-8")
    q = StoredQuery(name=path.stem, path=shown, text=text)
    problems: list[Problem] = []

    def bad(line: int, message: str, check: str = "query") -> None:
        problems.append(Problem(shown, line, check, message))

    for number, row in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(row.strip())
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "title":
            q.title = value
        elif key == "description":
            q.description = (q.description + " " + value).strip()
        else:
            parts = value.split(None, 2)
            if len(parts) < 2:
                bad(number, "a param line is `# param: NAME TYPE help text`")
                continue
            name, ptype = parts[0].lstrip("$"), parts[1].lower()
            rest = parts[2] if len(parts) > 2 else ""
            if ptype not in PARAM_TYPES:
                bad(number, f"parameter ${name} has unknown type {ptype!r} (known: {', '.join(PARAM_TYPES)})")
            if name in q.params:
                bad(number, f"parameter ${name} is declared twice")
            q.params[name] = Param(name, ptype, rest.lower().startswith("optional"), rest, number)
    if not q.title:
        bad(1, "the header needs a `# title:` line")
    used = sparql_text.params(text)
    for name, first in used.items():
        if name not in q.params:
            bad(first, f"${name} is used but not declared in the header (# param: {name} TYPE help)")
    for name, p in q.params.items():
        if name not in used:
            bad(p.line, f"${name} is declared but never used")
    for name, at in sparql_text.projected_params(text):
        bad(at, f"${name} is a parameter and cannot stand in the projection (SELECT clause)")
    forbidden = [t for t in sparql_text.keywords(text) if t.text.upper() in _FORBIDDEN]
    for t in forbidden:
        bad(t.line, f"{t.text.upper()} is not allowed in a stored query (read-only, no remote calls)")
    if not forbidden:
        problems.extend(_parse_problems(q, shown))
    return q, problems


def _parse_problems(q: StoredQuery, shown: str) -> list[Problem]:
    """Parse by running on an empty store: pyoxigraph has no parse-only call, and this costs ~0.1 ms."""
    try:
        ox.Store().query(q.text)
    except SyntaxError as e:
        m = _PARSE_POSITION.search(str(e))
        line = int(m.group(1)) if m else 0
        message = str(e).split(": expected", 1)[0]
        return [Problem(shown, line, "syntax", message)]
    return []


def load_catalog(paths: list[Path]) -> tuple[dict[str, StoredQuery], list[Problem]]:
    catalog: dict[str, StoredQuery] = {}
    problems: list[Problem] = []
    for path in paths:
        q, found = read_query(path)
        catalog[q.name] = q
        problems.extend(found)
    return catalog, problems
