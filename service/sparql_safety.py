"""What a public, read-only endpoint refuses before running anything: SERVICE, updates and LOAD.

pyoxigraph fetches `SERVICE <url>` over HTTP from inside a query, with no switch to turn that off. This check
is the first of two walls (the second: the processes that run queries have no network, service/sparql/
sandbox.py), and it reads a query the way Oxigraph's parser does (spargebra 0.4, a PEG grammar):

- \\uXXXX escapes are decoded only inside strings and IRIs, never before parsing: `SERV\\u0049CE` is no keyword,
  and `"\\u005C"` is a string holding a backslash, not an unclosed string;
- a comment runs from `#` to the end of the line, which a lone carriage return also ends;
- a prefixed name's local part may hold escapes (`e:a\\#b`, `e:a\\'`), which start neither a comment nor a string;
- `<` starts an IRI only where the grammar expects one (`FILTER(1<2)` is a comparison): inside parentheses,
  where a `<` could be either, both readings are followed; outside them it is always an IRI;
- a `?` followed by a name is always a variable (Oxigraph reads a path's "zero or one" only before anything else);
- a keyword needs no space after it (`SERVICE<http://x>`, and even `SERVICEex:a` reads as SERVICE then `ex:a`),
  so any bare word that begins with SERVICE is one.

Every reading the grammar allows is lexed (a small search over positions, each visited once), and the query
is refused when any reading holds a SERVICE. tests/test_query_safety.py runs generated and mutated queries
against a store while a loopback listener counts fetches: whatever this lets through fetches nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

UPDATE = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}
MAX_DEPTH = 128  # brackets nested deeper are refused before parsing: Oxigraph's parser overflows its stack

_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS = f"{_PN_CHARS_BASE}_0-9\u00b7\u0300-\u036f\u203f-\u2040\\-"
_PLX = r"(?:%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%])"
_LOCAL = rf"(?:[{_PN_CHARS}:]|{_PLX}|\.(?=[{_PN_CHARS}:.]|{_PLX}))*"
_TOKEN = re.compile(
    rf"""
    (?P<space>[\x20\t\r\n]+)
  | (?P<comment>\#[^\r\n]*)
  | (?P<string>'''(?:'{{0,2}}(?:[^'\\]|\\.))*'''
              |\"\"\"(?:"{{0,2}}(?:[^"\\]|\\.))*\"\"\"
              |'(?:[^'\\\r\n]|\\.)*'
              |"(?:[^"\\\r\n]|\\.)*")
  | (?P<var>[?$][{_PN_CHARS_BASE}_0-9][{_PN_CHARS_BASE}_0-9\u00b7\u0300-\u036f\u203f-\u2040]*)
  | (?P<bnode>_:[{_PN_CHARS_BASE}_0-9](?:[{_PN_CHARS}]|\.(?=[{_PN_CHARS}]))*)
  | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<word>(?:[{_PN_CHARS_BASE}](?:[{_PN_CHARS}]|\.(?=[{_PN_CHARS}]))*)?:{_LOCAL}
            |[{_PN_CHARS_BASE}][{_PN_CHARS_BASE}_0-9]*)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
# Where the grammar could read an IRI: a `<` up to the next `>` with no space inside. A superset of what
# Oxigraph accepts (it also checks the IRI), so every real reading is among those followed.
_IRI = re.compile(r"<[^>\x00-\x20]*>")
_ONE_READING = re.compile(f"(?P<iri>{_IRI.pattern})|{_TOKEN.pattern}", re.VERBOSE | re.DOTALL)  # an IRI first
_SERVICE = re.compile(r"(?i)service")
_FROM = re.compile(r"(?i)from")
_MAY_UPDATE = re.compile("(?i)" + "|".join(sorted(UPDATE)))  # the letters of some update keyword, anywhere


