"""The <head> of an entity page and of a wiki article: the canonical address, OpenGraph tags, and schema.org
JSON-LD, so a search engine or a link preview reads what the page is about.

The JSON-LD is the graph's own: the reasoner has already entailed the schema.org classes and properties the
ontology maps its own to (pf:Person is schema:Person, pf:startDate a sub-property of schema:startDate, ...), so
an entity's schema.org statements are the ones in its facts whose class or property is in schema.org.
"""

from __future__ import annotations

import json
from typing import Any

import pyoxigraph as ox
from markupsafe import Markup, escape
from starlette.requests import Request

from service.kb import KB
from service.web.linkeddata import triples

SCHEMA = "https://schema.org/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
OG_TYPES = {"person": "profile"}  # an entity's kind -> og:type (others are "website")
PRIVATE = {SCHEMA + "telephone", SCHEMA + "birthDate", SCHEMA + "address"}  # never shown, even if stated


def _script(doc: dict[str, Any]) -> str:
    """A JSON-LD data block that cannot end the <script> element early."""
    text = json.dumps(doc, ensure_ascii=False, sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/ld+json">{text}</script>'


def _value(term: object) -> object:
    if isinstance(term, ox.NamedNode):
        return {"@id": term.value}
    if isinstance(term, ox.Literal):
        return term.value
    return None


def schema_of(kb: KB, iri: str) -> dict[str, Any]:
    """The entity's schema.org statements as one JSON-LD node."""
    node: dict[str, Any] = {"@id": iri}
    types: list[str] = []
    for t in triples(kb.store, iri):
        p, o = t.predicate.value, t.object
        if p == RDF_TYPE and isinstance(o, ox.NamedNode) and o.value.startswith(SCHEMA):
            types.append(o.value.removeprefix(SCHEMA))
        elif p.startswith(SCHEMA) and p not in PRIVATE and (value := _value(o)) is not None:
            key = p.removeprefix(SCHEMA)
            node.setdefault(key, [])
            if value not in node[key]:
                node[key].append(value)
    for key, values in list(node.items()):
        if isinstance(values, list):
            node[key] = sorted(values, key=str) if len(values) > 1 else values[0]
    if types:
        node["@type"] = sorted(set(types)) if len(set(types)) > 1 else types[0]
    return node


def _tags(canonical: str, title: str, description: str, og_type: str, site_name: str) -> list[str]:
    tags = [f'<link rel="canonical" href="{escape(canonical)}">',
            f'<meta property="og:title" content="{escape(title)}">',
            f'<meta property="og:type" content="{escape(og_type)}">',
            f'<meta property="og:url" content="{escape(canonical)}">',
            f'<meta property="og:site_name" content="{escape(site_name)}">']  # fmt: skip
    if description:
        tags += [f'<meta name="description" content="{escape(description)}">',
                 f'<meta property="og:description" content="{escape(description)}">']  # fmt: skip
    return tags


def entity_head(request: Request, entity: Any) -> Markup:
    kb: KB = request.app.state.kb
    canonical = f"{kb.site.public_base}id/{entity.name}"
    doc = {"@context": SCHEMA, **schema_of(kb, entity.iri), "name": entity.label, "url": canonical,
           "mainEntityOfPage": canonical}  # fmt: skip
    if entity.description:
        doc["description"] = entity.description
    tags = _tags(canonical, entity.label, entity.description, OG_TYPES.get(entity.kind, "website"), kb.site.name)
    return Markup("\n".join([*tags, _script(doc)]))


def article_head(request: Request, name: str, title: str, entity: Any) -> Markup:
    kb: KB = request.app.state.kb
    base = kb.site.public_base
    canonical = f"{base}wiki/{name}"
    person = kb.site.entity_base + kb.site.person
    description = entity.description if entity is not None else ""
    doc: dict[str, Any] = {
        "@context": SCHEMA,
        "@type": "Article",
        "@id": canonical,
        "url": canonical,
        "headline": title,
        "name": title,
        "author": {"@id": person, "name": kb.site.person_name or kb.site.person},
        "isPartOf": {"@type": "WebSite", "name": kb.site.name, "url": base},
        "inLanguage": "en",
    }
    if kb.manifest.get("built_at"):
        doc["dateModified"] = kb.manifest["built_at"]
    if entity is not None:
        doc["about"] = schema_of(kb, entity.iri) | {"name": entity.label}
    if description:
        doc["description"] = description
    return Markup("\n".join([*_tags(canonical, title, description, "article", kb.site.name), _script(doc)]))
