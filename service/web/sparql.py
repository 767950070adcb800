"""/sparql: the SPARQL 1.1 Protocol, read-only, with limits (settings SPARQL_*, documented in the README).

GET ?query=, POST as a form, POST application/sparql-query; default-graph-uri and named-graph-uri; results
by content negotiation; a service description when no query is given; CORS for reads. Updates, LOAD and
SERVICE are refused before anything runs; each query runs in a worker process killed at the time limit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Coroutine
from typing import Any
from urllib.parse import urlencode

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from service.accept import choose
from service.config import setting
from service.kb import KB
from service.kb.layout import STORE_DIR
from service.kb.remote import RemoteStore
from service.sparql import cache, results
from service.sparql import pool as workers
from service.sparql.cache import Results
from service.sparql.results import GRAPH_TYPES
from service.sparql.usage import Usage
from service.sparql_safety import Refused, check, repeatable
from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY, PREFIXES
from service.web import form
from service.web.errors import ApiError, error_body
from service.web.inputs import read_body
from service.web.limits import ClientSlots, shared_slots
from service.web.throttle import address
from service.web.wellknown import RDF_TYPE, VOID, VOID_PATH, VOID_PREFIXES, XSD, dataset_iri, dataset_triples

# ?format= (download links, which cannot set an Accept header) and ?output=, and the names SPARQLWrapper and
# other clients send there (it sends both, sometimes twice: `format=tsv&format=text/tab-separated-values`):
# every alias of one format names it; aliases of two formats in one request disagree (400).
FORMATS = {  # name: (Accept it stands for, file extension of a download)
    "json": ("application/sparql-results+json, text/turtle;q=0.9", "json"),
    "xml": ("application/sparql-results+xml, application/rdf+xml;q=0.9", "xml"),
    "csv": ("text/csv", "csv"),
    "tsv": ("text/tab-separated-values", "tsv"),
    "ttl": ("text/turtle", "ttl"),
    "n3": ("text/turtle, application/n-triples;q=0.9", "ttl"),  # Turtle is N3 without its extensions
    "nt": ("application/n-triples", "nt"),
    "jsonld": ("application/ld+json", "jsonld"),
    "rdfxml": ("application/rdf+xml", "rdf"),
}
ALIASES = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
    "turtle": "ttl", "text/turtle": "ttl", "application/turtle": "ttl", "text/n3": "n3", "text/rdf+n3": "n3",
    "ntriples": "nt", "n-triples": "nt", "application/n-triples": "nt",
    "json-ld": "jsonld", "application/ld+json": "jsonld",
    "rdf": "rdfxml", "rdf+xml": "rdfxml", "application/rdf+xml": "rdfxml",
}  # fmt: skip
FORMAT_PARAMS = ("format", "output")
CORS = {"Access-Control-Allow-Origin": "*",
        "Access-Control-Expose-Headers": "X-SPARQL-Truncated, X-SPARQL-Rows, X-SPARQL-Cache"}  # fmt: skip
SD = "http://www.w3.org/ns/sparql-service-description#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"


def prefixes(entity_base: str) -> dict[str, str]:
    return PREFIXES | {"id": entity_base}


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


def _format_name(value: str) -> str:
    """The format a `format`/`output` value names: a name, an alias, or media types as in an Accept header
    (SPARQLWrapper sends `application/ld+json,application/x-json+ld`); the first one offered counts."""
    for part in value.lower().split(","):
        name = part.split(";")[0].strip()
        if name in FORMATS or name in ALIASES:
            return ALIASES.get(name, name)
    return ""


def requested_format(params: dict[str, list[str]]) -> str | None:
    """The one format the `format` and `output` parameters name (None: by the Accept header)."""
    named: dict[str, str] = {}
    for key in FORMAT_PARAMS:
        for value in params.get(key, []):
            if not value.strip():
                continue  # SPARQLWrapper sends an empty second value when it would have sent */*
            name = _format_name(value)
            if not name:
                offered = ", ".join(FORMATS)
                raise ApiError(406, f"{key}={value!r} is not offered: use one of {offered} (or a media type).")
            named.setdefault(name, f"{key}={value}")
    if len(named) > 1:
        raise ApiError(400, "The format parameters disagree: " + " and ".join(named.values()) + ".")
    return next(iter(named), None)


async def _request_params(request: Request) -> dict[str, list[str]]:
    """Protocol parameters from the query string and, for POST, the body."""
    query_string = request.scope.get("query_string", b"")
    params = form.fields(_decode(query_string, None))
    if request.method != "POST":
        return params
    media, _, rest = request.headers.get("content-type", "").partition(";")
    media = media.strip().lower()
    charset = next((p.split("=", 1)[1].strip() for p in rest.split(";") if p.strip().startswith("charset=")), None)
    body = await read_body(request, int(setting("SPARQL_MAX_BODY")))
    if media == "application/x-www-form-urlencoded":
        for key, values in form.fields(_decode(body, charset)).items():
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


async def _gone(request: Request) -> None:
    """Returns when the client has closed the connection (the request's body was read before)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _unless_gone(request: Request, running: Coroutine[Any, Any, workers.Outcome]) -> workers.Outcome:
    """The query's outcome; or, when the client goes away first, the query stopped (its worker replaced, its
    client slot freed) and a 499 for nobody: a closed tab or a client's timeout never leaves a query running. The
    query runs in this task (no second task per request); the client's going cancels it where it waits."""
    task = asyncio.current_task()
    gone = asyncio.ensure_future(_gone(request))
    waiting = True

    def leave(_: asyncio.Future[None]) -> None:
        if waiting and task is not None and not gone.cancelled() and gone.exception() is None:
            task.cancel()

    gone.add_done_callback(leave)
    try:
        return await running
    except asyncio.CancelledError:
        if not (gone.done() and not gone.cancelled()) or task is None:
            raise  # cancelled for another reason (the server stopping): not ours to turn into an answer
        task.uncancel()
        raise ApiError(499, "The client closed the connection before the query was answered.") from None
    finally:
        waiting = False
        gone.cancel()


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
    req = workers.Request(
        query=query,
        accept=accept,
        default_graphs=default_graphs,
        named_graphs=named_graphs,
        row_cap=row_cap or int(setting("SPARQL_ROW_CAP")),
        base_iri=str(request.url.replace(query="")),
        max_bytes=int(setting("SPARQL_MAX_RESPONSE")),
    )
    kept: Results = state.sparql_results
    digest = cache.key(req) if kept.max_bytes > 0 and repeatable(query) else None
    if digest is not None and (found := kept.get(digest)) is not None:
        return dataclasses.replace(found, cached=True)
    client = address(request)
    limits: ClientSlots = state.sparql_clients
    with limits.hold(client) as admitted:
        if not admitted:
            raise ApiError(429, f"At most {limits.limit} queries at once per client.", {"Retry-After": "1"})
        try:
            outcome = await _unless_gone(request, state.sparql_pool.run(req, client))
            if digest is not None:
                kept.put(digest, outcome)
            return outcome
        except workers.QueryTimeout:
            raise ApiError(503, f"The query ran longer than {setting('SPARQL_TIMEOUT')} s and was stopped.") from None
        except workers.Busy:
            raise ApiError(503, "Every SPARQL worker is busy; try again in a moment.", {"Retry-After": "2"}) from None
        except workers.Stopped:
            raise ApiError(503, f"The query was stopped after {setting('SPARQL_FAIR_SHARE')} s or more to let other "
                           "clients' waiting queries run: every worker is busy. Try again in a moment.",
                           {"Retry-After": "2"}) from None  # fmt: skip
        except workers.OverBudget as e:
            wait = math.ceil(e.retry_after)
            budget = setting("SPARQL_CLIENT_BUDGET")
            raise ApiError(429, f"This client used more than {budget} s of query time lately; try again in {wait} s.",
                           {"Retry-After": str(wait)}) from None  # fmt: skip


RESULT_OFFERS = (*results.SELECT_TYPES, *GRAPH_TYPES)


def _wants_a_page(request: Request) -> bool:
    """A person in a browser gets the console with the query, not raw XML: a navigation (Sec-Fetch-Dest:
    document, which every current browser sends) preferring HTML to every result format, or a request that
    accepts HTML and no result format at all (instead of 406). Clients that merely list text/html first (Java's
    default Accept) still get results."""
    accept = request.headers.get("accept", "")
    if (
        not accept.strip()
        or choose(accept, ("text/html", *RESULT_OFFERS), "application/sparql-results+json") != "text/html"
    ):
        return False
    navigating = request.headers.get("sec-fetch-dest") == "document"
    return navigating or choose(accept, RESULT_OFFERS, "application/sparql-results+json") is None


async def endpoint(request: Request) -> Response:
    if request.method == "OPTIONS":
        allow = {"Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Access-Control-Allow-Headers": "Content-Type"}
        return Response(status_code=204, headers=CORS | allow)
    params = await _request_params(request)
    if "update" in params or "using-graph-uri" in params or "using-named-graph-uri" in params:
        raise ApiError(403, "This endpoint is read-only: updates are refused.")
    query = _one(params, "query")
    if request.method == "GET" and not any(params.get(k) for k in FORMAT_PARAMS) and _wants_a_page(request):
        target = "/console" + (f"?{urlencode({'query': query})}" if query else "")  # a person, in a browser
        return RedirectResponse(target, status_code=303, headers=CORS | {"Vary": "Accept, Sec-Fetch-Dest"})
    if query is None:
        return description(request)
    if not query.strip():
        raise ApiError(400, "The `query` parameter is empty.")
    fmt = requested_format(params)
    accept = FORMATS[fmt][0] if fmt else request.headers.get("accept", "")
    outcome = await run_query(request, query, accept, default_graphs=tuple(params.get("default-graph-uri", [])),
                              named_graphs=tuple(params.get("named-graph-uri", [])))  # fmt: skip
    if outcome.status != 200:
        where = f" (line {outcome.line}, column {outcome.column})" if outcome.line else ""
        body = error_body(outcome.status, outcome.message + where)
        body["error"] |= {"line": outcome.line, "column": outcome.column}
        return JSONResponse(body, status_code=outcome.status, headers=CORS)
    headers = CORS | {"X-SPARQL-Rows": str(outcome.rows), "X-SPARQL-Cache": "hit" if outcome.cached else "miss",
                      "Vary": "Accept, Sec-Fetch-Dest"}  # fmt: skip
    if fmt and params.get("format"):
        headers["Content-Disposition"] = f'attachment; filename="results.{FORMATS[fmt][1]}"'
    if outcome.truncated:
        why = "SPARQL_MAX_RESPONSE bytes" if outcome.cut_by == "bytes" else "SPARQL_ROW_CAP"
        headers["X-SPARQL-Truncated"] = f"true; cut at {outcome.rows} rows ({why})"
    return Response(outcome.body, media_type=outcome.media_type, headers=headers)


RESULT_FORMATS = ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV", "Turtle",
                  "N-Triples", "JSON-LD", "RDF_XML")  # fmt: skip
