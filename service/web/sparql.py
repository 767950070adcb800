"""/sparql: the SPARQL 1.1 Protocol, read-only, with limits (settings SPARQL_*, documented in the README).

GET ?query=, POST as a form, POST application/sparql-query; default-graph-uri and named-graph-uri; results
by content negotiation; a service description when no query is given; CORS for reads. Updates, LOAD and
SERVICE are refused before anything runs; each query runs in a worker process killed at the time limit.
"""

from __future__ import annotations

from urllib.parse import parse_qs

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service.accept import choose
from service.config import setting
from service.kb import KB
from service.kb.remote import RemoteStore
from service.kb.store import STORE_DIR
from service.sparql import pool as workers
from service.sparql.results import GRAPH_TYPES
from service.sparql.safety import Refused, check
from service.vocab import PF
from service.web.errors import ApiError, error_body
from service.web.inputs import read_body
from service.web.limits import ClientSlots

FORMAT_PARAM = {  # ?format= for download links, which cannot set an Accept header
    "json": "application/sparql-results+json, text/turtle;q=0.9",
    "xml": "application/sparql-results+xml, application/rdf+xml;q=0.9",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "jsonld": "application/ld+json",
}
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "X-SPARQL-Truncated, X-SPARQL-Rows"}
SD = "http://www.w3.org/ns/sparql-service-description#"


def prefixes(entity_base: str) -> dict[str, str]:
    return {
        "pf": PF,
        "id": entity_base,
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
        "owl": "http://www.w3.org/2002/07/owl#",
        "xsd": "http://www.w3.org/2001/XMLSchema#",
        "skos": "http://www.w3.org/2004/02/skos/core#",
        "schema": "https://schema.org/",
        "dcterms": "http://purl.org/dc/terms/",
    }


def _decode(raw: bytes, charset: str | None) -> str:
    if charset and charset.lower().replace("-", "") not in ("utf8",):
        raise ApiError(400, f"Send the query in UTF-8 (got charset={charset}).")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "The request is not valid UTF-8.") from None


def _one(params: dict[str, list[str]], name: str) -> str | None:
    values = params.get(name, [])
    if len(values) > 1:
        raise ApiError(400, f"Send exactly one `{name}` parameter (got {len(values)}).")
    return values[0] if values else None


async def _request_params(request: Request) -> dict[str, list[str]]:
    """Protocol parameters from the query string and, for POST, the body."""
    query_string = request.scope.get("query_string", b"")
    params = parse_qs(_decode(query_string, None), keep_blank_values=True)
    if request.method != "POST":
        return params
    media, _, rest = request.headers.get("content-type", "").partition(";")
    media = media.strip().lower()
    charset = next((p.split("=", 1)[1].strip() for p in rest.split(";") if p.strip().startswith("charset=")), None)
    body = await read_body(request, int(setting("SPARQL_MAX_BODY")))
    if media == "application/x-www-form-urlencoded":
        for key, values in parse_qs(_decode(body, charset), keep_blank_values=True).items():
            params.setdefault(key, []).extend(values)
    elif media == "application/sparql-query":
        params.setdefault("query", []).append(_decode(body, charset))
    elif media == "application/sparql-update":
        raise ApiError(403, "This endpoint is read-only: updates are refused.")
    else:
        raise ApiError(
            415, "POST a query as application/sparql-query, or as a form (application/x-www-form-urlencoded)."
        )
    return params


async def run_query(
    request: Request,
    query: str,
    accept: str,
    *,
    default_graphs: tuple[str, ...] = (),
    named_graphs: tuple[str, ...] = (),
    row_cap: int | None = None,
) -> workers.Outcome:
    """Check and run one query for one client within every limit: the one path of /sparql and /console.
    Raises ApiError (4xx, 503) with the reason; the client's slot is released on every path."""
    try:
        check(query)
    except Refused as e:
        raise ApiError(e.status, str(e)) from None
    for g in (*default_graphs, *named_graphs):
        try:
            ox.NamedNode(g)
        except ValueError:
            raise ApiError(400, f"{g!r} is not an IRI (default-graph-uri, named-graph-uri).") from None
    state = request.app.state
    client = request.client.host if request.client else "unknown"
    limits: ClientSlots = state.sparql_clients
    with limits.hold(client) as admitted:
        if not admitted:
            raise ApiError(429, f"At most {limits.limit} queries at once per client.", {"Retry-After": "1"})
        try:
            outcome: workers.Outcome = await state.sparql_pool.run(
                workers.Request(
                    query=query,
                    accept=accept,
                    default_graphs=default_graphs,
                    named_graphs=named_graphs,
                    row_cap=row_cap or int(setting("SPARQL_ROW_CAP")),
                    base_iri=str(request.url.replace(query="")),
                    max_bytes=int(setting("SPARQL_MAX_RESPONSE")),
                ),
                client,
            )
            return outcome
        except workers.QueryTimeout:
            raise ApiError(503, f"The query ran longer than {setting('SPARQL_TIMEOUT')} s and was stopped.") from None
        except workers.Busy:
            raise ApiError(503, "Every SPARQL worker is busy; try again in a moment.", {"Retry-After": "2"}) from None


