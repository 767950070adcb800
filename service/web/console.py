"""/console: write SPARQL, run it on /sparql's worker pool, see a table; the stored queries are the examples.

`/console?query=...` is a shareable URL: the page runs the query on the server and renders the result, so it
works without JavaScript. With it, the textarea becomes a CodeMirror editor (static/console.js and the bundle
in static/vendor/, built from web/console/) that runs queries on /sparql without reloading the page.
`/console?example=NAME` opens a stored query with the example values of its header's parameters filled in
(language/query-examples.yaml and the owner's own), by the catalog's own filling: terms serialized by
pyoxigraph, never pasted text. `/console/vocabulary.json` is what the editor completes: the graph's classes,
properties and entities (console-vocabulary.rq) and the endpoint's prefixes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from service import sparql_text
from service.config import setting
from service.examples import Examples
from service.kb import KB
from service.kb.remote import StoreUnavailable
from service.queries import QueryError, StoredQuery
from service.web.errors import ApiError
from service.web.sparql import prefixes, run_query
from service.web.templating import page

STARTER = "\n\nSELECT ?work ?label WHERE {\n  ?work a pf:Work ; rdfs:label ?label .\n}\nLIMIT 20\n"
VOCABULARY = (Path(__file__).parent / "console-vocabulary.rq").read_text(encoding="utf-8")
ROW_CAP = 1000  # rows the server-rendered page shows; the script pages through what /sparql sends


@dataclass(frozen=True)
class Example:
    """A stored query as the console opens it: filled with its example values where it has them."""

    query: StoredQuery
    text: str
    filled: list[tuple[int, str, str]]  # (line, $name, the term put there)
    unfilled: list[str]  # parameters left unbound: no example value, or one this graph cannot give

    @property
    def note(self) -> str:
        said = [f"line {line}: ${name} = {term}" for line, name, term in self.filled]
        if self.unfilled:
            said.append("left unbound: " + ", ".join("$" + n for n in self.unfilled))
        return "; ".join(said)


_EXAMPLES: dict[tuple[str, str], dict[str, Example]] = {}
_VOCABULARIES: dict[tuple[str, str], bytes] = {}


def _key(kb: KB) -> tuple[str, str]:
    return str(kb.path), kb.digest


def examples(kb: KB) -> dict[str, Example]:
    """Every stored query with its example filled in, resolved once per served build (503 while a remote store
    does not answer)."""
    key = _key(kb)
    if key not in _EXAMPLES:
        with _store_answers():
            _EXAMPLES[key] = _all_examples(kb)
    return _EXAMPLES[key]


@contextmanager
def _store_answers() -> Iterator[None]:
    try:
        yield
    except StoreUnavailable as e:
        raise ApiError(503, f"The store did not answer: {e}", {"Retry-After": "5"}) from None


def _all_examples(kb: KB) -> dict[str, Example]:
    raw_all = kb.lexicon.extra.get("query-examples") or {}
    resolver = Examples(kb.catalog, kb.site.entity_base + kb.site.person, kb.lexicon.extra["routes"]["routes"])
    _EXAMPLES.clear()  # one build is served at a time
    return {n: _example(kb, resolver, kb.catalog[n], raw_all.get(n) or {}) for n in kb.catalog}


def _example(kb: KB, resolver: Examples, query: StoredQuery, raw: dict[str, Any]) -> Example:
    terms: dict[str, str] = {}
    for name, param in query.params.items():
        if name not in raw:
            continue
        try:
            value = resolver.values(query, {name: raw[name]}, kb.site.entity_base)[name]
            terms[name] = kb.catalog.term(param, value)
        except QueryError:
            continue  # this graph has no such example (no entity of the class): the parameter stays unbound
    lines = [(t.line, t.text[1:]) for t in sparql_text.tokens(query.text) if t.kind == "param" and t.text[1:] in terms]
    filled = [(line, name, terms[name]) for line, name in dict.fromkeys(lines)]
    unfilled = [n for n in query.params if n not in terms]
    return Example(query, sparql_text.substitute(query.text, terms), filled, unfilled)


async def vocabulary(request: Request) -> Response:
    """The editor's completions as JSON: {"prefixes": {...}, "terms": [{"iri", "kind", "label", "class"}]}."""
    kb: KB = request.app.state.kb
    key = _key(kb)
    if key not in _VOCABULARIES:
        terms = []
        with _store_answers():
            rows = list(kb.query(VOCABULARY))
        for row in rows:
            term: dict[str, str] = {"iri": row["term"].value, "kind": row["kind"].value}
            for name in ("label", "class"):
                if isinstance(row[name], ox.Literal):
                    term[name] = row[name].value
            terms.append(term)
        body = {"prefixes": prefixes(kb.site.entity_base), "terms": terms}
        _VOCABULARIES.clear()
        _VOCABULARIES[key] = json.dumps(body, ensure_ascii=False).encode()
    return Response(_VOCABULARIES[key], media_type="application/json", headers={"Cache-Control": "no-cache"})


