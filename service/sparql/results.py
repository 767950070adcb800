"""SPARQL 1.1 result formats for SELECT and ASK (JSON, XML, CSV, TSV), written row by row so a row cap
can stop a result before it is all in memory; CONSTRUCT and DESCRIBE use pyoxigraph's RDF serializers.

JSON, the format most clients ask for, is first written by pyoxigraph's own serializer into a bounded
buffer (about twice as fast as writing it here: docs/PERFORMANCE.md); only a result too big for the
buffer is written row by row."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

XSD = "http://www.w3.org/2001/XMLSchema#"
SELECT_TYPES = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
GRAPH_TYPES = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
}
CANONICAL = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
             "csv": "text/csv", "tsv": "text/tab-separated-values"}  # fmt: skip
_NUMBER = {XSD + "integer": re.compile(r"^[+-]?\d+$"), XSD + "decimal": re.compile(r"^[+-]?\d*\.\d+$"),
           XSD + "double": re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$"),
           XSD + "boolean": re.compile(r"^(true|false)$")}  # fmt: skip

Row = Sequence[ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple | None]


def _json_term(t: object) -> dict[str, str]:
    if isinstance(t, ox.NamedNode):
        return {"type": "uri", "value": t.value}
    if isinstance(t, ox.BlankNode):
        return {"type": "bnode", "value": t.value}
    assert isinstance(t, ox.Literal)
    out = {"type": "literal", "value": t.value}
    if t.language:
        out["xml:lang"] = t.language
    elif t.datatype.value != XSD + "string":
        out["datatype"] = t.datatype.value
    return out


def _xml_term(t: object) -> str:
    if isinstance(t, ox.NamedNode):
        return f"<uri>{escape(t.value)}</uri>"
    if isinstance(t, ox.BlankNode):
        return f"<bnode>{escape(t.value)}</bnode>"
    assert isinstance(t, ox.Literal)
    if t.language:
        return f"<literal xml:lang={quoteattr(t.language)}>{escape(t.value)}</literal>"
    if t.datatype.value != XSD + "string":
        return f"<literal datatype={quoteattr(t.datatype.value)}>{escape(t.value)}</literal>"
    return f"<literal>{escape(t.value)}</literal>"


def _csv_field(t: object) -> str:
    if t is None:
        return ""
    text = f"_:{t.value}" if isinstance(t, ox.BlankNode) else str(getattr(t, "value", t))
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _tsv_field(t: object) -> str:
    if t is None:
        return ""
    if isinstance(t, ox.Literal) and not t.language:
        pattern = _NUMBER.get(t.datatype.value)
        if pattern is not None and pattern.match(t.value):
            return t.value
    return str(t).replace("\t", "\\t")


NATIVE_BUDGET = 8 * 1024 * 1024  # bytes of JSON written natively before falling back to row by row


class _Full(Exception):
    pass


class _Buffer:
    """A file-like sink for pyoxigraph's serializer that stops it once `limit` bytes are written."""

    def __init__(self, limit: int) -> None:
        self.parts: list[bytes] = []
        self.size, self.limit = 0, limit

    def write(self, data: bytes) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise _Full
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass


_HEAD = b'{"head":{"vars":['
_UNSURE = (b"{}", b'{",', b'{"}', b'{"]', b'"type":"triple"')


def _count(body: bytes) -> int | None:
    """The rows of pyoxigraph's SPARQL JSON without parsing it, or None when this cannot be sure. Outside strings,
    `{"` opens an object: the document, its head and its results three, each row one, each term one (`{"type":"`
    opens a term; a variable named `type` opens its row with `{"type":{`). Inside a string a `"` is escaped, so
    there `{"` is only a string that ends in `{`, whose closing quote a `,`, `}` or `]` follows, never a key. A
    triple term nests objects and an empty row (`{}`) opens none: those, a string ending in `{`, and a `{}` inside
    a string, which could be either, are left to the parser."""
    if not body.startswith(_HEAD) or any(mark in body for mark in _UNSURE):
        return None
    return body.count(b'{"') - 3 - body.count(b'{"type":"')


def native_json(solutions: ox.QuerySolutions, cap: int, budget: int = NATIVE_BUDGET) -> tuple[bytes, int, bool] | None:
    """SELECT results as SPARQL JSON by pyoxigraph, with the row count and whether they were cut at `cap`;
    None when they pass `budget` bytes (the caller runs the query again and writes it row by row)."""
    sink = _Buffer(budget)
    try:
        solutions.serialize(sink, format=ox.QueryResultsFormat.JSON)  # type: ignore[arg-type]  # only write() is used
    except _Full:
        return None
    body = b"".join(sink.parts)
    count = _count(body)
    if count is not None and count <= cap:
        return body, count, False
    doc = json.loads(body)
    bindings = doc["results"]["bindings"]
    if len(bindings) <= cap:
        return body, len(bindings), False
    doc["results"]["bindings"] = bindings[:cap]
    return json.dumps(doc, ensure_ascii=False).encode(), cap, True


def select(variables: list[str], rows: list[Row], kind: str) -> bytes:
    if kind == "json":
        bindings = [{v: _json_term(t) for v, t in zip(variables, row, strict=True) if t is not None} for row in rows]
        return json.dumps({"head": {"vars": variables}, "results": {"bindings": bindings}}, ensure_ascii=False).encode()
    if kind == "xml":
        parts = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>']
        parts += [f"<variable name={quoteattr(v)}/>" for v in variables]
        parts.append("</head><results>")
        for row in rows:
            parts.append("<result>")
            parts += [f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                      for v, t in zip(variables, row, strict=True) if t is not None]  # fmt: skip
            parts.append("</result>")
        parts.append("</results></sparql>")
        return "".join(parts).encode()
    if kind == "csv":
        lines = [",".join(variables)] + [",".join(_csv_field(t) for t in row) for row in rows]
        return ("\r\n".join(lines) + "\r\n").encode()
    lines = ["\t".join("?" + v for v in variables)] + ["\t".join(_tsv_field(t) for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def boolean(value: bool, kind: str) -> bytes:
    if kind == "json":
        return json.dumps({"head": {}, "boolean": value}).encode()
    if kind == "xml":
        word = "true" if value else "false"
        return (f'<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/>'
                f"<boolean>{word}</boolean></sparql>").encode()  # fmt: skip
    return (("true" if value else "false") + "\n").encode()
