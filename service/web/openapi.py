"""The OpenAPI description of the JSON API and the SPARQL endpoint (/openapi.json): every answer typed, so a
generated client gets the Plan's fields, not a bare object. tests/web/test_api.py validates the description and
checks real answers against it."""

from __future__ import annotations

from typing import Any

from service.web.inputs import MAX_BODY, MAX_PAGE, MAX_PER_PAGE, MAX_QUESTION
from service.web.sparql import FORMATS

Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(required: list[str], properties: dict[str, Schema], **more: Any) -> Schema:
    return {"type": "object", "required": required, "properties": properties, **more}


def _null(schema: Schema) -> Schema:
    return {**schema, "nullable": True}


_TEXT: Schema = {"type": "string"}
_INT: Schema = {"type": "integer"}
_TEXTS: Schema = {"type": "array", "items": _TEXT}
_QUESTION: Schema = {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION}

SCHEMAS: dict[str, Schema] = {
    "Error": _object(["error"], {"error": _object(["status", "code", "message"], {
        "status": _INT, "code": _TEXT, "message": _TEXT})}),
    "Resource": _object(["role", "url"], {"role": {"type": "string", "enum": ["about", "live", "source"]},
                                          "url": _TEXT}),
    "Result": _object(["iri", "label", "type", "tier", "score", "resources", "primary"], {
        "iri": _TEXT, "label": _TEXT, "type": _TEXT, "tier": _null(_INT), "score": {"type": "number"},
        "resources": {"type": "array", "items": _ref("Resource")}, "primary": _TEXT}),
    "Source": _object(["id", "kind", "title", "url", "text"], {
        "id": {"type": "string", "pattern": "^S[0-9]+$"},
        "kind": {"type": "string", "enum": ["graph", "passage", "definition"]},
        "title": _TEXT, "url": _TEXT, "text": _TEXT}),
    "Confidence": _object(["level", "score", "label"], {
        "level": {"type": "string", "enum": ["exact", "strong", "weak", "none"]},
        "score": {"type": "integer", "minimum": 0, "maximum": 100},
        "label": {"type": "string", "enum": ["High", "Medium", "Low", "None"]},
        "model_allowed": {"type": "boolean"}}),
    "QueryRun": _object(["name", "file", "query", "rows", "truncated", "ms"], {
        "name": _TEXT, "file": _TEXT, "query": {"type": "string", "description": "the exact text run"},
        "rows": _INT, "truncated": {"type": "boolean"}, "ms": {"type": "number"}}),
    "ResultsPage": _object(["page", "per_page", "pages", "total"], {
        "page": _INT, "per_page": _INT, "pages": _INT, "total": _INT}),
    "Plan": _object(
        ["question", "normalized", "corrections", "intent", "interpretation", "route", "answer", "results",
         "results_total", "ambiguous", "confidence", "sparql", "timing_ms"], {
            "question": _TEXT,
            "normalized": {"type": "string", "description": "after spelling correction and the question before"},
            "corrections": {"type": "array", "items": _object(["from", "to"], {"from": _TEXT, "to": _TEXT})},
            "intent": _TEXT,
            "interpretation": _object(["task", "operation", "entity"], {
                "task": _TEXT, "operation": _TEXT, "entity": _null(_TEXT)}),
            "route": {"type": "string", "description": "the route declaration that answered "
                                                       "(service/language/routes/ROUTE.yaml)"},
            "answer": _null(_object(["text", "sources"], {
                "text": {"type": "string", "description": "sentences citing their sources as [S1]"},
                "sources": {"type": "array", "items": _ref("Source")}})),
            "results": {"type": "array", "items": _ref("Result"), "description": "the page of results asked for"},
            "results_total": {"type": "integer", "description": "how many results the answer has in all"},
            "results_page": _ref("ResultsPage"),
            "ambiguous": {"type": "array", "items": _object(["text", "candidates"], {
                "text": _TEXT, "candidates": _TEXTS})},
            "confidence": _ref("Confidence"),
            "sparql": {"type": "array", "items": _ref("QueryRun"),
                       "description": "the stored queries the answer read, to run again at /sparql"},
            "search": _object(["terms", "expanded"], {"terms": _TEXTS, "expanded": _TEXTS}),
            "period": _null(_object(["start", "end"], {"start": _TEXT, "end": _TEXT})),
            "fallback": _null({"type": "string", "description": "when not covered: what to do instead"}),
            "contact_url": _null(_TEXT),
            "previous": _null(_TEXT),
            "timing_ms": {"type": "number"},
            "trace": {"type": "array", "items": _object(["stage", "text"], {
                "stage": _TEXT, "text": _TEXT, "facts": {"type": "object"}})},
            "generated": _object(["by"], {"by": _TEXT}, description="a model's answer, checked against its sources"),
            "answer_id": {"type": "string", "description": "for /api/opened"},
        }),
    "Preview": _object(["query", "score", "label", "best", "text", "matches", "route"], {
        "query": _TEXT, "score": _INT, "label": _TEXT,
        "route": {"type": "string", "description": "the route the answer to `query` takes (the Plan's route)"},
        "best": _null(_object(["iri", "label", "type", "url"], {
            "iri": _TEXT, "label": _TEXT, "type": _TEXT, "tier": _null(_INT), "url": _TEXT})),
        "text": _TEXT,
        "matches": {"type": "array", "items": _object(["label", "url", "kind"], {
            "label": _TEXT, "url": _TEXT, "kind": _TEXT})}}),
    "Followups": _object(["question", "followups"], {"question": _TEXT, "followups": _TEXTS}),
    "ArticleAnswer": _object(["article", "question", "answered", "score", "label", "passage"], {
        "article": _TEXT, "question": _TEXT, "answered": {"type": "boolean"}, "score": _INT, "label": _TEXT,
        "passage": _null(_object(["id", "heading", "text", "url"], {
            "id": _TEXT, "heading": _TEXT, "text": _TEXT, "url": _TEXT})),
        "fallback": _null(_TEXT), "contact_url": _null(_TEXT)}),
}  # fmt: skip


