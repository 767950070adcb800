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
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pyoxigraph as ox

from service import sparql_safety, sparql_text
from service.errors import FolioError, Problem, display_path
from service.vocab import PF, XSD

if TYPE_CHECKING:
    from service.kb.store import AnyStore

PARAM_TYPES = ("iri", "string", "key", "date", "integer", "decimal", "boolean")
TEXT_TYPES = ("string", "key")  # filled as a plain literal: a key in lower case, as pf:nameKey holds names
_HEADER = re.compile(r"^#\s*(title|description|param)\s*:\s*(.*)$")
_PARSE_POSITION = re.compile(r"error at (\d+):(\d+)")
_EXPECTED = re.compile(r"\[[^\]]*\]|\"(?:[^\"\\]|\\.)*\"|[^,]+")  # a character class, a quoted token, or a word
_SAFE_URL = re.compile(r"^https?://[^/@\s]+(/\S*)?$")
ROW_CAP = 1000
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
    forbidden = [(t.line, t.text.upper()) for t in sparql_text.keywords(text) if t.text.upper() in _FORBIDDEN]
    forbidden += [(f.line, "SERVICE") for f in sparql_safety.service_keywords(text)]  # read as the parser reads it
    for line, word in sorted(set(forbidden)):
        bad(line, f"{word} is not allowed in a stored query (read-only, no remote calls)")
    if not forbidden:
        problems.extend(_parse_problems(q, shown))
    return q, problems


def _parse_problems(q: StoredQuery, shown: str) -> list[Problem]:
    """Parse by running on an empty store: pyoxigraph has no parse-only call, and this costs ~0.1 ms."""
    missing = sparql_text.undeclared_prefixes(q.text)
    if missing:
        prefix, line = missing[0]
        return [Problem(shown, line, "syntax", f"prefix {prefix}: is not declared: add PREFIX {prefix}: <...> "
                                               "at the top (the file must run unchanged at the console)")]  # fmt: skip
    try:
        ox.Store().query(q.text)
    except SyntaxError as e:
        line, message = syntax_error(q.text, str(e))
        return [Problem(shown, line, "syntax", message)]
    return []


class ParseError(NamedTuple):
    """A SPARQL syntax error as a person reads it: where (1-based line and column, None when unknown) and why."""

    line: int | None
    column: int | None
    reason: str


def parse_error(text: str, error: str) -> ParseError:
    """Oxigraph's syntax error ("error at 1:28: expected one of Prefix not found, ['%'], ...") read: the parser's
    own reasons ("Prefix not found", "IRI parsing failed") when it gives any, else the tokens it expected (its
    character classes left out), and what stands at the spot."""
    m = _PARSE_POSITION.search(error)
    if m is None:
        return ParseError(None, None, error.strip() or "syntax error")
    line, column = int(m.group(1)), int(m.group(2))
    expected = error[m.end() :].lstrip(": ").strip()
    expected = expected.removeprefix("expected one of ").removeprefix("expected ")
    items = [i.strip() for i in _EXPECTED.findall(expected) if i.strip()]
    own = [i for i in items if not i.startswith(("[", '"', "'")) and (" " in i or not i.isupper())]
    if own:
        reason = "; ".join(dict.fromkeys(own))
        if "Prefix not found" in own:
            name = _name_before(text, line, column)
            reason += f": {name} is not declared (add PREFIX {name} <...>)" if name else ""
        return ParseError(line, column, reason)
    tokens = [i for i in items if not i.startswith("[")]
    shown = ", ".join(tokens[:12]) + (" ..." if len(tokens) > 12 else "")
    at = _text_at(text, line, column)
    where = f"found {at!r}" if at else "found the end of the query"
    return ParseError(line, column, f"expected {'one of ' if len(tokens) > 1 else ''}{shown}; {where}" if tokens
                      else f"unexpected {at!r}" if at else "the query ended too soon")  # fmt: skip


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(row) + 1 for row in lines[: line - 1]) + column - 1


def _text_at(text: str, line: int, column: int) -> str:
    rest = text[_offset(text, line, column) :]
    return rest.split(None, 1)[0][:24] if rest.strip() else ""


