"""Entity IRIs as Linked Data: /id/NAME answers HTML to browsers and Turtle, N-Triples or JSON-LD to clients
that ask for them (Accept header, or ?format=ttl|nt|jsonld for a download link)."""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from service.accept import choose
from service.vocab import GRAPH_DATA, PF
from service.web.asked import opened
from service.web.errors import ApiError
from service.web.templating import page

FORMATS = {
    "text/turtle": (ox.RdfFormat.TURTLE, "ttl"),
    "application/n-triples": (ox.RdfFormat.N_TRIPLES, "nt"),
    "application/ld+json": (ox.RdfFormat.JSON_LD, "jsonld"),
}
BY_EXTENSION = {ext: media for media, (_, ext) in FORMATS.items()}
PREFIXES = {
    "pf": PF,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "schema": "https://schema.org/",
    "dcterms": "http://purl.org/dc/terms/",
}


def negotiate(request: Request) -> str:
    """The media type to answer with: ?format= first, then the Accept header by quality, HTML by default."""
    fmt = request.query_params.get("format")
    if fmt:
        if fmt not in BY_EXTENSION:
            raise ApiError(406, f"format={fmt!r} is not offered: use one of {', '.join(BY_EXTENSION)}.")
        return BY_EXTENSION[fmt]
    offers = {"text/html": None, "application/xhtml+xml": None, **FORMATS}
    media = choose(request.headers.get("accept", ""), offers, "text/html")
    if media is None:
        raise ApiError(406, "This entity is offered as text/html, " + ", ".join(FORMATS) + ".")
    return "text/html" if media == "application/xhtml+xml" else media


def triples(store: ox.Store, iri: str) -> list[ox.Triple]:
    node = ox.NamedNode(iri)
    seen: dict[tuple[str, str, str], ox.Triple] = {}
    for q in store.quads_for_pattern(node, None, None):
        seen.setdefault((str(q.subject), str(q.predicate), str(q.object)), ox.Triple(q.subject, q.predicate, q.object))
    return list(seen.values())


def stated(store: ox.Store, iri: str) -> set[tuple[str, str, str]]:
    node = ox.NamedNode(iri)
    return {
        (str(q.subject), str(q.predicate), str(q.object))
        for q in store.quads_for_pattern(node, None, None, ox.NamedNode(GRAPH_DATA))
    }


async def entity(request: Request) -> Response:
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
        fmt, ext = FORMATS[media]
        body = ox.serialize(facts, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None)
        headers = {"Vary": "Accept", "Access-Control-Allow-Origin": "*"}
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
    return response