async def endpoint(request: Request) -> Response:
    if request.method == "OPTIONS":
        allow = {"Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Access-Control-Allow-Headers": "Content-Type"}
        return Response(status_code=204, headers=CORS | allow)
    params = await _request_params(request)
    if "update" in params or "using-graph-uri" in params or "using-named-graph-uri" in params:
        raise ApiError(403, "This endpoint is read-only: updates are refused.")
    query = _one(params, "query")
    if query is None:
        return description(request)
    if not query.strip():
        raise ApiError(400, "The `query` parameter is empty.")
    fmt = _one(params, "format")
    if fmt and fmt not in FORMAT_PARAM:
        raise ApiError(406, f"format={fmt!r} is not offered: use one of {', '.join(FORMAT_PARAM)}.")
    accept = FORMAT_PARAM.get(fmt or "", request.headers.get("accept", ""))
    outcome = await run_query(request, query, accept, default_graphs=tuple(params.get("default-graph-uri", [])),
                              named_graphs=tuple(params.get("named-graph-uri", [])))  # fmt: skip
    if outcome.status != 200:
        where = f" (line {outcome.line}, column {outcome.column})" if outcome.line else ""
        body = error_body(outcome.status, outcome.message + where)
        body["error"] |= {"line": outcome.line, "column": outcome.column}
        return JSONResponse(body, status_code=outcome.status, headers=CORS)
    headers = CORS | {"X-SPARQL-Rows": str(outcome.rows), "Vary": "Accept"}
    if fmt:
        headers["Content-Disposition"] = f'attachment; filename="results.{fmt}"'
    if outcome.truncated:
        why = "SPARQL_MAX_RESPONSE bytes" if outcome.cut_by == "bytes" else "SPARQL_ROW_CAP"
        headers["X-SPARQL-Truncated"] = f"true; cut at {outcome.rows} rows ({why})"
    return Response(outcome.body, media_type=outcome.media_type, headers=headers)


def description(request: Request) -> Response:
    """The service description (SPARQL 1.1 Service Description), for GET without a query."""
    here = ox.NamedNode(str(request.url.replace(query="")))
    sd = ox.BlankNode()
    triples = [
        ox.Triple(sd, ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), ox.NamedNode(SD + "Service")),
        ox.Triple(sd, ox.NamedNode(SD + "endpoint"), here),
        ox.Triple(sd, ox.NamedNode(SD + "supportedLanguage"), ox.NamedNode(SD + "SPARQL11Query")),
        ox.Triple(sd, ox.NamedNode(SD + "feature"), ox.NamedNode(SD + "UnionDefaultGraph")),
    ]
    for fmt in ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV", "Turtle",
                "N-Triples", "JSON-LD", "RDF_XML"):  # fmt: skip
        formats = ox.NamedNode("http://www.w3.org/ns/formats/" + fmt)
        triples.append(ox.Triple(sd, ox.NamedNode(SD + "resultFormat"), formats))
    chosen = choose(request.headers.get("accept", ""), GRAPH_TYPES, "text/turtle") or "text/turtle"
    body = ox.serialize(triples, format=GRAPH_TYPES[chosen], prefixes={"sd": SD} if chosen == "text/turtle" else None)
    return Response(body or b"", media_type=chosen, headers=CORS)


def pool_limits() -> workers.Limits:
    return workers.Limits(
        size=int(setting("SPARQL_WORKERS")),
        timeout=float(setting("SPARQL_TIMEOUT")),
        memory_mb=int(setting("SPARQL_MEMORY_MB")),
        queue=int(setting("SPARQL_QUEUE")),
        queue_wait=float(setting("SPARQL_QUEUE_WAIT")),
        sandbox=setting("SPARQL_SANDBOX").lower() not in ("off", "false", "0", "no"),
    )


def new_pool(source: workers.Source, entity_base: str) -> workers.Pool:
    return workers.Pool(source, prefixes(entity_base), pool_limits())


def pool_source(kb: KB) -> workers.Source:
    """Where the KB's SPARQL workers read: the KB's store folder, or the remote store it is served from."""
    if isinstance(kb.store, RemoteStore):
        timeout = float(setting("SPARQL_TIMEOUT")) + 5  # the worker is killed at the time limit before this
        return workers.RemoteSource(kb.store.url, timeout, 2 * int(setting("SPARQL_MAX_RESPONSE")))
    return str(kb.path / STORE_DIR)


def open_endpoint(state: object, store_dir: str, entity_base: str) -> None:
    """Start the worker pool and the per-client limits on an app's state (/sparql alone, without a KB)."""
    state.sparql_pool = new_pool(store_dir, entity_base)  # type: ignore[attr-defined]
    state.sparql_clients = ClientSlots(int(setting("SPARQL_CLIENT_LIMIT")))  # type: ignore[attr-defined]
