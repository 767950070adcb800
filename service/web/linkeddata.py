"""Entity IRIs as Linked Data: /id/NAME answers HTML to browsers and Turtle, N-Triples, JSON-LD or RDF/XML to
clients that ask for them (Accept header, or ?format=ttl|nt|jsonld|rdf for a download link; `application/json`
gets JSON-LD). Every answer says where the other representations are (`Link: rel=alternate`), and OPTIONS
says what the resource allows."""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from service.accept import choose
from service.kb.store import AnyStore
from service.vocab import GRAPH_DATA, PREFIXES
from service.web.asked import opened
from service.web.errors import ApiError
from service.web.templating import page

FORMATS = {
    "text/turtle": (ox.RdfFormat.TURTLE, "ttl"),
    "application/n-triples": (ox.RdfFormat.N_TRIPLES, "nt"),
    "application/ld+json": (ox.RdfFormat.JSON_LD, "jsonld"),
    "application/rdf+xml": (ox.RdfFormat.RDF_XML, "rdf"),
}
BY_EXTENSION = {ext: media for media, (_, ext) in FORMATS.items()}
PLAIN_JSON = "application/json"  # JSON-LD is JSON: a client that asks for JSON gets it
ALLOWED = "GET, HEAD, OPTIONS"


def negotiate(request: Request) -> str:
    """The media type to answer with: ?format= first (html or an RDF extension), then the Accept header by quality,
    HTML by default."""
    fmt = request.query_params.get("format")
    if fmt:
        if fmt.lower() in ("html", "htm"):  # the page itself, as the Link header's first alternate names it
            return "text/html"
        if fmt not in BY_EXTENSION:
            raise ApiError(406, f"format={fmt!r} is not offered: use one of html, {', '.join(BY_EXTENSION)}.")
        return BY_EXTENSION[fmt]
    offers = {"text/html": None, "application/xhtml+xml": None, **FORMATS, PLAIN_JSON: None}
    media = choose(request.headers.get("accept", ""), offers, "text/html")
    if media is None:
        raise ApiError(406, "This entity is offered as text/html, " + ", ".join([*FORMATS, PLAIN_JSON]) + ".")
    return "text/html" if media == "application/xhtml+xml" else media


def alternates(name: str) -> str:
    """The Link header of /id/NAME: the page and every RDF representation, by their download links."""
    links = [f'</id/{name}>; rel="alternate"; type="text/html"']
    links += [f'</id/{name}?format={ext}>; rel="alternate"; type="{media}"' for media, (_, ext) in FORMATS.items()]
    return ", ".join(links)


async def options(request: Request) -> Response:
    """What /id/NAME allows (and a CORS preflight's answer)."""
    return Response(status_code=204, headers={"Allow": ALLOWED, "Access-Control-Allow-Methods": ALLOWED,
                                              "Access-Control-Allow-Headers": "Accept"})  # fmt: skip


def triples(store: AnyStore, iri: str) -> list[ox.Triple]:
    node = ox.NamedNode(iri)
    seen: dict[tuple[str, str, str], ox.Triple] = {}
    for q in store.quads_for_pattern(node, None, None):
        seen.setdefault((str(q.subject), str(q.predicate), str(q.object)), ox.Triple(q.subject, q.predicate, q.object))
    return list(seen.values())


def stated(store: AnyStore, iri: str) -> set[tuple[str, str, str]]:
    node = ox.NamedNode(iri)
    return {
        (str(q.subject), str(q.predicate), str(q.object))
        for q in store.quads_for_pattern(node, None, None, ox.NamedNode(GRAPH_DATA))
    }


async def entity(request: Request) -> Response:
    if request.method == "OPTIONS":
        return await options(request)
    kb = request.app.state.kb
    planner = request.app.state.planner
    name = request.path_params["name"]
    iri = kb.site.entity_base + name
    e = planner.engine.entities.get(iri)  # checked first: an unknown name may not even make a valid IRI
    facts = triples(kb.store, iri) if e is not None else []
    if e is None or not facts:
        raise ApiError(404, f"No entity named {name!r} in this portfolio.")
    media = negotiate(request)
    prefixes = PREFIXES | {"id": kb.site.entity_base}
    if media != "text/html":
        fmt, ext = FORMATS["application/ld+json" if media == PLAIN_JSON else media]
        body = ox.serialize(facts, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None)
        headers = {"Vary": "Accept", "Link": alternates(name)}
        if request.query_params.get("format"):
            headers["Content-Disposition"] = f'attachment; filename="{name}.{ext}"'
        return Response(body, media_type=media, headers=headers)
    opened(request, "source")  # an answer's result or source was opened
    catalog = kb.catalog
    facts_run = catalog.run("entity-facts", {"entity": iri})
    neighbours = catalog.run("entity-neighbours", {"entity": iri})
    turtle = (ox.serialize(facts, format=ox.RdfFormat.TURTLE, prefixes=prefixes) or b"").decode()
    explicit = stated(kb.store, iri)
    inferred = [t for t in facts if (str(t.subject), str(t.predicate), str(t.object)) not in explicit]
    context: dict[str, Any] = {
        "entity": e,
        "facts": facts_run,
        "neighbours": neighbours,
        "turtle": turtle,
        "count_stated": len(explicit),
        "count_inferred": len(inferred),
        "article": e.name in kb.articles,
    }  # fmt: skip
    response = page(request, "entity.html", context)
    response.headers["Vary"] = "Accept"
    response.headers["Link"] = alternates(name)
    return response
