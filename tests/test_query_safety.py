"""No value can change what a stored query does: text becomes one literal, anything else is refused."""

from __future__ import annotations

from datetime import date

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service import sparql_text
from service.kb import KB
from service.queries import TEXT_TYPES, Catalog, QueryError, read_query
from tests.conftest import ROOT

NASTY = ['"', "'", "}", "{", "#", "\n", "} DROP ALL", '" } ; DROP ALL ; #', "\x00", "\\", '"""', "'''", "$name", "<x>"]
text_values = st.one_of(
    st.text(),
    st.lists(st.sampled_from(NASTY) | st.text(max_size=3), max_size=8).map("".join),
)


def structure(query: str) -> list[tuple[str, str]]:
    """The query's tokens with every string literal's content hidden: what the query does, not what it says."""
    return [
        (t.kind, "STRING" if t.kind == "string" else t.text)
        for t in sparql_text.tokens(query)
        if t.kind not in ("space", "comment")
    ]


def literal_params() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "queries").glob("*.rq")):
        q, _ = read_query(path)
        out += [(q.name, p.name) for p in q.params.values() if p.type in TEXT_TYPES]
    return out


def test_the_shipped_queries_take_text() -> None:
    assert literal_params(), "no stored query takes text: the test below would check nothing"


@pytest.mark.parametrize(("name", "param"), literal_params())
@settings(max_examples=300, deadline=None)
@given(value=text_values)
def test_text_parameters_keep_the_query_structure(demo_kb: KB, name: str, param: str, value: str) -> None:
    plain = demo_kb.catalog.fill(name, {param: "plain"})
    filled = demo_kb.catalog.fill(name, {param: value})
    assert structure(filled) == structure(plain)
    result = demo_kb.store.query(filled, use_default_graph_as_union=True)  # parses, and runs
    assert isinstance(result, ox.QuerySolutions)
    assert [v.value for v in result.variables] == [v.value for v in demo_kb.store.query(plain).variables]  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def echo(demo_kb: KB, tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """A catalog with one query that returns its parameter as it arrived."""
    path = tmp_path_factory.mktemp("echo") / "echo.rq"
    path.write_text("# title: echo\n# param: s string any text\nSELECT ?v WHERE { BIND($s AS ?v) }\n")
    query, problems = read_query(path)
    assert not problems
    return Catalog({"echo": query}, demo_kb.store, lambda _iri: False)


@settings(max_examples=300, deadline=None)
@given(value=text_values)
def test_text_arrives_verbatim(echo: Catalog, value: str) -> None:
    rows = echo.run("echo", {"s": value}).rows
    assert len(rows) == 1 and rows[0]["v"].value == value


@settings(max_examples=300, deadline=None)
@given(value=st.text())
def test_dates_accept_only_dates(demo_kb: KB, value: str) -> None:
    try:
        date.fromisoformat(value)
        valid = True
    except ValueError:
        valid = False
    if valid:
        demo_kb.catalog.fill("works-in-period", {"start": value, "end": "2025-12-31"})
    else:
        with pytest.raises(QueryError):
            demo_kb.catalog.fill("works-in-period", {"start": value, "end": "2025-12-31"})


@settings(max_examples=300, deadline=None)
@given(value=st.text() | st.sampled_from(["javascript:alert(1)", "https://a@b.example/", "ftp://x.example/", "x"]))
def test_iri_parameters_accept_only_entities_and_plain_urls(demo_kb: KB, value: str) -> None:
    try:
        filled = demo_kb.catalog.fill("works-using-skill", {"skill": value})
    except QueryError:
        return
    assert value.startswith(("https://", "http://")) and "@" not in value.split("/")[2]
    # the same query but for the IRI given ("http://0" is a plain URL too): nothing else in it changed
    assert _masked(filled, value) == _masked(demo_kb.catalog.fill("works-using-skill", {"skill": ID_RUST}), ID_RUST)


def _masked(query: str, iri: str) -> list[tuple[str, str]]:
    return [(kind, "<IRI>" if kind == "iri" and text == f"<{iri}>" else text) for kind, text in structure(query)]


ID_RUST = "https://inescalder.example/id/Rust"
