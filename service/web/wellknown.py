"""What a crawler or a Linked Data client looks for first: the VoID description of the dataset
(/.well-known/void), the whole graph as files (/dump/, written at build time: service/kb/dump.py), the sitemap
of every entity page and article, and robots.txt.

Addresses are the site's own (`base_url` in site.yaml, else entity_base without its `id/`): the sitemap and
VoID name the pages where the site is published, whichever address a request came by.
"""

from __future__ import annotations

import base64
from typing import Any
from xml.sax.saxutils import escape

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from service.accept import choose
from service.kb import KB
from service.kb.layout import DUMP_DIR, GRAPHS
from service.sparql.results import GRAPH_TYPES
from service.vocab import PF, PREFIXES
from service.web.errors import ApiError
from service.web.templating import page

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
VOID = "http://rdfs.org/ns/void#"
DCTERMS = "http://purl.org/dc/terms/"
DCAT = "http://www.w3.org/ns/dcat#"
SPDX = "http://spdx.org/rdf/terms#"
FOAF = "http://xmlns.com/foaf/0.1/"
XSD = "http://www.w3.org/2001/XMLSchema#"
VOID_PATH = ".well-known/void"
DISALLOWED = ("/api/", "/-/", "/sparql?", "/console?", "/lab?", "/?")  # asks, queries, the owner: not for crawlers


def _n(iri: str) -> ox.NamedNode:
    return ox.NamedNode(iri)


def _int(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=_n(XSD + "integer"))


def _hex(digest: str) -> ox.Literal:
    return ox.Literal(digest, datatype=_n(XSD + "hexBinary"))


def dataset_iri(kb: KB) -> str:
    return kb.site.public_base + VOID_PATH + "#dataset"


def dumps(kb: KB) -> dict[str, dict[str, Any]]:
    """The build's dump files by name (none for a KB built before dumps were written)."""
    listed: dict[str, dict[str, Any]] = kb.manifest.get("dumps", {})
    return listed


def dataset_triples(kb: KB, endpoint: str) -> list[ox.Triple]:
    """The dataset in VoID: its size, entities, vocabulary, licence, example resource, endpoint, class and property
    partitions, dumps (with size and SHA-256), and a subset per named graph; the service description links the
    same dataset."""
    base = kb.site.public_base
    ds = _n(dataset_iri(kb))
    counts = kb.manifest.get("counts", {})
    triples = counts.get("triples", {})
    out = [
        ox.Triple(ds, _n(RDF_TYPE), _n(VOID + "Dataset")),
        ox.Triple(ds, _n(DCTERMS + "title"), ox.Literal(kb.site.name)),
        ox.Triple(ds, _n(FOAF + "homepage"), _n(base)),
        ox.Triple(ds, _n(VOID + "sparqlEndpoint"), _n(endpoint)),
        ox.Triple(ds, _n(VOID + "uriSpace"), ox.Literal(kb.site.entity_base)),
        ox.Triple(ds, _n(VOID + "vocabulary"), _n(PF)),
        ox.Triple(ds, _n(VOID + "rootResource"), _n(kb.site.entity_base + kb.site.person)),
        ox.Triple(ds, _n(VOID + "exampleResource"), _n(kb.site.entity_base + kb.site.person)),
        ox.Triple(ds, _n(VOID + "feature"), _n("http://www.w3.org/ns/formats/Turtle")),
        ox.Triple(ds, _n(VOID + "feature"), _n("http://www.w3.org/ns/formats/N-Triples")),
        ox.Triple(ds, _n(VOID + "triples"), _int(int(triples.get("store", 0)))),
        ox.Triple(ds, _n(VOID + "entities"), _int(int(counts.get("entities", 0)))),
    ]
    if kb.site.license:
        out.append(ox.Triple(ds, _n(DCTERMS + "license"), _n(kb.site.license)))
    for iri, entities in counts.get("class_partitions", {}).items():
        part = ox.BlankNode()
        out += [ox.Triple(ds, _n(VOID + "classPartition"), part), ox.Triple(part, _n(VOID + "class"), _n(iri)),
                ox.Triple(part, _n(VOID + "entities"), _int(int(entities)))]  # fmt: skip
    for iri, count in counts.get("property_partitions", {}).items():
        part = ox.BlankNode()
        out += [ox.Triple(ds, _n(VOID + "propertyPartition"), part), ox.Triple(part, _n(VOID + "property"), _n(iri)),
                ox.Triple(part, _n(VOID + "triples"), _int(int(count)))]  # fmt: skip
    if kb.manifest.get("built_at"):
        out.append(ox.Triple(ds, _n(DCTERMS + "modified"),
                             ox.Literal(kb.manifest["built_at"], datatype=_n(XSD + "dateTime"))))  # fmt: skip
    sizes = {"ontology": triples.get("ontology"), "stated": triples.get("stated"), "inferred": triples.get("inferred")}
    for role, graph in GRAPHS.items():
        subset = _n(f"{base}{VOID_PATH}#{role}")
        out += [
            ox.Triple(ds, _n(VOID + "subset"), subset),
            ox.Triple(subset, _n(RDF_TYPE), _n(VOID + "Dataset")),
            ox.Triple(subset, _n(DCTERMS + "title"), ox.Literal(f"{kb.site.name}: the {role} graph")),
            ox.Triple(subset, _n("http://www.w3.org/ns/sparql-service-description#name"), _n(graph)),
        ]
        if sizes[role] is not None:
            out.append(ox.Triple(subset, _n(VOID + "triples"), _int(int(sizes[role]))))
        for name, d in dumps(kb).items():
            if d["role"] == role:
                out += [ox.Triple(subset, _n(VOID + "dataDump"), _n(f"{base}{DUMP_DIR}/{name}"))]
    for name, d in dumps(kb).items():
        file = _n(f"{base}{DUMP_DIR}/{name}")
        checksum = ox.BlankNode()
        out += [
            ox.Triple(ds, _n(VOID + "dataDump"), file),
            ox.Triple(file, _n(DCTERMS + "format"), ox.Literal(d["media_type"])),
            ox.Triple(file, _n(DCAT + "mediaType"), ox.Literal(d["media_type"])),
            ox.Triple(file, _n(DCAT + "compressFormat"), ox.Literal("application/gzip")),
            ox.Triple(file, _n(DCAT + "byteSize"), _int(int(d["bytes"]))),
            ox.Triple(file, _n(VOID + "triples"), _int(int(d["triples"]))),
            ox.Triple(file, _n(SPDX + "checksum"), checksum),
            ox.Triple(checksum, _n(SPDX + "algorithm"), _n(SPDX + "checksumAlgorithm_sha256")),
            ox.Triple(checksum, _n(SPDX + "checksumValue"), _hex(d["sha256"])),
        ]  # fmt: skip
    return out


