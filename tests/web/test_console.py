"""The SPARQL console over a real server, without a browser: stored queries open with their examples filled in
and return rows on both portfolios, syntax errors say the parser's reason and where, the editor's vocabulary
comes from the graph, and the page works without JavaScript."""

from __future__ import annotations

import html
import re

import httpx
import pytest

from service.kb import KB

PORTFOLIOS = ["demo", "mateo"]
# stored queries whose rows a portfolio has none of: kinds of the owner's own, and (Mateo) no award, client,
# press item or recurring work; the console opens them with the query and "0 results"
EMPTY_HERE = {"demo": {"entity-kinds"},
              "mateo": {"entity-kinds", "awards", "clients", "press-coverage", "occurrences",
                        "works-for-client"}}  # fmt: skip


@pytest.fixture(params=PORTFOLIOS)
def portfolio(request: pytest.FixtureRequest) -> tuple[str, KB]:
    """(the server's address, its KB) for each portfolio."""
    if request.param == "demo":
        return request.getfixturevalue("server"), request.getfixturevalue("demo_kb")
    return request.getfixturevalue("mateo_server"), KB.open(request.getfixturevalue("mateo_kb_path"))


def textarea_text(page: str) -> str:
    """The query text of a console page as the server rendered it."""
    m = re.search(r'<textarea id="query"[^>]*>(.*?)</textarea>', page, re.S)
    assert m, "the page has the query textarea"
    return html.unescape(m.group(1))


def test_every_stored_query_opens_filled_with_its_example_and_returns_rows(portfolio: tuple[str, KB]) -> None:
    base, kb = portfolio
    empty = EMPTY_HERE["demo" if kb.site.person == "InesCalder" else "mateo"]
    with httpx.Client(base_url=base, timeout=30) as c:
        listing = c.get("/console").text
        names = sorted(kb.catalog)
        for name in names:
            assert f'href="/console?example={name}"' in listing
            page = c.get("/console", params={"example": name}).text
            heading = re.search(r'<h2 id="result-heading">(\d+) results?', page)
            assert heading, f"{name}: no result on the page"
            assert (int(heading.group(1)) > 0) != (name in empty), f"{name}: {heading.group(1)} rows"
            text = textarea_text(page)
            query = kb.catalog[name]
            for line, param in re.findall(r"line (\d+) \(<code>\$(\w+)</code>", page):
                assert param in query.params
                assert "$" + param in query.text.splitlines()[int(line) - 1]  # the line named is the one filled
                assert "$" + param not in text.splitlines()[int(line) - 1]
            # a query whose parameters are all optional (awards, occurrences) opens unfilled: every row
            if any(not p.optional for p in query.params.values()) and name not in empty:
                assert "filled with its example" in page, f"{name}: no example value for it in query-examples.yaml"


def test_an_example_fills_terms_not_text(server: str, demo_kb: KB) -> None:
    page = httpx.get(server + "/console", params={"example": "works-using-skill"}).text
    text = textarea_text(page)
    assert "$skill" not in text.split("SELECT", 1)[1]
    assert re.search(r"<" + re.escape(demo_kb.site.entity_base) + r"\w+>", text)  # an IRI term, serialized
    assert 'data-filled-lines="' in page and re.search(r"line \d+ \(<code>\$skill</code>", page)


def test_unknown_examples_are_a_clear_404(http: httpx.Client) -> None:
    for name in ["nope", "../../etc/passwd", "<script>", "x" * 5000]:
        r = http.get("/console", params={"example": name}, headers={"accept": "text/html"})
        assert r.status_code == 404 and "No stored query named" in r.text and "<script>" not in r.text


def test_a_syntax_error_says_the_reason_line_and_column(http: httpx.Client) -> None:
    query = "PREFIX pf: <https://folio.example/ns#>\nSELECT * WHERE {\n  ?s nope:p ?o\n}"
    error = http.get("/sparql", params={"query": query}).json()["error"]
    assert error["status"] == 400 and (error["line"], error["column"]) == (3, 12)
    assert "Prefix not found" in error["message"] and "nope:" in error["message"]
    assert "error at" not in error["message"] and "line 3, column 12" in error["message"]
    page = http.get("/console", params={"query": query}).text
    assert "Error at line 3, column 12:</strong> Prefix not found: nope: is not declared" in page
    assert 'data-line="3" data-column="12"' in page
    unclosed = http.get("/sparql", params={"query": "SELECT * WHERE {\n  ?s ?p ?o\n"}).json()["error"]
    assert unclosed["line"] == 3 and '"}"' in unclosed["message"] and "end of the query" in unclosed["message"]
    assert "['" not in unclosed["message"]  # the parser's character classes are left out


def test_the_vocabulary_is_the_graphs_own(portfolio: tuple[str, KB]) -> None:
    base, kb = portfolio
    vocab = httpx.get(base + "/console/vocabulary.json").json()
    assert vocab["prefixes"]["id"] == kb.site.entity_base and vocab["prefixes"]["pf"] == "https://folio.example/ns#"
    kinds = {t["kind"] for t in vocab["terms"]}
    assert kinds == {"class", "property", "entity"}
    iris = {t["iri"] for t in vocab["terms"]}
    assert "https://folio.example/ns#Work" in iris and "http://www.w3.org/2000/01/rdf-schema#label" in iris
    person = kb.site.entity_base + kb.site.person
    assert person in iris
    named = {r["entity"].value for r in kb.catalog.run("entity-catalog").rows}
    entities = {t["iri"] for t in vocab["terms"] if t["kind"] == "entity"}
    assert entities == named  # every entity with a label, no more
    assert all(t.get("label") for t in vocab["terms"] if t["kind"] == "entity")


def test_without_javascript_the_page_runs_the_query_and_links_every_iri(http: httpx.Client, demo_kb: KB) -> None:
    query = (
        "PREFIX pf: <https://folio.example/ns#>\nSELECT ?work ?repo ?start ?label WHERE {\n"
        "  ?work pf:repository ?repo ; pf:startDate ?start ; rdfs:label ?label .\n} ORDER BY ?work LIMIT 3"
    )
    page = http.get("/console", params={"query": query}).text
    assert re.search(r'<a href="/id/\w+" class="term entity" title="' + re.escape(demo_kb.site.entity_base), page)
    assert re.search(r'<a href="https://[^"]+" class="term external" title="[^"]+" rel="noopener external">', page)
    assert '<span class="dtype" title="http://www.w3.org/2001/XMLSchema#date">xsd:date</span>' in page
    assert '<script src="/static/vendor/console-editor.js" defer></script>' in page
    assert "<script>" not in page  # no inline script: the rows for the script ride in a JSON data block
    assert re.search(r'<script type="application/json" id="served-result"[^>]*>\{', page)


def test_the_bundle_and_styles_are_served_by_the_app(http: httpx.Client) -> None:
    bundle = http.get("/static/vendor/console-editor.js")
    assert bundle.status_code == 200 and "javascript" in bundle.headers["content-type"]
    assert "FolioEditor" in bundle.text and "eval(" not in bundle.text
    assert http.get("/static/console.css").status_code == 200
    csp = http.get("/console").headers["content-security-policy"]
    assert "default-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
