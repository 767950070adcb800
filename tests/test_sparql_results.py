"""SPARQL JSON written by pyoxigraph into a bounded buffer, with the row cap applied after it; and the same
rows, row by row, when the buffer is too small."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

from service.sparql.pool import Request, execute
from service.sparql.results import native_json

EX = "http://example.org/"


def _store(n: int) -> ox.Store:
    store = ox.Store()
    for i in range(n):
        store.add(ox.Quad(ox.NamedNode(f"{EX}s{i}"), ox.NamedNode(EX + "p"), ox.Literal(f'value {i}, with "quotes"')))
    return store


QUERY = "SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?s"


def _select(store: ox.Store) -> ox.QuerySolutions:
    result = store.query(QUERY)
    assert isinstance(result, ox.QuerySolutions)
    return result


def test_native_json_counts_and_cuts() -> None:
    store = _store(30)
    body, rows, truncated = native_json(_select(store), cap=100) or (b"", 0, True)
    assert (rows, truncated) == (30, False)
    assert len(json.loads(body)["results"]["bindings"]) == 30
    body, rows, truncated = native_json(_select(store), cap=10) or (b"", 0, False)
    assert (rows, truncated) == (10, True)
    doc = json.loads(body)
    assert doc["head"]["vars"] == ["s", "o"] and len(doc["results"]["bindings"]) == 10
    assert native_json(_select(store), cap=10, budget=100) is None  # too big for the buffer


def test_a_result_too_big_for_the_buffer_is_written_row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(50)
    request = Request(query=QUERY, accept="application/sparql-results+json", row_cap=20)
    native = execute(store, request, {})
    monkeypatch.setattr("service.sparql.results.NATIVE_BUDGET", 64)
    by_rows = execute(store, request, {})
    assert (native.rows, native.truncated) == (by_rows.rows, by_rows.truncated) == (20, True)
    assert json.loads(native.body) == json.loads(by_rows.body)


@pytest.mark.parametrize(
    "query",
    [
        QUERY,
        'SELECT ?type ?x WHERE { VALUES (?type ?x) { (1 "a{}") (UNDEF UNDEF) ("{\\"type\\":\\"x" <http://a>) } }',
        'SELECT ?type WHERE { VALUES ?type { "x" <http://y> "{\\"type\\":\\"uri\\"}" } }',
        'SELECT ?t WHERE { BIND(<<( <http://a> <http://b> "c" )>> AS ?t) }',
        'SELECT ?l WHERE { VALUES ?l { "été"@fr "\\\\\\"{" "}{\\"" "{" "a{" "{}" "x{"@en } }',
        'SELECT ?l ?m WHERE { VALUES (?l ?m) { ("{" "{") ("}" "{\\"type\\":\\"") } }',
        "SELECT * WHERE {}",
        "SELECT ?s WHERE { ?s ?p ?o FILTER(false) }",
    ],
)  # fmt: skip
def test_the_rows_counted_without_parsing_are_the_rows_a_parser_reads(query: str) -> None:
    """The row count of X-SPARQL-Rows is read off pyoxigraph's JSON without parsing it: rows with no binding,
    strings holding braces and quotes, a variable named `type`, a triple term each count as a parser counts."""
    result = _store(5).query(query)
    assert isinstance(result, ox.QuerySolutions)
    body, rows, truncated = native_json(result, cap=100) or (b"", -1, True)
    assert rows == len(json.loads(body)["results"]["bindings"]) and not truncated
