"""The answers /sparql keeps for a build (service/sparql/cache.py): bounded in bytes, least recently used first
out, only what running the query again would give again."""

from __future__ import annotations

from service.sparql.cache import OVERHEAD, Results, key
from service.sparql.worker import Outcome, Request
from service.sparql_safety import repeatable


def _answer(size: int, status: int = 200) -> Outcome:
    return Outcome(status, "application/sparql-results+json", b"x" * size)


def test_the_same_request_is_one_key_and_anything_an_answer_depends_on_another() -> None:
    base = Request("ASK {}", "text/csv")
    assert key(base) == key(Request("ASK {}", "text/csv"))
    others = [Request("ASK { }", "text/csv"), Request("ASK {}", "application/json"),
              Request("ASK {}", "text/csv", default_graphs=("http://g",)),
              Request("ASK {}", "text/csv", named_graphs=("http://g",)), Request("ASK {}", "text/csv", row_cap=5),
              Request("ASK {}", "text/csv", base_iri="http://other/sparql"),
              Request("ASK {}", "text/csv", max_bytes=10)]  # fmt: skip
    assert len({key(r) for r in [base, *others]}) == len(others) + 1


def test_bounded_in_bytes_and_the_least_recently_used_goes_first() -> None:
    kept = Results(max_bytes=3 * (1000 + OVERHEAD), max_entry=2000)
    for n in range(3):
        kept.put(bytes([n]), _answer(1000))
    assert kept.get(bytes([0])) is not None  # now the most recently used
    kept.put(bytes([3]), _answer(1000))
    assert kept.get(bytes([1])) is None and kept.get(bytes([0])) is not None and kept.get(bytes([3])) is not None
    assert kept.bytes <= kept.max_bytes and len(kept) == 3
    kept.put(b"big", _answer(5000))
    assert kept.get(b"big") is None  # bigger than an entry may be: never kept
    kept.clear()
    assert len(kept) == 0 and kept.bytes == 0


def test_limits_and_failures_are_not_kept() -> None:
    kept = Results(max_bytes=1 << 20)
    for status in (503, 500, 499):
        kept.put(b"k", _answer(10, status))
        assert kept.get(b"k") is None
    kept.put(b"k", _answer(10, 400))
    assert kept.get(b"k") is not None  # a syntax error is the same next time


def test_functions_whose_value_changes_make_a_query_unrepeatable() -> None:
    assert repeatable("SELECT ?s WHERE { ?s a pf:Work }")
    assert repeatable("SELECT ?s WHERE { ?s rdfs:label ?l FILTER(CONTAINS(?l, 'known')) }")  # `now` inside a word
    for text in ("SELECT (RAND() AS ?r) {}", "SELECT (now() AS ?t) {}", "SELECT (UUID() AS ?u) {}",
                 "SELECT (STRUUID () AS ?u) {}", "SELECT (BNODE() AS ?b) {}",
                 "SELECT ?a { FILTER(?a<NOW()) }"):  # fmt: skip
        assert not repeatable(text), text
