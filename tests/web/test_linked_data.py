"""The site as Linked Data clients and crawlers use it, on both portfolios over a real uvicorn server: /id/ in
every RDF format with its Link header and OPTIONS, CORS on every response (errors too), the dump with its
size and digest, VoID, the sitemap and robots.txt, schema.org JSON-LD with canonical and OpenGraph tags, and
ETag / Cache-Control with 304, the tag changing when a new build lands."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path
from xml.etree import ElementTree

import httpx
import pyoxigraph as ox
import pytest
import rdflib

from service.engine import load
from service.errors import ProblemsFound
from service.kb import KB
from service.kb.build import build
from tests.conftest import copy_inputs, quiet
from tests.web.conftest import serving

VOID = rdflib.Namespace("http://rdfs.org/ns/void#")
DCTERMS = rdflib.namespace.DCTERMS
SPDX = rdflib.Namespace("http://spdx.org/rdf/terms#")
DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")


class Site:
    def __init__(self, base: str, kb: KB) -> None:
        self.base, self.kb = base, kb
        self.client = httpx.Client(base_url=base, timeout=30)
        self.public = kb.site.public_base

    def local(self, url: str) -> str:
        """A URL under the site's public address, as a path on the test server."""
        assert url.startswith(self.public), url
        return "/" + url.removeprefix(self.public)