class Refused(ValueError):
    """A query the endpoint will not run, with the reason for the person who sent it (and the HTTP status)."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Found:
    word: str
    line: int


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at) + 1


def service_keywords(text: str) -> list[Found]:
    """Every place where some reading of the query has the SERVICE keyword. A reading is a position and a
    depth of parentheses: a `<` is a comparison only inside parentheses (FILTER, BIND, an expression), so only
    there are both readings followed. Raises Refused when the readings are too many to follow."""
    found: dict[int, Found] = {}
    todo, seen = [(0, 0)], {(0, 0)}
    budget = 64 * len(text) + 1000
    while todo:
        at, level = todo.pop()
        budget -= 1
        if budget < 0:
            raise Refused("The query is too tangled to check safely; simplify its brackets.", status=400)
        if at >= len(text):
            continue
        nexts: list[tuple[int, int]] = []
        if text[at] == "<":
            iri = _IRI.match(text, at)
            if iri is not None:
                nexts.append((iri.end(), level))  # an IRI here...
            if iri is None or level > 0:
                nexts.append((at + 1, level))  # ...or, inside an expression, a comparison
        else:
            m = _TOKEN.match(text, at)
            assert m is not None  # `other` matches any character
            kind, token = m.lastgroup, m.group()
            if kind == "word" and _SERVICE.match(token):
                found.setdefault(at, Found(token, _line(text, at)))
            if kind == "other" and token in "()":
                level = min(MAX_DEPTH + 1, max(0, level + (1 if token == "(" else -1)))
            nexts.append((m.end(), level))
        for state in nexts:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return [found[k] for k in sorted(found)]


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """One reading of the query (IRIs where they can be), for the checks that need no search."""
    return [(m.lastgroup or "other", m.group(), m.start()) for m in _ONE_READING.finditer(text)]


def depth(text: str) -> tuple[int, int]:
    """The deepest nesting of brackets outside strings, IRIs and comments, and the offset where it is reached."""
    deepest, where, level = 0, 0, 0
    for kind, token, at in _tokens(text):
        if kind != "other":
            continue
        if token in "({[":
            level += 1
            if level > deepest:
                deepest, where = level, at
        elif token in ")}]":
            level -= 1
    return deepest, where


class _Memo:
    """Outcomes of a pure function of a query's text, kept for the last `size` texts by a digest of the text (a
    client's query repeats; keeping the texts themselves could hold megabytes)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[bytes, Any] = OrderedDict()

    def get(self, text: str, compute: Callable[[str], T]) -> T:
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        if key in self._kept:
            self._kept.move_to_end(key)
            found: T = self._kept[key]
            return found
        value = compute(text)
        self._kept[key] = value
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value


_checked, _dataset_named = _Memo(4096), _Memo(4096)
# the functions whose value changes from one run to the next, as a word anywhere in the text (in a string, an IRI
# or a comment too: a query read wrongly here is only one not kept, never one kept wrongly)
_UNREPEATABLE = re.compile(r"(?i)(?<![A-Za-z0-9_])(?:NOW|RAND|UUID|STRUUID|BNODE)(?![A-Za-z0-9_])")


def names_its_dataset(text: str) -> bool:
    """Whether the query says which graphs it reads (FROM or FROM NAMED): then the store's union default graph
    must not be imposed on it. (A text without the letters is not lexed.)"""
    return _FROM.search(text) is not None and _dataset_named.get(text, _names_its_dataset)


def _names_its_dataset(text: str) -> bool:
    return any(kind == "word" and token.upper() == "FROM" for kind, token, _ in _tokens(text))


def repeatable(text: str) -> bool:
    """Whether running the query again on the same store gives the same answer: it calls none of the functions
    whose value changes between runs (a blank node in a CONSTRUCT template is a new one each time, but the graph
    is the same)."""
    lower = text.lower()
    if "now" not in lower and "rand" not in lower and "uuid" not in lower and "bnode" not in lower:
        return True  # (the letters are not there: no need for the slower search for them as words)
    return _UNREPEATABLE.search(text) is None


def check(query: str) -> None:
    """Raise Refused for SERVICE in any reading, an update or LOAD, or brackets nested too deep to parse. The
    verdict on a text is kept: the same query asked again is not lexed again."""
    refused = _checked.get(query, _verdict)
    if refused is not None:
        raise Refused(*refused)


def _verdict(query: str) -> tuple[str, int] | None:
    """Each check lexes the text only when it could find something: no reading holds SERVICE, and no word is an
    update keyword, without those letters in the text, and brackets cannot nest deeper than there are openers
    (the lexing costs about 0.4 ms for a stored query of 1 KB; most queries have none of these)."""
    if _SERVICE.search(query) is not None:
        for f in service_keywords(query):
            return f"SERVICE is not allowed on this endpoint (line {f.line}): it would fetch remote data.", 403
    if _MAY_UPDATE.search(query) is not None:
        for kind, token, at in _tokens(query):
            if kind == "word" and token.upper() in UPDATE:
                return f"{token.upper()} is an update and this endpoint is read-only (line {_line(query, at)}).", 403
    if sum(query.count(opener) for opener in "({[") > MAX_DEPTH:
        deepest, where = depth(query)
        if deepest > MAX_DEPTH:
            return (f"The query nests brackets {deepest} deep (line {_line(query, where)}); at most {MAX_DEPTH} "
                    "levels are parsed.", 400)  # fmt: skip
    return None