ENTAILMENT = "http://www.w3.org/ns/entailment/"
OWL_RL = "http://www.w3.org/ns/owl-profile/RL"
GRAPH_REGIMES = {GRAPH_ONTOLOGY: "Simple", GRAPH_DATA: "Simple", GRAPH_INFERRED: "OWL-RDF-Based"}


def description(request: Request) -> Response:
    """The service description (SPARQL 1.1 Service Description), for GET without a query: the endpoint, its
    language, features and result formats; and, over a KB, the default dataset (the union of the named graphs,
    materialised under OWL 2 RL), each named graph with its size and regime, and the VoID description."""
    here = str(request.url.replace(query=""))
    sd = ox.BlankNode()
    n = ox.NamedNode
    triples = [
        ox.Triple(sd, n(RDF_TYPE), n(SD + "Service")),
        ox.Triple(sd, n(SD + "endpoint"), n(here)),
        ox.Triple(sd, n(SD + "supportedLanguage"), n(SD + "SPARQL11Query")),
        ox.Triple(sd, n(SD + "feature"), n(SD + "UnionDefaultGraph")),
        ox.Triple(sd, n(SD + "feature"), n(SD + "EmptyGraphs")),
    ]
    triples += [ox.Triple(sd, n(SD + "resultFormat"), n("http://www.w3.org/ns/formats/" + f)) for f in RESULT_FORMATS]
    kb: KB | None = getattr(request.app.state, "kb", None)
    if kb is not None:
        triples += _dataset(sd, kb, here)
    chosen = choose(request.headers.get("accept", ""), GRAPH_TYPES, "text/turtle") or "text/turtle"
    fmt = GRAPH_TYPES[chosen]
    body = ox.serialize(triples, format=fmt, prefixes=VOID_PREFIXES if fmt == ox.RdfFormat.TURTLE else None)
    return Response(body or b"", media_type=chosen, headers=CORS | {"Vary": "Accept, Sec-Fetch-Dest"})