@pytest.fixture(scope="module", params=["demo", "mateo"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    kb_path: Path = request.getfixturevalue("demo_kb_path" if request.param == "demo" else "mateo_kb_path")
    with serving(kb_path, tmp_path_factory.mktemp(f"ld-{request.param}")) as base:
        s = Site(base, KB.open(kb_path))
        yield s
        s.client.close()


def person(site: Site) -> str:
    return site.kb.site.person


@pytest.mark.parametrize(("accept", "media", "fmt"), [
    ("application/rdf+xml", "application/rdf+xml", ox.RdfFormat.RDF_XML),
    ("application/json", "application/json", ox.RdfFormat.JSON_LD),
    ("application/ld+json", "application/ld+json", ox.RdfFormat.JSON_LD),
    ("text/turtle", "text/turtle", ox.RdfFormat.TURTLE),
    ("application/n-triples", "application/n-triples", ox.RdfFormat.N_TRIPLES),
    ("text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, */*;q=0.5", "text/turtle",
     ox.RdfFormat.TURTLE),
])  # fmt: skip
def test_an_entity_in_every_rdf_format(site: Site, accept: str, media: str, fmt: ox.RdfFormat) -> None:
    response = site.client.get(f"/id/{person(site)}", headers={"Accept": accept})
    assert response.status_code == 200 and response.headers["content-type"].split(";")[0] == media
    iri = site.kb.site.entity_base + person(site)
    assert any(t.subject == ox.NamedNode(iri) for t in ox.parse(response.content, format=fmt))
    links = response.headers["link"]
    assert f'</id/{person(site)}?format=rdf>; rel="alternate"; type="application/rdf+xml"' in links
    assert f'</id/{person(site)}>; rel="alternate"; type="text/html"' in links


def test_the_entity_page_links_its_representations_and_answers_options(site: Site) -> None:
    page = site.client.get(f"/id/{person(site)}", headers={"Accept": "text/html"})
    assert 'rel="alternate"; type="text/turtle"' in page.headers["link"]
    download = site.client.get(f"/id/{person(site)}?format=rdf")
    assert download.headers["content-type"] == "application/rdf+xml" and "attachment" in download.headers[
        "content-disposition"]  # fmt: skip
    options = site.client.options(f"/id/{person(site)}")
    assert options.status_code == 204 and "GET" in options.headers["allow"]
    assert options.headers["access-control-allow-origin"] == "*"


def test_cors_on_every_error(site: Site) -> None:
    c = site.client
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * 70_000
    cases = {
        400: c.get("/sparql", params={"query": "SELEKT"}),
        403: c.post("/sparql", content=b"INSERT DATA {}", headers={"Content-Type": "application/sparql-update"}),
        404: c.get("/id/NoSuchEntityAnywhere"),
        405: c.put("/id/" + person(site)),
        406: c.get("/id/" + person(site), headers={"Accept": "image/png"}),
        413: c.post("/sparql", content=big.encode(), headers={"Content-Type": "application/sparql-query"}),
        415: c.post("/sparql", content=b"ASK {}", headers={"Content-Type": "text/plain"}),
    }
    for status, response in cases.items():
        assert response.status_code == status, (status, response.text[:200])
        assert response.headers.get("access-control-allow-origin") == "*", status
        assert "etag" not in response.headers and "cache-control" not in response.headers, status


def test_the_dump_is_whole_apart_by_graph_and_checked_by_its_digest(site: Site) -> None:
    listing = site.client.get("/dump/").json()
    files = {f["name"]: f for f in listing["files"]}
    by_graph = {f"{g}.{e}.gz" for g in ("ontology", "stated", "inferred") for e in ("nt", "ttl")}
    assert set(files) == by_graph | {"all.nq.gz", "all.trig.gz"}  # and every graph in one file (issue 38)
    counts = site.kb.manifest["counts"]["triples"]
    formats = {"nt": ox.RdfFormat.N_TRIPLES, "ttl": ox.RdfFormat.TURTLE, "nq": ox.RdfFormat.N_QUADS,
               "trig": ox.RdfFormat.TRIG}  # fmt: skip
    for name, f in files.items():
        response = site.client.get(site.local(f["url"]))
        assert response.status_code == 200 and response.headers["content-type"] == "application/gzip"
        assert len(response.content) == f["bytes"]
        assert hashlib.sha256(response.content).hexdigest() == f["sha256"]
        parsed = list(ox.parse(gzip.decompress(response.content), format=formats[name.split(".")[1]]))
        if f["role"] == "all":  # each triple in its own graph
            role_of = {g["graph"]: g["role"] for g in files.values() if g["role"] != "all"}
            per_role = Counter(role_of[q.graph_name.value] for q in parsed)
            assert len(parsed) == f["triples"] == counts["store"], name
            assert all(per_role[role] == counts[role] for role in ("ontology", "stated", "inferred")), per_role
        else:
            assert len(parsed) == f["triples"] == counts[f["role"]], name
    total = site.client.get("/sparql", params={"query": "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }"}).json()
    assert sum(counts[r] for r in ("ontology", "stated", "inferred")) == counts["store"]
    assert int(total["results"]["bindings"][0]["n"]["value"]) == counts["store"]  # nothing cut, nothing missing
    assert site.client.get("/dump/nope.nt.gz").status_code == 404


def test_the_dump_listing_is_a_page_for_a_browser_and_json_for_a_program(site: Site) -> None:
    """Issue 38, point 7: /dump/ was JSON even for a browser."""
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    html = site.client.get("/dump/", headers=browser)
    assert html.headers["content-type"].startswith("text/html") and "all.nq.gz" in html.text
    assert site.client.get("/dump/", headers={"Accept": "*/*"}).json()["files"]
    assert site.client.get("/dump/", params={"format": "json"}, headers=browser).json()["files"]


def test_void_describes_the_dataset_and_its_dumps(site: Site) -> None:
    response = site.client.get("/.well-known/void")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/turtle")
    g = rdflib.Graph().parse(data=response.text, format="turtle")
    ds = rdflib.URIRef(site.public + ".well-known/void#dataset")
    assert (ds, rdflib.RDF.type, VOID.Dataset) in g
    assert str(g.value(ds, VOID.sparqlEndpoint)) == site.public + "sparql"
    assert int(str(g.value(ds, VOID.triples))) == site.kb.manifest["counts"]["triples"]["store"]
    assert str(g.value(ds, VOID.uriSpace)) == site.kb.site.entity_base
    listed = {f["url"]: f for f in site.client.get("/dump/").json()["files"]}
    dumps = set(g.objects(ds, VOID.dataDump))
    assert {str(d) for d in dumps} == set(listed)
    for d in dumps:
        checksum = g.value(d, SPDX.checksum)
        assert str(g.value(checksum, SPDX.checksumValue)) == listed[str(d)]["sha256"]
        assert int(str(g.value(d, DCAT.byteSize))) == listed[str(d)]["bytes"]
    for media in ("application/rdf+xml", "application/ld+json", "application/n-triples"):
        assert site.client.get("/.well-known/void", headers={"Accept": media}).headers["content-type"].startswith(media)
    # issue 38, point 7: the licence, and a partition per class and per property, counted as /sparql counts them
    assert site.kb.site.license and str(g.value(ds, DCTERMS.license)) == site.kb.site.license
    by_class = {str(g.value(b, VOID["class"])): int(str(g.value(b, VOID.entities)))
                for b in g.objects(ds, VOID.classPartition)}  # fmt: skip
    by_property = {str(g.value(b, VOID.property)): int(str(g.value(b, VOID.triples)))
                   for b in g.objects(ds, VOID.propertyPartition)}  # fmt: skip
    works = "SELECT (COUNT(DISTINCT ?w) AS ?n) { ?w a <https://folio.example/ns#Work> }"
    counted = site.client.get("/sparql", params={"query": works}).json()["results"]["bindings"][0]["n"]["value"]
    assert by_class["https://folio.example/ns#Work"] == int(counted) > 0
    assert sum(by_property.values()) == site.kb.manifest["counts"]["triples"]["store"]


def test_the_sitemap_lists_every_entity_page_and_article(site: Site) -> None:
    response = site.client.get("/sitemap.xml")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = [e.text or "" for e in ElementTree.fromstring(response.content).findall("s:url/s:loc", ns)]
    assert len(urls) == len(set(urls)) and all(u.startswith(site.public) for u in urls)
    engine = load(site.kb).engine
    entities = {e.name for e in engine.entities.values() if e.iri.startswith(site.kb.site.entity_base)}
    assert {u.removeprefix(site.public + "id/") for u in urls if "/id/" in u} == entities
    assert {u.removeprefix(site.public + "wiki/") for u in urls if "/wiki/" in u} == set(site.kb.articles)
    for u in (urls[1], urls[-1]):  # an entity page and an article: each is served
        assert site.client.get(site.local(u)).status_code == 200


def test_robots_allows_pages_and_keeps_crawlers_off_asks_and_queries(site: Site) -> None:
    text = site.client.get("/robots.txt").text
    lines = text.splitlines()
    assert "Allow: /" in lines and f"Sitemap: {site.public}sitemap.xml" in lines
    for path in ("/api/", "/-/", "/sparql?"):
        assert f"Disallow: {path}" in lines


def _head(html: str) -> str:
    return html.split("</head>", 1)[0]


def _jsonld(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', _head(html), re.S)
    assert found, "no JSON-LD in the <head>"
    doc: dict[str, object] = json.loads(found.group(1))
    return doc


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")  # rdflib's JSON-LD parser
def test_entity_and_article_pages_carry_json_ld_canonical_and_opengraph(site: Site) -> None:
    name = person(site)
    html = site.client.get(f"/id/{name}", headers={"Accept": "text/html"}).text
    doc = _jsonld(html)
    canonical = f"{site.public}id/{name}"
    assert doc["@context"] == "https://schema.org/" and doc["@type"] == "Person"
    assert doc["@id"] == site.kb.site.entity_base + name and doc["url"] == canonical
    head = _head(html)
    assert f'<link rel="canonical" href="{canonical}">' in head
    assert '<meta property="og:type" content="profile">' in head and 'property="og:title"' in head
    # the JSON-LD is read as RDF by a JSON-LD processor: schema.org statements about the entity
    g = rdflib.Graph().parse(data=json.dumps(doc | {"@context": {"@vocab": "https://schema.org/"}}), format="json-ld")
    assert (rdflib.URIRef(str(doc["@id"])), rdflib.RDF.type, rdflib.URIRef("https://schema.org/Person")) in g
    article = next(a for a in sorted(site.kb.articles) if load_entity(site, a))
    html = site.client.get(f"/wiki/{article}").text
    doc = _jsonld(html)
    assert doc["@type"] == "Article" and doc["url"] == f"{site.public}wiki/{article}"
    assert doc["about"]["@id"] == site.kb.site.entity_base + article  # type: ignore[index]
    assert doc["author"]["@id"] == site.kb.site.entity_base + name  # type: ignore[index]
    assert f'<link rel="canonical" href="{site.public}wiki/{article}">' in _head(html)
    assert '<meta property="og:type" content="article">' in _head(html)


def load_entity(site: Site, name: str) -> bool:
    return site.client.get(f"/id/{name}", headers={"Accept": "text/turtle"}).status_code == 200


@pytest.mark.parametrize("path", ["/", "/id/{p}", "/wiki/{a}", "/sparql?query=ASK%7B%7D", "/dump/stated.nt.gz",
                                  "/.well-known/void", "/sitemap.xml", "/robots.txt", "/static/style.css",
                                  "/console"])  # fmt: skip
def test_read_only_responses_have_an_etag_and_answer_304(site: Site, path: str) -> None:
    url = path.format(p=person(site), a=sorted(site.kb.articles)[0])
    first = site.client.get(url)
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert site.kb.digest[:20] in tag and first.headers["cache-control"].startswith("public, max-age=")
    again = site.client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert site.client.get(url, headers={"If-None-Match": 'W/"another"'}).status_code == 200


@pytest.mark.parametrize("path", ["/id/{p}", "/dump/stated.nt.gz", "/.well-known/void"])
def test_read_only_responses_have_a_last_modified_and_answer_if_modified_since(site: Site, path: str) -> None:
    """Issue 38, point 7: If-Modified-Since got 200 (no Last-Modified): clients that revalidate by date refetched."""
    url = path.format(p=person(site))
    first = site.client.get(url)
    changed = parsedate_to_datetime(first.headers["last-modified"])
    assert changed >= datetime.fromisoformat(site.kb.manifest["built_at"])
    same = site.client.get(url, headers={"If-Modified-Since": first.headers["last-modified"]})
    assert same.status_code == 304 and same.content == b""
    earlier = format_datetime(changed - timedelta(days=1), usegmt=True)
    assert site.client.get(url, headers={"If-Modified-Since": earlier}).status_code == 200
    assert site.client.get(url, headers={"If-Modified-Since": "yesterday"}).status_code == 200  # unreadable: ignored
    tagged = {"If-Modified-Since": first.headers["last-modified"], "If-None-Match": 'W/"another"'}
    assert site.client.get(url, headers=tagged).status_code == 200  # the tag decides when there is one


def test_format_html_is_the_page(site: Site) -> None:
    """Issue 38, point 7: ?format=html was 406."""
    response = site.client.get(f"/id/{person(site)}", params={"format": "html"}, headers={"Accept": "text/turtle"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")


def test_other_representations_have_other_tags(site: Site) -> None:
    url = f"/id/{person(site)}"
    tags = {site.client.get(url, headers={"Accept": m}).headers["etag"] for m in ("text/html", "text/turtle")}
    assert len(tags) == 2


def test_asks_and_the_api_are_never_cached(site: Site) -> None:
    for response in (site.client.get("/", params={"q": "who is this?"}),
                     site.client.post("/api/ask", json={"q": "who is this?"}),
                     site.client.get("/api/ask", params={"q": "who is this?"}),
                     site.client.get("/healthz")):  # fmt: skip
        assert response.status_code == 200
        assert "etag" not in response.headers and "public" not in response.headers.get("cache-control", "")


def test_the_etag_changes_when_a_new_build_lands(tmp_path: Path) -> None:
    sources = copy_inputs(tmp_path / "inputs", tiny=True)
    kb = tmp_path / "kb"
    build(sources, kb, log=quiet)
    first_dump = (kb / "dump" / "stated.nt.gz").read_bytes()
    with serving(kb, tmp_path, RELOAD_INTERVAL="0.2") as base:
        before = httpx.get(base + "/robots.txt").headers["etag"]
        stated = sorted((sources.data).glob("*.ttl"))[0]
        stated.write_text(stated.read_text() + "\n# an edit\n", encoding="utf-8")
        (sources.wiki / "broken.md").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")
        with pytest.raises(ProblemsFound):
            build(sources, kb, log=quiet)  # a failed build: the served KB and its dump stay as they were
        assert (kb / "dump" / "stated.nt.gz").read_bytes() == first_dump
        assert httpx.get(base + "/robots.txt").headers["etag"] == before
        (sources.wiki / "broken.md").unlink()
        (sources.data / "added.ttl").write_text(
            "@prefix pf: <https://folio.example/ns#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n",
            encoding="utf-8")  # fmt: skip
        build(sources, kb, log=quiet)
        deadline = time.monotonic() + 30
        while (after := httpx.get(base + "/robots.txt").headers["etag"]) == before and time.monotonic() < deadline:
            time.sleep(0.2)
        assert after != before and KB.open(kb).digest[:20] in after
        assert httpx.get(base + "/robots.txt", headers={"If-None-Match": before}).status_code == 200


def test_the_same_inputs_give_the_same_dump(tmp_path: Path) -> None:
    sources = copy_inputs(tmp_path / "inputs", tiny=True)
    first, second = tmp_path / "a", tmp_path / "b"
    build(sources, first, log=quiet)
    build(sources, second, log=quiet)
    assert KB.open(first).manifest["dumps"] == KB.open(second).manifest["dumps"]  # sizes and digests alike
    for name, d in KB.open(first).manifest["dumps"].items():
        assert hashlib.sha256((first / "dump" / name).read_bytes()).hexdigest() == d["sha256"]
