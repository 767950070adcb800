"""/sparql as Python users reach it: the real SPARQLWrapper library with its default settings (it sends `format`,
`output` and `results` parameters along with its Accept header), and the Accept headers of Jena, rdflib and
Comunica; the service description a client reads first. Against a real uvicorn server over the demo KB."""

from __future__ import annotations

import csv
import io
import json
import warnings
from typing import Any
from xml.dom.minidom import Document

import httpx
import pyoxigraph as ox
import pytest
import rdflib
from SPARQLWrapper import (
    CSV,
    GET,
    JSON,
    JSONLD,
    N3,
    POST,
    POSTDIRECTLY,
    RDFXML,
    TSV,
    TURTLE,
    URLENCODED,
    XML,
    SPARQLWrapper,
)

SELECT = "PREFIX pf: <https://folio.example/ns#> SELECT ?s ?label WHERE { ?s a pf:Person ; rdfs:label ?label } LIMIT 5"
ASK = "ASK { ?s a <https://folio.example/ns#Person> }"
CONSTRUCT = "CONSTRUCT { ?s a ?c } WHERE { ?s a ?c } LIMIT 7"
DESCRIBE = "DESCRIBE ?s WHERE { ?s a <https://folio.example/ns#Person> } LIMIT 1"
CALLS = [(GET, URLENCODED), (POST, URLENCODED), (POST, POSTDIRECTLY)]
CALL_IDS = ["GET", "POST-form", "POST-direct"]
# SPARQLWrapper's RDF readers and rdflib's own JSON-LD parser use ConjunctiveGraph, which rdflib 7 deprecates
RDFLIB_OWN = pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")


def _wrapper(server: str, query: str, fmt: str, method: str, how: str) -> SPARQLWrapper:
    w = SPARQLWrapper(server + "/sparql")
    w.setQuery(query)
    w.setReturnFormat(fmt)
    w.setMethod(method)
    w.setRequestMethod(how)
    return w


def _rows(fmt: str, result: Any) -> list[dict[str, str]] | bool:
    """SELECT rows or the ASK boolean, from what SPARQLWrapper's convert() gave."""
    if fmt == JSON:
        assert isinstance(result, dict)
        if "boolean" in result:
            return bool(result["boolean"])
        return [{k: v["value"] for k, v in b.items()} for b in result["results"]["bindings"]]
    if fmt == XML:
        assert isinstance(result, Document)
        booleans = result.getElementsByTagName("boolean")
        if booleans:
            return booleans[0].firstChild.nodeValue == "true"  # type: ignore[union-attr]
        return [{b.getAttribute("name"): b.firstChild.firstChild.nodeValue  # type: ignore[union-attr,misc]
                 for b in r.getElementsByTagName("binding")} for r in result.getElementsByTagName("result")]
    text = result.decode() if isinstance(result, bytes) else str(result)
    table = list(csv.reader(io.StringIO(text), delimiter="," if fmt == CSV else "\t"))
    if len(table) <= 2 and table[-1] and table[-1][0] in ("true", "false"):  # an ASK result
        return table[-1][0] == "true"
    head = [h.lstrip("?") for h in table[0]]
    return [{h: cell.strip('"').split('"@')[0].strip("<>") for h, cell in zip(head, row, strict=True)}
            for row in table[1:]]  # fmt: skip


@pytest.mark.parametrize(("method", "how"), CALLS, ids=CALL_IDS)
@pytest.mark.parametrize("fmt", [JSON, XML, CSV, TSV])
def test_select_and_ask_in_every_format_sparqlwrapper_offers(server: str, fmt: str, method: str, how: str) -> None:
    result = _wrapper(server, SELECT, fmt, method, how).query()
    rows = _rows(fmt, result.convert())
    assert isinstance(rows, list) and len(rows) == 1, rows
    assert rows[0]["s"] == "https://inescalder.example/id/InesCalder" and "Ines Calder" in rows[0]["label"]
    asked = _wrapper(server, ASK, fmt, method, how).query()
    assert _rows(fmt, asked.convert()) is True


