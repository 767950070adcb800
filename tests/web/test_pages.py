"""Pages without JavaScript: the ask page renders answers on the server; wiki and entity pages; Linked Data."""

from __future__ import annotations

import json

import httpx
import pyoxigraph as ox
import pytest


def test_ask_page_renders_the_answer_on_the_server(http: httpx.Client) -> None:
    page = http.get("/", params={"q": "what did she build in Q3 2025?"}).text
    assert "96 % · High match" in page
    assert "Ask Ines" in page and "Lantern" in page
    assert "SPARQL behind this answer" in page and "queries/works-in-period.rq" in page
    assert "/console?query=" in page and "Run in console" in page
    assert 'id="S1"' in page and 'href="#S1"' in page  # a source chip and the passage it opens


def test_ask_page_abstains_with_a_prefilled_contact_link(http: httpx.Client) -> None:
    page = http.get("/", params={"q": "what do you think about the election?"}).text
    assert "Not covered" in page
    assert 'href="mailto:hello@inescalder.example?subject=' in page and "election" in page


def test_ask_page_offers_followups_and_a_chooser(http: httpx.Client) -> None:
    page = http.get("/", params={"q": "tell me about Lantern"}).text
    assert "Ask next" in page
    chooser = http.get("/", params={"q": "tell me about the e-paper departure board"}).text
    assert "Which one do you mean?" in chooser and "Tenement Bus Sign" in chooser


def test_empty_ask_page(http: httpx.Client) -> None:
    page = http.get("/")
    assert page.status_code == 200 and 'name="q"' in page.text and "<label" in page.text


def test_wiki_page(http: httpx.Client) -> None:
    page = http.get("/wiki/Tidewise")
    assert page.status_code == 200
    assert "<h1>Tidewise</h1>" in page.text and "<h2 id=" in page.text
    assert http.get("/wiki/Nothing").status_code == 404


def test_entity_page_marks_inferred_facts(http: httpx.Client) -> None:
    page = http.get("/id/Wordloom", headers={"accept": "text/html"}).text
    assert "Wordloom" in page and "inferred" in page and "As data" in page
    assert "?format=ttl" in page


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [("text/turtle", ox.RdfFormat.TURTLE), ("application/n-triples", ox.RdfFormat.N_TRIPLES),
     ("application/ld+json", ox.RdfFormat.JSON_LD)],
)  # fmt: skip
def test_entity_iris_are_linked_data(http: httpx.Client, accept: str, fmt: ox.RdfFormat) -> None:
    response = http.get("/id/Lantern", headers={"accept": accept})
    assert response.status_code == 200 and response.headers["content-type"].startswith(accept)
    assert "accept" in response.headers["vary"].lower()
    triples = list(ox.parse(response.content, format=fmt))
    subjects = {str(t.subject.value) for t in triples}
    assert subjects == {"https://inescalder.example/id/Lantern"}
    predicates = {t.predicate.value for t in triples}
    assert "https://folio.example/ns#uses" in predicates
    assert "https://schema.org/codeRepository" in predicates  # inferred from pf:repository


def test_accept_quality_and_download(http: httpx.Client) -> None:
    r = http.get("/id/Lantern", headers={"accept": "text/html;q=0.5, text/turtle;q=0.9"})
    assert r.headers["content-type"].startswith("text/turtle")
    download = http.get("/id/Lantern", params={"format": "jsonld"})
    assert download.headers["content-disposition"] == 'attachment; filename="Lantern.jsonld"'
    assert json.loads(download.text)


def test_security_headers(http: httpx.Client) -> None:
    headers = http.get("/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
