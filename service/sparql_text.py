"""A small lexer for SPARQL text: find `$name` parameters, keywords and the projection, outside strings,
IRIs and comments. Used by the stored-query catalog (and later by the public endpoint's safety checks)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Order matters: long strings before short ones.
_TOKEN = re.compile(
    r"""
    (?P<comment>\#[^\r\n]*)
  | (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''
              |\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
              |'(?:[^'\\\n]|\\.)*'
              |"(?:[^"\\\n]|\\.)*")
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<param>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<var>\?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<word>[A-Za-z_][A-Za-z0-9_-]*(?::[A-Za-z0-9_.-]*)?)
  | (?P<space>\s+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Token:
    kind: str  # comment, string, iri, param, var, word, space, other
    text: str
    start: int
    line: int


@lru_cache(maxsize=256)
def _cached_tokens(text: str) -> tuple[Token, ...]:
    return tuple(tokens(text))


def tokens(text: str) -> list[Token]:
    out: list[Token] = []
    line = 1
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        out.append(Token(kind, m.group(), m.start(), line))
        line += m.group().count("\n")
    return out


def params(text: str) -> dict[str, int]:
    """Each `$name` used in the query, with the line of its first use."""
    found: dict[str, int] = {}
    for t in tokens(text):
        if t.kind == "param":
            found.setdefault(t.text[1:], t.line)
    return found


def projected_params(text: str) -> list[tuple[str, int]]:
    """`$name` tokens in the projection of the first SELECT (between SELECT and WHERE / `{`)."""
    inside = False
    found: list[tuple[str, int]] = []
    for t in tokens(text):
        word = t.text.upper() if t.kind == "word" else ""
        if not inside:
            inside = word == "SELECT"
            continue
        if word == "WHERE" or t.text == "{":
            break
        if t.kind == "param":
            found.append((t.text[1:], t.line))
    return found


def substitute(text: str, values: dict[str, str]) -> str:
    """Replace each `$name` token (outside strings, IRIs and comments) by an already serialized term."""
    pieces = _pieces(text)
    return "".join([piece if name is None or name not in values else values[name] for piece, name in pieces])


@lru_cache(maxsize=512)
def _pieces(text: str) -> tuple[tuple[str, str | None], ...]:
    """The text as runs of tokens that are no parameter, each `$name` between them with its name: a stored query
    is filled again and again, so it is cut once."""
    out: list[tuple[str, str | None]] = []
    run: list[str] = []
    for t in _cached_tokens(text):
        if t.kind == "param":
            out.append(("".join(run), None))
            out.append((t.text, t.text[1:]))
            run = []
        else:
            run.append(t.text)
    out.append(("".join(run), None))
    return tuple(out)


def keywords(text: str) -> list[Token]:
    """Bare words of the query (keywords and prefixed names), outside strings, IRIs and comments."""
    return [t for t in _cached_tokens(text) if t.kind == "word"]


def star_order(text: str) -> list[str] | None:
    """For `SELECT *`, the variables in order of first appearance (what a reader expects as columns);
    None for any other projection."""
    if "*" not in text:
        return None  # (no `*`, no SELECT *: the text is not lexed)
    toks = [t for t in _cached_tokens(text) if t.kind not in ("space", "comment")]
    for i, t in enumerate(toks):
        if t.kind == "word" and t.text.upper() == "SELECT":
            rest = toks[i + 1 :]
            while rest and rest[0].kind == "word" and rest[0].text.upper() in ("DISTINCT", "REDUCED"):
                rest = rest[1:]
            if not rest or rest[0].text != "*":
                return None
            return list(dict.fromkeys(x.text[1:] for x in rest if x.kind in ("var", "param")))
    return None


def undeclared_prefixes(text: str) -> list[tuple[str, int]]:
    """Prefixed names whose prefix the query does not declare (`ex:` without `PREFIX ex: <...>`), with the line
    of their first use."""
    toks = [t for t in _cached_tokens(text) if t.kind not in ("space", "comment")]
    declared = {toks[i + 1].text.split(":", 1)[0] for i, t in enumerate(toks[:-1])
                if t.kind == "word" and t.text.upper() == "PREFIX" and toks[i + 1].kind == "word"}  # fmt: skip
    found: dict[str, int] = {}
    for i, t in enumerate(toks):
        after_prefix = i > 0 and toks[i - 1].kind == "word" and toks[i - 1].text.upper() == "PREFIX"
        if t.kind == "word" and ":" in t.text and not after_prefix:
            prefix = t.text.split(":", 1)[0]
            if prefix not in declared:
                found.setdefault(prefix, t.line)
    return sorted(found.items(), key=lambda kv: kv[1])


def prologue(text: str, prefixes: dict[str, str], base: str | None) -> str:
    """The lines a query needs in front to mean at another SPARQL service what it means at this endpoint: its
    BASE and the endpoint's default prefixes it uses without declaring them. Later declarations in the query
    override these, as the grammar says; no other text of the query changes."""
    lines = [f"BASE <{base}>"] if base else []
    lines += [f"PREFIX {p}: <{prefixes[p]}>" for p, _ in undeclared_prefixes(text) if p in prefixes]
    return "".join(line + "\n" for line in lines)