@RDFLIB_OWN
@pytest.mark.parametrize(("method", "how"), CALLS, ids=CALL_IDS)
@pytest.mark.parametrize("fmt", [TURTLE, N3, RDFXML, XML, JSONLD])
@pytest.mark.parametrize("query", [CONSTRUCT, DESCRIBE], ids=["CONSTRUCT", "DESCRIBE"])
def test_construct_and_describe_in_every_format_sparqlwrapper_offers(server: str, query: str, fmt: str, method: str,
                                                                      how: str) -> None:  # fmt: skip
    result = _wrapper(server, query, fmt, method, how).query()
    converted = result.convert()
    if isinstance(converted, bytes):  # Turtle and N3: SPARQLWrapper hands back the text
        graph = rdflib.Graph().parse(data=converted.decode(), format="turtle")
    else:
        assert isinstance(converted, rdflib.Graph)
        graph = converted
    assert len(graph) == (7 if query == CONSTRUCT else len(graph)) and len(graph) > 0
    if query == DESCRIBE:
        assert rdflib.URIRef("https://inescalder.example/id/InesCalder") in set(graph.subjects())


JENA_SELECT = ("application/sparql-results+json, application/sparql-results+xml;q=0.9, text/tab-separated-values;q=0.7,"
               " text/csv;q=0.5, application/json;q=0.2, application/xml;q=0.2, */*;q=0.1")  # fmt: skip
JENA_GRAPH = "text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.7, */*;q=0.5"
ACCEPTS = [  # (client, query, Accept, media type answered)
    ("jena", SELECT, JENA_SELECT, "application/sparql-results+json"),
    ("jena", ASK, "application/sparql-results+json, application/sparql-results+xml;q=0.9, */*;q=0.1",
     "application/sparql-results+json"),
    ("jena", CONSTRUCT, JENA_GRAPH, "text/turtle"),
    ("rdflib", SELECT, "application/sparql-results+xml", "application/sparql-results+xml"),
    ("rdflib", CONSTRUCT, "application/rdf+xml", "application/rdf+xml"),
    ("comunica", SELECT, "application/sparql-results+json", "application/sparql-results+json"),
    ("comunica", CONSTRUCT, "application/n-triples,text/turtle;q=0.9,*/*;q=0.1", "application/n-triples"),
    ("browser", SELECT, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/xml"),
    ("text-star", SELECT, "text/*", "text/csv"),
    ("text-star", CONSTRUCT, "text/*", "text/turtle"),
    ("star", SELECT, "*/*", "application/sparql-results+json"),
    ("star", CONSTRUCT, "*/*", "text/turtle"),
    ("java", SELECT, "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2", "application/sparql-results+json"),
    ("refuses-csv", SELECT, "text/csv;q=0, text/*", "text/tab-separated-values"),
    ("specific-wins", SELECT, "text/*;q=0.2, text/tab-separated-values;q=0.9, */*;q=0.1", "text/tab-separated-values"),
]  # fmt: skip


@pytest.mark.parametrize(("client", "query", "accept", "media"), ACCEPTS,
                         ids=[f"{a[0]}-{a[1].split()[0]}" for a in ACCEPTS])  # fmt: skip
def test_accept_headers_of_real_clients(http: httpx.Client, client: str, query: str, accept: str, media: str) -> None:
    response = http.get("/sparql", params={"query": query}, headers={"Accept": accept})
    assert response.status_code == 200, (client, response.text)
    assert response.headers["content-type"].split(";")[0] == media


def test_an_accept_header_offering_nothing_we_have_is_406_with_cors(http: httpx.Client) -> None:
    response = http.get("/sparql", params={"query": SELECT}, headers={"Accept": "image/png"})
    assert response.status_code == 406 and response.headers["access-control-allow-origin"] == "*"
    assert "offered" in response.json()["error"]["message"]


@pytest.mark.parametrize(("params", "media"), [
    ({"format": "tsv", "output": "tsv"}, "text/tab-separated-values"),
    ({"format": ["tsv", "text/tab-separated-values"]}, "text/tab-separated-values"),
    ({"output": "application/sparql-results+xml"}, "application/sparql-results+xml"),
    ({"format": "json", "output": "application/json"}, "application/sparql-results+json"),
])  # fmt: skip
def test_format_and_output_parameters_that_agree(http: httpx.Client, params: dict[str, Any], media: str) -> None:
    response = http.get("/sparql", params={"query": SELECT, **params})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].split(";")[0] == media


def test_format_parameters_that_disagree_are_400(http: httpx.Client) -> None:
    response = http.get("/sparql", params={"query": SELECT, "format": "json", "output": "csv"})
    assert response.status_code == 400
    assert "format=json and output=csv" in response.json()["error"]["message"]


def test_a_post_without_content_type_is_415(http: httpx.Client) -> None:
    """The W3C tests bad_query_missing_form_type and bad_query_missing_direct_type, on the whole app."""
    for body in (b"query=ASK%20%7B%7D", b"ASK {}"):
        response = http.post("/sparql", content=body, headers={"Content-Type": ""})
        assert response.status_code == 415 and response.headers["access-control-allow-origin"] == "*"