def rdf_response(request: Request, triples: list[ox.Triple], prefixes: dict[str, str]) -> Response:
    """Triples as Turtle, N-Triples, JSON-LD or RDF/XML, by the Accept header (Turtle by default)."""
    media = choose(request.headers.get("accept", ""), GRAPH_TYPES, "text/turtle")
    if media is None:
        raise ApiError(406, "This is offered as " + ", ".join(GRAPH_TYPES) + ".")
    fmt = GRAPH_TYPES[media]
    body = ox.serialize(triples, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TURTLE else None)
    return Response(body or b"", media_type=media, headers={"Vary": "Accept"})


VOID_PREFIXES = PREFIXES | {"void": VOID, "dcat": DCAT, "spdx": SPDX, "foaf": FOAF,
                            "sd": "http://www.w3.org/ns/sparql-service-description#"}  # fmt: skip


async def void(request: Request) -> Response:
    kb: KB = request.app.state.kb
    return rdf_response(request, dataset_triples(kb, kb.site.public_base + "sparql"), VOID_PREFIXES)


async def dump_listing(request: Request) -> Response:
    """Every dump file with its graph, format, triple count, size and SHA-256: JSON, or a page for a browser
    (Accept preferring HTML; ?format=json or html says which)."""
    kb: KB = request.app.state.kb
    base = kb.site.public_base
    files = [{"name": name, "url": f"{base}{DUMP_DIR}/{name}", **d} for name, d in sorted(dumps(kb).items())]
    doc = {"build": kb.digest, "built_at": kb.manifest.get("built_at"), "files": files, "void": base + VOID_PATH}
    asked = request.query_params.get("format", "")
    chosen = choose(request.headers.get("accept", ""), ("application/json", "text/html"), "application/json")
    if asked == "html" or (asked != "json" and chosen == "text/html"):
        return page(request, "dumps.html", doc, headers={"Vary": "Accept"})
    return JSONResponse(doc, headers={"Vary": "Accept"})


async def dump_file(request: Request) -> Response:
    kb: KB = request.app.state.kb
    name = request.path_params["name"]
    d = dumps(kb).get(name)
    if d is None:
        raise ApiError(404, f"No dump named {name!r}: /dump/ lists them.")
    digest = base64.b64encode(bytes.fromhex(d["sha256"])).decode()
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "Repr-Digest": f"sha-256=:{digest}:"}
    return FileResponse(kb.path / DUMP_DIR / name, media_type="application/gzip", headers=headers)


async def sitemap(request: Request) -> Response:
    """Every entity page and every wiki article, under the site's own address."""
    kb: KB = request.app.state.kb
    base, entity_base = kb.site.public_base, kb.site.entity_base  # /id/NAME serves entity_base + NAME
    modified = str(kb.manifest.get("built_at", ""))[:10]
    names = sorted(e.name for e in request.app.state.planner.engine.entities.values() if e.iri.startswith(entity_base))
    pages = [f"{base}id/{name}" for name in names]
    pages += [f"{base}wiki/{name}" for name in sorted(kb.articles)]
    lastmod = f"<lastmod>{modified}</lastmod>" if modified else ""
    rows = "".join(f"<url><loc>{escape(url)}</loc>{lastmod}</url>\n" for url in [base, *pages])
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{rows}</urlset>\n')  # fmt: skip
    return Response(body, media_type="application/xml")


async def robots(request: Request) -> Response:
    kb: KB = request.app.state.kb
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {path}" for path in DISALLOWED), "",
             f"Sitemap: {kb.site.public_base}sitemap.xml", ""]  # fmt: skip
    return Response("\n".join(lines), media_type="text/plain")