def _dataset(sd: ox.BlankNode, kb: KB, here: str) -> list[ox.Triple]:
    n = ox.NamedNode
    ds = n(dataset_iri(kb))
    default = ox.BlankNode()
    sizes = kb.manifest.get("counts", {}).get("triples", {})
    out = [
        ox.Triple(sd, n(SD + "defaultEntailmentRegime"), n(ENTAILMENT + "OWL-RDF-Based")),
        ox.Triple(sd, n(SD + "defaultSupportedEntailmentProfile"), n(OWL_RL)),
        ox.Triple(sd, n(SD + "defaultDataset"), ds),
        ox.Triple(sd, n(RDFS + "seeAlso"), n(kb.site.public_base + VOID_PATH)),
        ox.Triple(ds, n(RDF_TYPE), n(SD + "Dataset")),
        ox.Triple(ds, n(SD + "defaultGraph"), default),
        ox.Triple(default, n(RDF_TYPE), n(SD + "Graph")),
        ox.Triple(default, n(VOID + "triples"), ox.Literal(str(sizes.get("store", 0)), datatype=n(XSD + "integer"))),
        ox.Triple(default, n(RDFS + "comment"), ox.Literal(
            "The union of the named graphs: the ontology, the stated data and what OWL 2 RL entails from them, "
            "materialised at build time, so a query needs no GRAPH clause and sees every entailment.")),
    ]  # fmt: skip
    roles = {GRAPH_ONTOLOGY: "ontology", GRAPH_DATA: "stated", GRAPH_INFERRED: "inferred"}
    for graph, regime in GRAPH_REGIMES.items():
        named, described = ox.BlankNode(), ox.BlankNode()
        count = sizes.get(roles[graph])
        out += [
            ox.Triple(ds, n(SD + "namedGraph"), named),
            ox.Triple(named, n(RDF_TYPE), n(SD + "NamedGraph")),
            ox.Triple(named, n(SD + "name"), n(graph)),
            ox.Triple(named, n(SD + "entailmentRegime"), n(ENTAILMENT + regime)),
            ox.Triple(named, n(SD + "graph"), described),
            ox.Triple(described, n(RDF_TYPE), n(SD + "Graph")),
        ]
        if count is not None:
            out.append(ox.Triple(described, n(VOID + "triples"), ox.Literal(str(count), datatype=n(XSD + "integer"))))
        if regime != "Simple":
            out.append(ox.Triple(named, n(SD + "supportedEntailmentProfile"), n(OWL_RL)))
    return out + dataset_triples(kb, here)