SD = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
VOID = rdflib.Namespace("http://rdfs.org/ns/void#")


@RDFLIB_OWN
@pytest.mark.parametrize("media", ["text/turtle", "application/rdf+xml", "application/ld+json",
                                   "application/n-triples"])  # fmt: skip
def test_the_service_description_is_complete(http: httpx.Client, media: str) -> None:
    response = http.get("/sparql", headers={"Accept": media})
    assert response.status_code == 200 and response.headers["content-type"].startswith(media)
    g = rdflib.Graph().parse(data=response.content, format={"text/turtle": "turtle", "application/rdf+xml": "xml",
                                                            "application/ld+json": "json-ld",
                                                            "application/n-triples": "nt"}[media])  # fmt: skip
    service = g.value(predicate=rdflib.RDF.type, object=SD.Service)
    assert service is not None
    assert g.value(service, SD.defaultEntailmentRegime) == rdflib.URIRef("http://www.w3.org/ns/entailment/OWL-RDF-Based")
    assert g.value(service, SD.defaultSupportedEntailmentProfile) == rdflib.URIRef("http://www.w3.org/ns/owl-profile/RL")
    formats = {str(f).rsplit("/", 1)[-1] for f in g.objects(service, SD.resultFormat)}
    assert {"SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV", "Turtle",
            "RDF_XML", "JSON-LD", "N-Triples"} <= formats  # fmt: skip
    dataset = g.value(service, SD.defaultDataset)
    default = g.value(dataset, SD.defaultGraph)
    store = int(str(g.value(default, VOID.triples)))
    names = {str(g.value(n, SD.name)): int(str(g.value(g.value(n, SD.graph), VOID.triples)))
             for n in g.objects(dataset, SD.namedGraph)}  # fmt: skip
    assert set(names) == {"https://folio.example/graph/ontology", "https://folio.example/graph/data",
                          "https://folio.example/graph/inferred"}  # fmt: skip
    assert sum(names.values()) == store
    count = json.loads(http.get("/sparql", params={"query": "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }"}).text)
    assert int(count["results"]["bindings"][0]["n"]["value"]) == store  # the union the queries see
    assert str(g.value(service, rdflib.RDFS.seeAlso)).endswith("/.well-known/void")
    assert len(list(g.objects(dataset, VOID.dataDump))) == 8  # each graph in two formats, and all of them in two
    assert list(ox.parse(response.content, format=ox.RdfFormat.from_media_type(media)))  # pyoxigraph reads it too


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.mark.parametrize(("headers", "params", "where"), [
    ({"Accept": BROWSER, "Sec-Fetch-Dest": "document"}, {"query": SELECT}, "/console?query="),
    ({"Accept": BROWSER, "Sec-Fetch-Dest": "document"}, {}, "/console"),
    ({"Accept": "text/html"}, {"query": SELECT}, "/console?query="),  # was 406
])  # fmt: skip
def test_a_person_in_a_browser_gets_the_console(http: httpx.Client, headers: dict[str, str], params: dict[str, str],
                                                where: str) -> None:  # fmt: skip
    """Issue 38, point 5: /sparql in a browser showed raw XML (with a query) or Turtle (without one)."""
    response = http.get("/sparql", params=params, headers=headers)
    assert response.status_code == 303 and response.headers["location"].startswith(where)
    assert "Sec-Fetch-Dest" in response.headers["vary"]
    if params:
        followed = http.get(response.headers["location"], headers=headers)
        assert followed.status_code == 200 and "<textarea" in followed.text
    downloaded = http.get("/sparql", params={**params, "format": "json"}, headers=headers)
    assert downloaded.status_code == 200  # a download link still downloads


@pytest.mark.parametrize("fmt", ["json", "xml", "csv", "tsv"])
def test_rdflib_sparqlstore_gets_a_graph_whatever_result_format_it_is_set_to(server: str, fmt: str) -> None:
    """Issue 38, point 7: rdflib's SPARQLStore asks every query in its result format; a CONSTRUCT asked in SPARQL
    JSON got 406. It now gets the graph format of the same family (JSON-LD, RDF/XML, else Turtle)."""
    from rdflib.plugins.stores.sparqlstore import SPARQLStore  # noqa: PLC0415  # a test-only client

    store = SPARQLStore(server + "/sparql", returnFormat=fmt)
    with warnings.catch_warnings():  # rdflib's JSON-LD parser uses its own deprecated ConjunctiveGraph
        warnings.simplefilter("ignore", DeprecationWarning)
        assert len(list(store.query(CONSTRUCT))) == 7
