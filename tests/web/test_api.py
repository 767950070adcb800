"""The JSON API over a real server: the Plan, the preview, follow-ups, the OpenAPI description, errors."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from jsonschema.exceptions import ValidationError
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate as validate_spec


def test_ask_get_and_post_return_the_same_plan(http: httpx.Client) -> None:
    got = http.get("/api/ask", params={"q": "Rust projects"}).json()
    posted = http.post("/api/ask", json={"question": "Rust projects"}).json()
    for plan in (got, posted):
        assert plan["route"] == "concept_works" and plan["confidence"]["level"] == "exact"
        assert [r["label"] for r in plan["results"][:2]] == ["Rust", "Tessera"]  # what was asked, then its key work
        assert plan["sparql"][0]["file"] == "queries/works-using-skill.rq"

    def stable(plan: dict[str, object]) -> dict[str, object]:
        runs = [{k: v for k, v in run.items() if k != "ms"} for run in plan["sparql"]]  # type: ignore[attr-defined]
        return {k: v for k, v in plan.items() if k not in ("timing_ms", "answer_id")} | {"sparql": runs}

    assert stable(got) == stable(posted)


def test_an_answer_asked_again_is_the_same_but_for_its_own_id(http: httpx.Client) -> None:
    """The JSON of a kept plan's page is encoded once (service/web/encoded.py): each response still gets its own
    answer id, as the last member of a valid document, and each page its own results."""
    params = {"q": "Python projects", "per_page": "3"}
    first, again = (http.get("/api/ask", params=params) for _ in range(2))
    one, two = first.json(), again.json()
    assert one["answer_id"] != two["answer_id"] and list(one)[-1] == "answer_id"
    assert {k: v for k, v in one.items() if k != "answer_id"} == {k: v for k, v in two.items() if k != "answer_id"}
    assert first.headers["content-type"] == "application/json"
    second = http.get("/api/ask", params=params | {"page": "2"}).json()
    assert second["results_page"]["page"] == 2 and second["results"] != one["results"]


def test_ask_with_previous_question(http: httpx.Client) -> None:
    plan = http.post("/api/ask", json={"question": "what is its stack?", "previous": "tell me about Lantern"}).json()
    assert plan["route"] == "stack" and plan["previous"] == "tell me about Lantern"


def test_abstention_over_http(http: httpx.Client) -> None:
    plan = http.get("/api/ask", params={"q": "tell me a joke"}).json()
    assert plan["confidence"]["level"] == "none" and plan["answer"] is None
    assert plan["contact_url"].startswith("mailto:") and "tell%20me%20a%20joke" in plan["contact_url"]


def test_preview_is_cheap_and_changes_with_the_words(http: httpx.Client) -> None:
    a = http.get("/api/preview", params={"q": "lant"}).json()
    b = http.get("/api/preview", params={"q": "kanji tok"}).json()
    assert a["best"]["label"] == "Lantern" and a["label"] == "High"
    assert b["best"]["label"] != a["best"]["label"]
    assert http.get("/api/preview", params={"q": ""}).json()["best"] is None


def test_the_preview_tells_the_route_and_confidence_the_answer_has(http: httpx.Client) -> None:
    for question in ("Rust projects from 2024", "what is bm25", "how does lantern rank results", "tell me a joke",
                     "which talks did she give in Berlin?", "has she used Scala?"):  # fmt: skip
        shown = http.get("/api/preview", params={"q": question + " "}).json()
        plan = http.get("/api/ask", params={"q": question}).json()
        assert (shown["route"], shown["score"], shown["label"]) == (
            plan["route"], plan["confidence"]["score"], plan["confidence"]["label"]), question
    for stop_words in ("how", "has", "how does", "what is the"):
        assert http.get("/api/preview", params={"q": stop_words}).json()["best"] is None, stop_words
    # steady while a word is typed: "rust proj" on the way to "projects" is still "rust", no name beginning "proj"
    typing = http.get("/api/preview", params={"q": "rust proj"}).json()
    assert typing["query"] == "rust" and typing["best"]["label"] == "Rust"


def test_next_gives_answerable_followups(http: httpx.Client) -> None:
    body = http.post("/api/next", json={"question": "tell me about Lantern"}).json()
    assert 1 <= len(body["followups"]) <= 3
    for question in body["followups"]:
        plan = http.get("/api/ask", params={"q": question}).json()
        assert plan["confidence"]["level"] in ("exact", "strong")


def test_openapi_describes_the_api(http: httpx.Client) -> None:
    spec = http.get("/openapi.json").json()
    validate_spec(spec)  # a valid OpenAPI 3.0 document, by the reference validator
    assert {"/api/ask", "/api/preview", "/api/next", "/api/article", "/sparql", "/healthz"} <= set(spec["paths"])
    ask = spec["paths"]["/api/ask"]
    assert {p["name"] for p in ask["get"]["parameters"]} == {"q", "previous", "trace", "page", "per_page"}
    assert ask["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Plan")
    assert "results_total" in spec["components"]["schemas"]["Plan"]["properties"]


def _conforms(spec: dict[str, Any], schema: str, body: object) -> None:
    root = {"$ref": f"#/components/schemas/{schema}", "components": spec["components"]}
    OAS30Validator(root).validate(body)


def test_answers_are_what_the_openapi_description_says(http: httpx.Client) -> None:
    """A generated client can trust the types: real answers of every kind validate against their schemas."""
    spec = http.get("/openapi.json").json()
    for params in ({"q": "Rust projects"}, {"q": "tell me a joke"}, {"q": "why did she rewrite gtfs-lint in rust"},
                   {"q": "talks", "page": "2", "per_page": "3", "trace": "1"}):  # fmt: skip
        _conforms(spec, "Plan", http.get("/api/ask", params=params).json())
    posted = http.post("/api/ask", json={"question": "what did she build in Q3 2025?", "page": 1})
    _conforms(spec, "Plan", posted.json())
    _conforms(spec, "Preview", http.get("/api/preview", params={"q": "lant"}).json())
    _conforms(spec, "Preview", http.get("/api/preview", params={"q": ""}).json())
    _conforms(spec, "Followups", http.post("/api/next", json={"question": "tell me about Lantern"}).json())
    _conforms(spec, "ArticleAnswer", http.get("/api/article", params={"name": "Lantern", "q": "who uses it"}).json())
    _conforms(spec, "Error", http.get("/api/ask", params={"q": "x", "page": "0"}).json())
    with pytest.raises(ValidationError):  # the check can fail: a Plan without its confidence is no Plan
        _conforms(spec, "Plan", {k: v for k, v in http.get("/api/ask", params={"q": "talks"}).json().items()
                                 if k != "confidence"})  # fmt: skip


def test_every_result_of_an_answer_is_reachable_page_by_page(http: httpx.Client) -> None:
    """"All her projects" has one result per work of the graph; the API gives them all, a page at a time, by its
    Link header, and the first page is the plan's own."""
    works = http.get("/sparql", params={"query": "PREFIX pf: <https://folio.example/ns#> "
                                                 "SELECT (COUNT(DISTINCT ?w) AS ?n) WHERE { ?w a pf:Work }"},
                     headers={"accept": "application/sparql-results+json"}).json()  # fmt: skip
    count = int(works["results"]["bindings"][0]["n"]["value"])
    first = http.get("/api/ask", params={"q": "list all her projects"})
    plan = first.json()
    assert plan["results_total"] == count > 100 and len(plan["results"]) == 10
    assert plan["results_page"] == {"page": 1, "per_page": 10, "pages": -(-count // 10), "total": count}
    seen: list[str] = []
    url: str | None = "/api/ask?q=list+all+her+projects&per_page=100"
    while url:
        response = http.get(url)
        seen += [r["iri"] for r in response.json()["results"]]
        url = response.links.get("next", {}).get("url")
    assert len(seen) == len(set(seen)) == count
    assert seen[:10] == [r["iri"] for r in plan["results"]]  # the same order as the answer's first page
    last = http.get("/api/ask", params={"q": "list all her projects", "page": str(-(-count // 10))})
    assert last.links["prev"]["url"].endswith(f"page={-(-count // 10) - 1}") and "next" not in last.links
    past = http.get("/api/ask", params={"q": "list all her projects", "page": "999"}).json()
    assert past["results"] == [] and past["results_total"] == count
    posted = http.post("/api/ask", json={"question": "list all her projects", "page": 2, "per_page": 5}).json()
    assert [r["iri"] for r in posted["results"]] == seen[5:10]


@pytest.mark.parametrize("params", [{"page": "0"}, {"page": "-1"}, {"page": "1.5"}, {"page": "²"}, {"per_page": "101"},
                                    {"per_page": "ten"}, {"page": "9" * 40}])  # fmt: skip
def test_a_page_that_cannot_be_is_a_clear_422(http: httpx.Client, params: dict[str, str]) -> None:
    response = http.get("/api/ask", params={"q": "talks", **params})
    assert response.status_code == 422 and next(iter(params)) in response.json()["error"]["message"]
    assert http.post("/api/ask", json={"question": "talks", "page": True}).status_code == 422


def test_healthz(http: httpx.Client) -> None:
    body = http.get("/healthz").json()
    assert body["status"] == "ok" and body["ontology_version"] == "1.3.0" and body["built_at"]


ERROR_KEYS = {"status", "code", "message"}
JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("GET", "/api/ask", {}, 422),
        ("GET", "/api/ask", {"params": {"q": "   "}}, 422),
        ("GET", "/api/ask", {"params": {"q": "x" * 501}}, 422),
        ("GET", "/api/ask", {"params": {"q": "bell\x07"}}, 422),
        ("POST", "/api/ask", {"content": b"\xff\xfe not utf-8", "headers": {"content-type": "application/json"}}, 400),
        ("POST", "/api/ask", {"content": b"{not json", "headers": {"content-type": "application/json"}}, 400),
        ("POST", "/api/ask", {"json": ["a list"]}, 400),
        ("POST", "/api/ask", {"json": {"question": 42}}, 422),
        ("POST", "/api/ask", {"content": b"q=x", "headers": {"content-type": "text/plain"}}, 415),
        (
            "POST",
            "/api/ask",
            {"content": b"{" + b" " * 20000 + b"}", "headers": {"content-type": "application/json"}},
            413,
        ),
        ("DELETE", "/api/ask", {}, 405),
        ("GET", "/api/nothing", {}, 404),
        ("GET", "/id/NoSuchEntity", {"headers": {"accept": "application/json"}}, 404),
        ("GET", "/id/not%20an%3Ciri%3E", {"headers": {"accept": "application/json"}}, 404),
        ("GET", "/wiki/%2E%2E%2Fmanifest", {"headers": {"accept": "application/json"}}, 404),
        ("GET", "/id/Lantern", {"headers": {"accept": "image/png"}}, 406),
    ],
)
def test_one_error_shape(http: httpx.Client, method: str, path: str, kwargs: dict[str, object], status: int) -> None:
    response = http.request(method, path, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == status
    error = response.json()["error"]
    assert set(error) == ERROR_KEYS and error["status"] == status and error["message"]


@pytest.mark.parametrize(
    "question",
    ["'; DROP TABLE x; --", '" } ; DROP ALL ; #', "<script>alert(1)</script>", "SERVICE <http://evil.example/>",
     "%00", "\u202e\u0645\u0631\u062d\u0628\u0627", "🦀 projects", "$skill projects", "{{7*7}}"],
)  # fmt: skip
def test_injection_strings_are_just_questions(http: httpx.Client, question: str) -> None:
    response = http.get("/api/ask", params={"q": question})
    assert response.status_code == 200
    page = http.get("/", params={"q": question})
    assert page.status_code == 200 and "<script>alert(1)</script>" not in page.text