def _name_before(text: str, line: int, column: int) -> str:
    """The prefix of the prefixed name that ends at the spot (`nope:` of `nope:p`)."""
    m = re.search(r"([A-Za-z][\w.-]*)?:[\w.-]*$", text[: _offset(text, line, column)])
    return (m.group(1) or "") + ":" if m else ""


def syntax_error(text: str, error: str) -> tuple[int, str]:
    """The line and the reason of a SPARQL syntax error as Oxigraph reports it ("error at 7:1: expected ..."): at
    the end of the text, the error is the last line's (an unclosed bracket), not the empty line after it."""
    found = parse_error(text, error)
    reason = found.reason
    if found.line is None or found.column is None:
        return 0, reason
    line, column = found.line, found.column
    lines = text.splitlines()
    offset = sum(len(row) + 1 for row in lines[: line - 1]) + column - 1
    if not text[offset:].strip():  # nothing after the position: the query ended too soon
        last = max((n for n, row in enumerate(lines, 1) if row.strip() and not row.lstrip().startswith("#")),
                   default=line)  # fmt: skip
        return last, f"the query ends too soon: {reason or 'it is incomplete'}"
    return line, f"{reason or 'syntax error'} (column {column})"


def load_catalog(paths: list[Path]) -> tuple[dict[str, StoredQuery], list[Problem]]:
    catalog: dict[str, StoredQuery] = {}
    problems: list[Problem] = []
    for path in paths:
        q, found = read_query(path)
        catalog[q.name] = q
        problems.extend(found)
    return catalog, problems


def example_values(query: StoredQuery, raw: Mapping[str, object], entity_base: str) -> dict[str, object]:
    """Example parameters as written in lexicon/query-examples.yaml, resolved: local names and pf:Name to IRIs."""
    out: dict[str, object] = {}
    for name, value in raw.items():
        param = query.params.get(name)
        if param is None:
            raise QueryError(f"{query.name}: the example names ${name}, which the query does not declare")
        if param.type == "iri" and isinstance(value, str) and not value.startswith(("http://", "https://")):
            out[name] = PF + value[3:] if value.startswith("pf:") else entity_base + value
        else:
            out[name] = value
    return out


class QueryError(FolioError):
    """A stored query was asked for that does not exist, or with a value it cannot take."""


class Cell(NamedTuple):
    """One value of a result row, with its label when the query projects `?xLabel` beside `?x`."""

    value: str
    kind: str  # "iri", "literal" or "bnode"
    datatype: str | None = None
    label: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "type": self.kind}
        if self.datatype:
            out["datatype"] = self.datatype
        if self.label is not None:
            out["label"] = self.label
        return out


@dataclass
class QueryRun:
    """What running a stored query gave: the exact text run, its rows, the time it took."""

    name: str
    file: str
    query: str
    columns: list[str]
    rows: list[dict[str, Cell]]
    ms: float
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "file": self.file,
            "query": self.query,
            "rows": len(self.rows),
            "truncated": self.truncated,
            "ms": round(self.ms, 3),
        }


