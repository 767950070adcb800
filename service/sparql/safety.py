"""What a public, read-only endpoint refuses before running anything: updates, LOAD and SERVICE.

pyoxigraph makes real HTTP requests for `SERVICE <url>` from inside a query (a server-side request forgery
hole) and has no switch to turn that off, so such queries never reach it. SPARQL allows \\uXXXX escapes
anywhere in a query, so they are decoded first; keywords are then looked for outside strings, IRIs and
comments, so the same word inside a string literal is allowed.
"""

from __future__ import annotations

import re

from service import sparql_text

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
UPDATE = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}
REMOTE = {"SERVICE"}


class Refused(ValueError):
    """A query the endpoint will not run, with the reason for the person who sent it."""


def _unescape(text: str) -> str:
    def char(m: re.Match[str]) -> str:
        code = int(m.group(1) or m.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"

    return _ESCAPE.sub(char, text)


def check(query: str) -> None:
    """Raise Refused for an update, LOAD or SERVICE anywhere in the query (case-insensitive)."""
    for token in sparql_text.keywords(_unescape(query)):
        word = token.text.upper()
        if word in REMOTE:
            raise Refused(f"SERVICE is not allowed on this endpoint (line {token.line}): it would fetch remote data.")
        if word in UPDATE:
            raise Refused(f"{word} is an update and this endpoint is read-only (line {token.line}).")