async def page_handler(request: Request) -> Response:
    kb: KB = request.app.state.kb
    declared = "\n".join(f"PREFIX {p}: <{iri}>" for p, iri in prefixes(kb.site.entity_base).items())
    query = request.query_params.get("query")
    shown = examples(kb)
    opened: Example | None = None
    name = request.query_params.get("example")
    if name is not None and query is None:
        opened = shown.get(name)
        if opened is None:
            raise ApiError(404, f"No stored query named {name[:80]!r}: the examples are listed on /console.")
        query = opened.text
    context: dict[str, Any] = {
        "query": query or declared + STARTER,
        "example": opened,
        "examples": [
            {"name": e.query.name, "title": e.query.title, "description": e.query.description,
             "href": "/console?example=" + quote(e.query.name, safe=""), "filled": bool(e.filled)}
            for e in sorted(shown.values(), key=lambda e: e.query.title)
        ],
        "result": None,
        "error": None,
        "downloads": [],
        "timeout": setting("SPARQL_TIMEOUT"),
        "entity_base": kb.site.entity_base,
        "prefixes": prefixes(kb.site.entity_base),
    }  # fmt: skip
    if query and query.strip():
        context.update(await _run(request, query))
    return page(request, "console.html", context)


async def _run(request: Request, query: str) -> dict[str, Any]:
    """The console runs a query on the same path as /sparql: the same check, client limit and workers."""
    start = time.perf_counter()
    try:
        outcome = await run_query(request, query, "application/sparql-results+json, text/turtle;q=0.9",
                                  row_cap=ROW_CAP)  # fmt: skip
    except ApiError as e:
        return {"error": {"message": str(e.detail)}}
    ms = (time.perf_counter() - start) * 1000
    if outcome.status != 200:
        return {"error": {"message": outcome.message, "line": outcome.line, "column": outcome.column}}
    formats = ["json", "xml", "csv", "tsv"] if "sparql-results" in outcome.media_type else ["ttl", "nt", "jsonld"]
    downloads = [(f, f"/sparql?query={quote(query, safe='')}&format={f}") for f in formats]
    result: dict[str, Any] = {"ms": ms, "rows": outcome.rows, "truncated": outcome.truncated, "cached": outcome.cached}
    if outcome.media_type == "application/sparql-results+json":
        doc = json.loads(outcome.body)
        if "boolean" in doc:
            result["boolean"] = doc["boolean"]
        else:
            base = request.app.state.kb.site.entity_base
            short = _shortener(prefixes(base))
            result["vars"] = doc["head"]["vars"]
            bindings = doc["results"]["bindings"]
            result["table"] = [[_cell(b.get(v), base, short) for v in result["vars"]] for b in bindings]
            result["doc"] = doc  # the script pages and sorts these rows without running the query again
    else:
        result["text"] = outcome.body.decode()
    return {"result": result, "downloads": downloads}


def _shortener(known: dict[str, str]) -> Any:
    ordered = sorted(known.items(), key=lambda p: -len(p[1]))

    def short(iri: str) -> str:
        for prefix, ns in ordered:
            if iri.startswith(ns) and len(iri) > len(ns):
                return f"{prefix}:{iri[len(ns) :]}"
        return iri

    return short


def _cell(term: dict[str, str] | None, base: str, short: Any) -> dict[str, str] | None:
    """One result term as the table shows it: an entity of this graph links to its /id/ page, another http(s) IRI
    is an external link, a literal shows its datatype or language."""
    if term is None:
        return None
    value, kind = term["value"], term["type"]
    if kind == "uri":
        if value.startswith(base) and len(value) > len(base):
            return {"text": short(value), "href": "/id/" + quote(value[len(base) :], safe="/:@!$&'()*+,;=-._~"),
                    "kind": "entity", "title": value}  # fmt: skip
        external = value.startswith(("http://", "https://"))
        return {"text": short(value), "href": value if external else "", "kind": "external", "title": value}
    if kind == "bnode":
        return {"text": "_:" + value, "kind": "bnode"}
    tag = "@" + term["xml:lang"] if "xml:lang" in term else short(term["datatype"]) if "datatype" in term else ""
    return {"text": value, "kind": "literal", "tag": tag, "title": term.get("datatype", "")}