class Catalog(Mapping[str, StoredQuery]):
    """The stored queries of a KB, with a store to run them on.

    `known_iri(iri)` says whether an IRI may be used as a parameter: the KB's own entities and terms.
    Any other IRI must be a plain http(s) URL without credentials.
    """

    def __init__(self, queries: dict[str, StoredQuery], store: AnyStore, known_iri: Callable[[str], bool]) -> None:
        self._queries = queries
        self._store = store
        self._known = known_iri
        self._runs: OrderedDict[tuple[str, int], QueryRun] = OrderedDict()
        self.cache_size = 0  # runs kept by filled text (the store does not change while it is served)

    def keep_runs(self, size: int) -> None:
        """Keep the last `size` runs: the same filled query is answered from memory, rows and all (its `ms`
        is the time of the run that made them). For serving only; a KB is read-only once built."""
        self.cache_size = size
        self._runs.clear()

    def __getitem__(self, name: str) -> StoredQuery:
        try:
            return self._queries[name]
        except KeyError:
            raise QueryError(f"no stored query named {name!r} (queries/{name}.rq)") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)

    def term(self, param: Param, value: object) -> str:
        """The value as a SPARQL term, serialized by pyoxigraph; raises QueryError if it cannot be one."""
        try:
            return str(_term(param, value, self._known))
        except (ValueError, TypeError, InvalidOperation) as e:
            raise QueryError(f"${param.name} ({param.type}): {e}") from None

    def fill(self, name: str, values: Mapping[str, object] | None = None) -> str:
        q = self[name]
        values = values or {}
        unknown = set(values) - set(q.params)
        if unknown:
            raise QueryError(f"{name}: no parameter {', '.join(sorted(unknown))}")
        terms: dict[str, str] = {}
        for pname, param in q.params.items():
            if pname in values and values[pname] is not None:
                terms[pname] = self.term(param, values[pname])
            elif not param.optional:
                raise QueryError(f"{name}: ${pname} is required")
        return sparql_text.substitute(q.text, terms)

    def run(self, name: str, values: Mapping[str, object] | None = None, *, row_cap: int = ROW_CAP) -> QueryRun:
        q = self[name]
        text = self.fill(name, values)
        if self.cache_size:
            kept = self._runs.get((text, row_cap))
            if kept is not None:
                self._runs.move_to_end((text, row_cap))
                return kept
        start = time.perf_counter()
        result = self._store.query(text, use_default_graph_as_union=True)
        if not isinstance(result, ox.QuerySolutions):
            raise QueryError(f"{name}: a stored query is a SELECT")
        columns = [v.value for v in result.variables]
        labelled = [(c, c + "Label") for c in columns if c + "Label" in columns]
        rows: list[dict[str, Cell]] = []
        truncated = False
        for solution in result:
            if len(rows) == row_cap:
                truncated = True
                break
            rows.append(_row(solution, columns, labelled))
        ms = (time.perf_counter() - start) * 1000
        run = QueryRun(q.name, f"queries/{q.name}.rq", text, columns, rows, ms, truncated)
        if self.cache_size:
            self._runs[(text, row_cap)] = run
            if len(self._runs) > self.cache_size:
                self._runs.popitem(last=False)
        return run


def name_key(name: str) -> str:
    """A name as a `key` parameter is filled, and as the build writes `pf:nameKey` (service/kb/keys.py)."""
    return name.lower()


def _term(param: Param, value: object, known: Callable[[str], bool]) -> ox.NamedNode | ox.Literal:
    kind = param.type
    if kind == "iri":
        iri = value.value if isinstance(value, ox.NamedNode) else value
        if not isinstance(iri, str):
            raise TypeError("an IRI is a string")
        if not known(iri) and not _SAFE_URL.match(iri):
            raise ValueError(f"{iri!r} is neither an entity of this KB nor an http(s) URL")
        return ox.NamedNode(iri)
    if kind in TEXT_TYPES:
        if not isinstance(value, str):
            raise TypeError("expected text")
        return ox.Literal(value if kind == "string" else name_key(value))
    if kind == "date":
        day = value if isinstance(value, date) else date.fromisoformat(str(value))
        return ox.Literal(day.isoformat(), datatype=ox.NamedNode(XSD + "date"))
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError("expected an integer")
        return ox.Literal(int(value))
    if kind == "decimal":
        return ox.Literal(str(Decimal(str(value))), datatype=ox.NamedNode(XSD + "decimal"))
    if kind == "boolean":
        if not isinstance(value, bool):
            raise TypeError("expected true or false")
        return ox.Literal(value)
    raise ValueError(f"unknown parameter type {kind!r}")


def _row(solution: ox.QuerySolution, columns: list[str], labelled: list[tuple[str, str]]) -> dict[str, Cell]:
    # tuple.__new__ makes each Cell without the NamedTuple constructor's keyword handling: this runs for every value
    # of every row a plan reads
    row: dict[str, Cell] = {}
    for name, term in zip(columns, solution, strict=True):
        kind = type(term)
        if kind is _LITERAL:
            row[name] = _cell(Cell, (term.value, "literal", term.datatype.value, None))
        elif kind is _IRI:
            row[name] = _cell(Cell, (term.value, "iri", None, None))
        elif term is not None:
            row[name] = _cell(Cell, (str(term.value), "bnode", None, None))
    for name, label_column in labelled:
        cell, label = row.get(name), row.get(label_column)
        if cell is not None and label is not None and cell.kind == "iri":
            row[name] = _cell(Cell, (cell.value, "iri", None, label.value))
    return row


_LITERAL, _IRI, _cell = ox.Literal, ox.NamedNode, tuple.__new__
