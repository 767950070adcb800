"""/sparql and /console over a real server: protocol, formats, safety, limits, and the console page."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pyoxigraph as ox
import pytest

from service.engine import Planner
from tests.conftest import ROOT, TODAY

SELECT = "SELECT ?w ?label WHERE { ?w pf:tier 1 ; pf:keyRank ?r ; rdfs:label ?label } ORDER BY ?r"
DEATH = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?a ?d ?g"
SPARQL_QUERY = {"content-type": "application/sparql-query"}


@pytest.mark.parametrize(
    ("accept", "media"),
    [("application/sparql-results+json", "application/sparql-results+json"),
     ("application/sparql-results+xml", "application/sparql-results+xml"), ("text/csv", "text/csv"),
     ("text/tab-separated-values", "text/tab-separated-values"), ("*/*", "application/sparql-results+json")],
)  # fmt: skip
def test_select_in_every_result_format(http: httpx.Client, accept: str, media: str) -> None:
    response = http.get("/sparql", params={"query": SELECT}, headers={"accept": accept})
    assert response.status_code == 200 and response.headers["content-type"].startswith(media)
    assert "Ask Ines" in response.text and response.headers["access-control-allow-origin"] == "*"


def test_the_three_ways_to_send_a_query_agree(http: httpx.Client) -> None:
    a = http.get("/sparql", params={"query": SELECT}).json()
    b = http.post("/sparql", data={"query": SELECT}).json()
    c = http.post("/sparql", content=SELECT.encode(), headers=SPARQL_QUERY).json()
    assert a == b == c and a["results"]["bindings"][0]["label"]["value"] == "Ask Ines"


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [("text/turtle", ox.RdfFormat.TURTLE), ("application/n-triples", ox.RdfFormat.N_TRIPLES),
     ("application/ld+json", ox.RdfFormat.JSON_LD), ("application/rdf+xml", ox.RdfFormat.RDF_XML)],
)  # fmt: skip
def test_construct_and_describe_as_rdf(http: httpx.Client, accept: str, fmt: ox.RdfFormat) -> None:
    for query in ("CONSTRUCT { ?w pf:uses ?s } WHERE { ?w pf:uses ?s } LIMIT 5", "DESCRIBE id:Lantern"):
        response = http.get("/sparql", params={"query": query}, headers={"accept": accept})
        assert response.status_code == 200 and response.headers["content-type"].startswith(accept)
        assert list(ox.parse(response.content, format=fmt))


def test_ask_and_service_description(http: httpx.Client) -> None:
    assert http.get("/sparql", params={"query": "ASK { id:Lantern pf:uses id:Rust }"}).json()["boolean"] is True
    description = http.get("/sparql", headers={"accept": "text/turtle"})
    assert description.status_code == 200 and "sd:Service" in description.text


def test_default_and_named_graph_parameters(http: httpx.Client) -> None:
    data, inferred = "https://folio.example/graph/data", "https://folio.example/graph/inferred"
    query = "ASK { id:Rust pf:usedBy ?w }"
    assert http.get("/sparql", params={"query": query}).json()["boolean"] is True  # the union by default
    only_stated = http.get("/sparql", params={"query": query, "default-graph-uri": data}).json()
    assert only_stated["boolean"] is False  # pf:usedBy is inferred, not stated
    named = http.get(
        "/sparql", params={"query": "ASK { GRAPH ?g { id:Rust pf:usedBy ?w } }", "named-graph-uri": inferred}
    )
    assert named.json()["boolean"] is True


@pytest.mark.parametrize(
    "query",
    ["INSERT DATA { <http://a.example/> <http://b.example/> 1 }", "delete where { ?s ?p ?o }", "LOAD <http://x.example/>",
     "DrOp AlL", "SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }",
     "select * where { service <http://evil.example/> { ?s ?p ?o } }",
     "SELECT * WHERE { FILTER(\"\\u005C\") SERVICE <http://evil.example/> { ?s ?p ?o } }",
     "SELECT * WHERE { # x\rSERVICE <http://evil.example/> { ?s ?p ?o } }",
     "PREFIX e: <http://evil.example/> SELECT * WHERE { BIND(e:a\\#b AS ?z) SERVICE e:x { ?s ?p ?o } }"],
)  # fmt: skip
def test_updates_load_and_service_are_refused_before_running(http: httpx.Client, query: str) -> None:
    response = http.get("/sparql", params={"query": query})
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"


def test_an_escaped_keyword_is_no_keyword(http: httpx.Client) -> None:
    """Oxigraph decodes \\u escapes only inside strings and IRIs: `\\u0053ERVICE` is a syntax error, not a SERVICE."""
    response = http.get("/sparql", params={"query": "SELECT * WHERE { \\u0053ERVICE <http://evil.example/> {} }"})
    assert response.status_code == 400


def test_service_in_a_comment_or_string_is_just_text(http: httpx.Client) -> None:
    query = 'SELECT ?x WHERE { BIND("SERVICE <http://evil.example/>" AS ?x) } # SERVICE in a comment'
    response = http.get("/sparql", params={"query": query.replace("# SERVICE in a comment", "")})
    assert response.status_code == 200 and "SERVICE" in response.text
    commented = http.get("/sparql", params={"query": "# SERVICE <x>\nASK { ?s ?p ?o }"})
    assert commented.status_code == 200


def test_update_requests_are_refused(http: httpx.Client) -> None:
    assert http.post("/sparql", data={"update": "DROP ALL"}).status_code == 403
    assert (
        http.post("/sparql", content=b"DROP ALL", headers={"content-type": "application/sparql-update"}).status_code
        == 403
    )


def test_syntax_error_says_where(http: httpx.Client) -> None:
    error = http.get("/sparql", params={"query": "SELECT * WHERE {\n  ?s nope:p ?o\n}"}).json()["error"]
    assert error["status"] == 400 and error["line"] == 2 and "line 2" in error["message"]


def test_bad_requests(http: httpx.Client) -> None:
    assert http.get("/sparql?query=ASK%7B%7D&query=ASK%7B%7D").status_code == 400  # two queries
    assert http.post("/sparql", content=b"ASK {}", headers={"content-type": "text/plain"}).status_code == 415
    utf16 = "ASK { ?s ?p ?o }".encode("utf-16")
    assert (
        http.post(
            "/sparql", content=utf16, headers={"content-type": "application/sparql-query; charset=UTF-16"}
        ).status_code
        == 400
    )
    assert http.post("/sparql", content=b"\xff\xfe\xfa", headers=SPARQL_QUERY).status_code == 400
    assert http.post("/sparql", content=b"#" * 70000, headers=SPARQL_QUERY).status_code == 413
    assert http.put("/sparql", content=b"ASK {}").status_code == 405


def test_rows_are_capped_and_the_cut_is_said(server: str) -> None:
    # the test server keeps the default cap; ask for more rows than it with a cross product of types
    query = "SELECT ?s ?o WHERE { ?s a pf:Work . ?o a pf:Skill }"
    with httpx.Client(base_url=server, timeout=30) as client:
        response = client.get("/sparql", params={"query": query}, headers={"accept": "text/csv"})
    assert response.status_code == 200
    assert response.headers["x-sparql-truncated"].startswith("true")
    assert len(response.text.strip().splitlines()) == 10_001  # header + the cap


def test_json_rows_are_capped_too(server: str) -> None:
    # JSON is written by pyoxigraph first, then cut at the cap: the count and the header must still be right
    query = "SELECT ?s ?o WHERE { ?s a pf:Work . ?o a pf:Skill }"
    with httpx.Client(base_url=server, timeout=30) as client:
        response = client.get("/sparql", params={"query": query})
    assert response.status_code == 200
    assert response.headers["x-sparql-truncated"].startswith("true")
    assert response.headers["x-sparql-rows"] == "10000"
    assert len(response.json()["results"]["bindings"]) == 10_000


def test_query_of_death_is_stopped_and_the_ask_page_keeps_answering(server: str) -> None:
    outcome: dict[str, int] = {}

    def death() -> None:
        with httpx.Client(base_url=server, timeout=60) as c:
            outcome["status"] = c.get("/sparql", params={"query": DEATH}).status_code

    thread = threading.Thread(target=death)
    start = time.monotonic()
    thread.start()
    time.sleep(0.3)
    with httpx.Client(base_url=server, timeout=10) as c:
        for _ in range(5):
            t = time.monotonic()
            assert c.get("/api/ask", params={"q": "Rust projects"}).status_code == 200
            assert time.monotonic() - t < 2
    thread.join()
    assert outcome["status"] == 503 and time.monotonic() - start < 15
    with httpx.Client(base_url=server, timeout=10) as c:  # the killed worker was replaced
        assert c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).json()["boolean"] is True


def test_more_concurrent_queries_than_the_limit_get_429(server: str) -> None:
    statuses: list[int] = []
    headers: list[str | None] = []

    def slow() -> None:
        with httpx.Client(base_url=server, timeout=60) as c:
            r = c.get("/sparql", params={"query": DEATH})
            statuses.append(r.status_code)
            headers.append(r.headers.get("retry-after"))

    threads = [threading.Thread(target=slow) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(429) >= 2  # the limit is 3 per client on the test server
    assert all(h == "1" for s, h in zip(statuses, headers, strict=True) if s == 429)


def test_a_query_asked_again_is_answered_from_the_answers_kept_for_the_build(http: httpx.Client) -> None:
    query = SELECT + "  # asked twice by this test"
    first = http.get("/sparql", params={"query": query})
    again = http.get("/sparql", params={"query": query})
    assert (first.headers["x-sparql-cache"], again.headers["x-sparql-cache"]) == ("miss", "hit")
    assert again.content == first.content and again.headers["x-sparql-rows"] == first.headers["x-sparql-rows"]
    as_csv = http.get("/sparql", params={"query": query}, headers={"accept": "text/csv"})
    assert as_csv.headers["x-sparql-cache"] == "miss" and as_csv.text.startswith("w,label")  # another format
    exposed = http.get("/sparql", params={"query": query}).headers["access-control-expose-headers"]
    assert "x-sparql-cache" in exposed.lower()
    error = "SELECT * WHERE { ?s nope:p ?o }  # kept error"
    assert [http.get("/sparql", params={"query": error}).status_code for _ in range(2)] == [400, 400]


def test_a_query_whose_value_changes_between_runs_is_run_each_time(http: httpx.Client) -> None:
    for query in ("SELECT (RAND() AS ?r) WHERE {}", "SELECT (STRUUID() AS ?r) WHERE {}",
                  "SELECT ?r WHERE { BIND(now() AS ?r) }"):  # fmt: skip
        answers = [http.get("/sparql", params={"query": query}) for _ in range(2)]
        assert [a.headers["x-sparql-cache"] for a in answers] == ["miss", "miss"]
    randoms = {http.get("/sparql", params={"query": "SELECT (RAND() AS ?r) WHERE {}"}).text for _ in range(3)}
    assert len(randoms) == 3


def test_a_kept_answer_needs_no_worker_while_the_client_runs_its_limit(server: str) -> None:
    kept = "ASK { ?w pf:tier 1 }  # kept before the flood"
    with httpx.Client(base_url=server, timeout=30) as c:
        assert c.get("/sparql", params={"query": kept}).status_code == 200
    statuses: list[int] = []

    def death() -> None:
        with httpx.Client(base_url=server, timeout=60) as c:
            statuses.append(c.get("/sparql", params={"query": DEATH}).status_code)

    threads = [threading.Thread(target=death) for _ in range(3)]  # the test server's limit per client is 3
    for t in threads:
        t.start()
    time.sleep(0.5)
    with httpx.Client(base_url=server, timeout=30) as c:
        during = c.get("/sparql", params={"query": kept})
        fresh = c.get("/sparql", params={"query": "ASK { ?w pf:tier 2 }  # not kept"})
    for t in threads:
        t.join()
    assert during.status_code == 200 and during.headers["x-sparql-cache"] == "hit" and during.json()["boolean"]
    assert fresh.status_code == 429 and statuses == [503, 503, 503]


def test_every_shown_query_returns_the_answer_rows_over_http(http: httpx.Client, planner: Planner) -> None:
    suite = json.loads((ROOT / "tests" / "search-eval.json").read_text())
    checked = 0
    for case in suite["cases"]:
        plan = planner.plan(case["question"], previous=case.get("previous"), today=TODAY)
        for run in plan.sparql:
            got = http.post("/sparql", content=run.query.encode(), headers=SPARQL_QUERY).json()
            values = [[b.get(v, {}).get("value") for v in got["head"]["vars"]] for b in got["results"]["bindings"]]
            assert values == [[row[c].value if c in row else None for c in run.columns] for row in run.rows]
            checked += 1
    assert checked >= 200


def test_console_runs_shared_urls_and_lists_stored_queries(http: httpx.Client) -> None:
    page = http.get("/console", params={"query": SELECT}).text
    assert "Ask Ines" in page and "Download" in page and 'href="/id/ThisSite"' in page
    assert "Works that use a skill" in page and "queries/works-using-skill.rq" in page
    error = http.get("/console", params={"query": "SELECT * WHERE {\n ?s nope:p ?o }"}).text
    assert "line 2" in error
    garbage = http.get("/console?query=%FF%FE%00")
    assert garbage.status_code == 200 and "Error" in garbage.text
    assert 'href="/console?example=works-using-skill"' in page  # each stored query opens with its example
