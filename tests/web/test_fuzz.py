"""Hypothesis over the OpenAPI description: any text in any parameter or body gives an answer or a 4xx."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote, quote_from_bytes

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.sparql.attacks import bad_request

any_text = st.text() | st.binary().map(lambda b: b.decode("latin-1"))
values = st.one_of(any_text, st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=3), st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_input_gives_a_server_error(http: httpx.Client, data: st.DataObject) -> None:
    spec: dict[str, Any] = http.get("/openapi.json").json()
    path = data.draw(st.sampled_from(sorted(spec["paths"])))
    method = data.draw(st.sampled_from(sorted(spec["paths"][path])))
    if method == "get":
        names = [p["name"] for p in spec["paths"][path][method].get("parameters", [])]
        params = {n: data.draw(any_text) for n in names if data.draw(st.booleans())}
        response = http.get(path, params=params)
    else:
        body = data.draw(
            st.one_of(st.dictionaries(st.sampled_from(["question", "previous", "q", "x", "page", "per_page", "trace"]),
                            values), values)
        )
        response = http.post(path, json=body)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert {"status", "code", "message"} <= set(response.json()["error"])  # /sparql adds the line and column


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_raw_bytes_in_the_query_string(http: httpx.Client, raw: bytes) -> None:
    response = http.get("/api/ask?q=" + quote_from_bytes(raw))
    assert response.status_code < 500


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=40), page=st.sampled_from(["/id/", "/wiki/"]))
def test_any_entity_or_article_name(http: httpx.Client, name: str, page: str) -> None:
    response = http.get(page + quote(name, safe=""), headers={"accept": "text/html"})
    assert response.status_code < 500  # a page, a 404, or Starlette's redirect of a trailing (encoded) slash


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=any_text)
def test_any_text_as_sparql_or_console_query(http: httpx.Client, query: str) -> None:
    assert http.get("/sparql", params={"query": query}).status_code < 500
    assert http.get("/console", params={"query": query}).status_code == 200


def test_malformed_requests_on_every_endpoint(server: str) -> None:
    """The attack corpus of `bench attack` (service/sparql/attacks.py): deep JSON, lone surrogates, bad
    dataset IRIs, repeated and unknown formats, wrong content types, on every path. Never a 5xx; every error
    in the one shape. (`bench attack` runs 10,000 of these; the suite runs 1,500.)"""
    rng = random.Random(7)
    with httpx.Client(base_url=server, timeout=30) as client:
        for _ in range(1500):
            method, path, params, headers, body = bad_request(rng)
            r = client.request(method, path, params=params, headers=headers, content=body or None)
            assert r.status_code < 500, (method, path, params, headers, body[:100], r.text[:200])
            if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
                assert set(r.json()["error"]) >= {"status", "code", "message"}