def pool_limits() -> workers.Limits:
    return workers.Limits(
        size=int(setting("SPARQL_WORKERS")),
        timeout=float(setting("SPARQL_TIMEOUT")),
        memory_mb=int(setting("SPARQL_MEMORY_MB")),
        queue=int(setting("SPARQL_QUEUE")),
        queue_wait=float(setting("SPARQL_QUEUE_WAIT")),
        sandbox=setting("SPARQL_SANDBOX").lower() not in ("off", "false", "0", "no"),
        share=float(setting("SPARQL_FAIR_SHARE")),
        budget=float(setting("SPARQL_CLIENT_BUDGET")),
        window=float(setting("SPARQL_BUDGET_WINDOW")),
    )


def new_pool(source: workers.Source, entity_base: str) -> workers.Pool:
    """A pool whose clients' use of query time is counted in a file every web worker of this server shares."""
    limits = pool_limits()
    slots, key = shared_slots()
    usage = Usage(limits.window, limits.budget, slots.with_name(slots.name + ".usage"), key)
    return workers.Pool(source, prefixes(entity_base), limits, usage)


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
    state.sparql_results = new_results()  # type: ignore[attr-defined]


def new_results() -> Results:
    """The answers kept for one build (SPARQL_CACHE_MB per web worker; 0 keeps none)."""
    return Results(int(float(setting("SPARQL_CACHE_MB")) * 1024 * 1024))
