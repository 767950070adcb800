"""The JSON API over a real server: the Plan, the preview, follow-ups, the OpenAPI description, errors."""

from __future__ import annotations

import httpx
import pytest


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


def test_next_gives_answerable_followups(http: httpx.Client) -> None:
    body = http.post("/api/next", json={"question": "tell me about Lantern"}).json()
    assert 1 <= len(body["followups"]) <= 3
    for question in body["followups"]:
        plan = http.get("/api/ask", params={"q": question}).json()
        assert plan["confidence"]["level"] in ("exact", "strong")


def test_openapi_describes_the_api(http: httpx.Client) -> None:
    spec = http.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/ask", "/api/preview", "/api/next", "/healthz"} <= set(spec["paths"])


def test_healthz(http: httpx.Client) -> None:
    body = http.get("/healthz").json()
    assert body["status"] == "ok" and body["ontology_version"] == "1.1.0" and body["built_at"]


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