def _json(schema: Schema, description: str) -> Schema:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERRORS = {str(s): _json(_ref("Error"), d) for s, d in (
    (400, "bad request"), (413, "body too large"), (415, "not JSON"), (422, "invalid input"),
    (429, "too many requests from this client: wait Retry-After seconds"))}  # fmt: skip


def _query(name: str, description: str, schema: Schema, required: bool = False) -> Schema:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


_PAGE = [
    _query("page", "which page of the results, from 1", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}),
    _query("per_page", "results on a page (default: the site's usual number)",
           {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}),
]  # fmt: skip
_ASK = [
    _query("q", "the question", _QUESTION, required=True),
    _query("previous", "the question asked before", {"type": "string", "maxLength": MAX_QUESTION}),
    _query("trace", "1: add `trace`, every step the plan took (spelling, linking, intent, routes tried and undone, "
           "stored queries, fusion, confidence)", {"type": "string", "enum": ["0", "1", "true", "false"]}),
]  # fmt: skip
_ASKED = _object(["question"], {
    "question": _QUESTION, "previous": {"type": "string", "maxLength": MAX_QUESTION}, "trace": {"type": "boolean"},
    "page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}})  # fmt: skip
_BODY = {"required": True, "content": {"application/json": {"schema": _ASKED}}}
_SPARQL_PARAMS = [
    _query("query", "a SPARQL 1.1 query (without it: the service description)", _TEXT),
    _query("default-graph-uri", "a graph to use as the default graph (repeatable)", _TEXT),
    _query("named-graph-uri", "a graph GRAPH can name (repeatable)", _TEXT),
    _query("format", "the result format, instead of an Accept header",
           {"type": "string", "enum": sorted(FORMATS)}),
]  # fmt: skip
_SPARQL_RESULTS = {
    "description": "the results in the format asked for (Accept or `format`): SELECT and ASK as SPARQL results "
                   "(JSON, XML, CSV, TSV), CONSTRUCT and DESCRIBE as a graph (Turtle, N-Triples, JSON-LD, RDF/XML)",
    "content": {media: {"schema": {"type": "string" if "json" not in media else "object"}} for media in (
        "application/sparql-results+json", "application/sparql-results+xml", "text/csv",
        "text/tab-separated-values", "text/turtle", "application/n-triples", "application/ld+json",
        "application/rdf+xml")},
}  # fmt: skip
_SPARQL_ERRORS = {
    "400": {"description": "not a query, or not one this endpoint runs (updates, SERVICE)"},
    "406": {"description": "no format it can give that the Accept header allows"},
    "429": {"description": "this client used its share of query time: wait Retry-After seconds"},
    "503": {"description": "busy, or the query was stopped for others: wait Retry-After seconds"},
}


def spec() -> dict[str, Any]:
    plan = _json(_ref("Plan"), "the Plan (docs/ARCHITECTURE.md); `Link` gives the previous and next pages")
    return {
        "openapi": "3.0.3",
        "info": {"title": "Portfolio question engine", "version": "1.1.0",
                 "description": f"Ask questions about the portfolio. Bodies are limited to {MAX_BODY} bytes."},
        "paths": {
            "/api/ask": {
                "get": {"summary": "Plan a question", "operationId": "ask", "parameters": [*_ASK, *_PAGE],
                        "responses": {"200": plan, **_ERRORS}},
                "post": {"summary": "Plan a question", "operationId": "askPosted", "requestBody": _BODY,
                         "responses": {"200": plan, **_ERRORS}},
            },
            "/api/preview": {"get": {
                "summary": "The live preview strip: the route, confidence and first result of the answer to the words "
                           "typed so far, and the next few matches", "operationId": "preview",
                "parameters": [_query("q", "the words typed so far", {"type": "string", "maxLength": MAX_QUESTION})],
                "responses": {"200": _json(_ref("Preview"), "best match, label, score, matches"), **_ERRORS}}},
            "/api/article": {"get": {
                "summary": "Ask one wiki article: its best passage for the question, or not covered",
                "operationId": "askArticle",
                "parameters": [_query("name", "the article, as in /wiki/NAME", _TEXT, required=True),
                               _query("q", "the question", _QUESTION, required=True)],
                "responses": {"200": _json(_ref("ArticleAnswer"), "the passage, or not covered"),
                              "404": _json(_ref("Error"), "no such article"), **_ERRORS}}},
            "/api/next": {"post": {
                "summary": "Follow-up questions, each checked to be answerable", "operationId": "next",
                "requestBody": _BODY, "responses": {"200": _json(_ref("Followups"), "the follow-ups"), **_ERRORS}}},
            "/api/opened": {"post": {
                "summary": "Say that a source or follow-up of an answer was opened (for the question log)",
                "operationId": "opened",
                "requestBody": {"required": True, "content": {"application/json": {"schema": _object(
                    ["answer", "kind"], {"answer": {"type": "string", "description": "the answer_id /api/ask returned"},
                                         "kind": {"type": "string", "enum": ["source", "followup"]}})}}},
                "responses": {"204": {"description": "noted"}, **_ERRORS}}},
            "/sparql": {
                "get": {"summary": "SPARQL 1.1 Protocol: a read-only query", "operationId": "sparql",
                        "parameters": _SPARQL_PARAMS, "responses": {"200": _SPARQL_RESULTS, **_SPARQL_ERRORS}},
                "post": {"summary": "SPARQL 1.1 Protocol: a query sent as a form or as application/sparql-query",
                         "operationId": "sparqlPosted",
                         "requestBody": {"required": True, "content": {
                             "application/sparql-query": {"schema": _TEXT},
                             "application/x-www-form-urlencoded": {"schema": _object(["query"], {
                                 "query": _TEXT, "default-graph-uri": _TEXT, "named-graph-uri": _TEXT})}}},
                         "responses": {"200": _SPARQL_RESULTS, **_SPARQL_ERRORS}},
            },
            "/healthz": {"get": {"summary": "Liveness, ontology version, build time, question log counts",
                                 "operationId": "health", "responses": {"200": {"description": "ok"}}}},
        },
        "components": {"schemas": SCHEMAS},
    }  # fmt: skip
