"""/console: write SPARQL, run it on /sparql's worker pool, see a table; the stored queries are the examples.

`/console?query=...` is a shareable URL: the page runs the query on the server and renders the result, so it
works without JavaScript; the script adds syntax highlighting and runs queries without reloading.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from service.config import setting
from service.web.errors import ApiError
from service.web.sparql import prefixes, run_query
from service.web.templating import page

STARTER = "\n\nSELECT ?work ?label WHERE {\n  ?work a pf:Work ; rdfs:label ?label .\n}\nLIMIT 20\n"


async def page_handler(request: Request) -> Response:
    kb = request.app.state.kb
    declared = "\n".join(f"PREFIX {p}: <{iri}>" for p, iri in prefixes(kb.site.entity_base).items())
    query = request.query_params.get("query")
    context: dict[str, Any] = {
        "query": query or declared + STARTER,
        "examples": [
            {"name": q.name, "title": q.title, "description": q.description, "text": q.text,
             "href": "/console?query=" + quote(q.text, safe="")}
            for q in sorted(kb.catalog.values(), key=lambda q: q.title)
        ],
        "result": None,
        "error": None,
        "downloads": [],
        "timeout": setting("SPARQL_TIMEOUT"),
    }  # fmt: skip
    if query and query.strip():
        context.update(await _run(request, query))
    return page(request, "console.html", context)


async def _run(request: Request, query: str) -> dict[str, Any]:
    """The console runs a query on the same path as /sparql: the same check, client limit and workers."""
    start = time.perf_counter()
    try:
        outcome = await run_query(request, query, "application/sparql-results+json, text/turtle;q=0.9", row_cap=1000)
    except ApiError as e:
        return {"error": {"message": str(e.detail)}}
    ms = (time.perf_counter() - start) * 1000
    if outcome.status != 200:
        return {"error": {"message": outcome.message, "line": outcome.line, "column": outcome.column}}
    formats = ["json", "xml", "csv", "tsv"] if "sparql-results" in outcome.media_type else ["ttl", "nt", "jsonld"]
    downloads = [(f, f"/sparql?query={quote(query, safe='')}&format={f}") for f in formats]
    result: dict[str, Any] = {"ms": ms, "rows": outcome.rows, "truncated": outcome.truncated}
    if outcome.media_type == "application/sparql-results+json":
        doc = json.loads(outcome.body)
        if "boolean" in doc:
            result["boolean"] = doc["boolean"]
        else:
            result["vars"] = doc["head"]["vars"]
            result["bindings"] = doc["results"]["bindings"]
    else:
        result["text"] = outcome.body.decode()
    return {"result": result, "downloads": downloads}
