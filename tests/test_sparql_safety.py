"""SERVICE is impossible, not just refused: the check reads queries as Oxigraph's parser does.

Differential: generated and mutated queries are run on a real store while a loopback HTTP listener counts
fetches. Any query the check lets through must cause zero fetches; the harness itself is shown to catch a
SERVICE (the same queries, unchecked, do fetch).
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.sparql.attacks import BEFORE, FORMS, GAPS, TARGETS, TRICKY, service_query
from service.sparql_safety import MAX_DEPTH, Refused, check, depth, names_its_dataset, service_keywords

EMPTY = b'{"head":{"vars":["s"]},"results":{"bindings":[]}}'


class _Counter(http.server.BaseHTTPRequestHandler):
    fetches = 0

    def _answer(self) -> None:
        type(self).fetches += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(EMPTY)))
        self.end_headers()
        self.wfile.write(EMPTY)

    do_GET = do_POST = _answer  # noqa: N815

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture(scope="module")
def listener() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def fetches(query: str) -> int:
    """How many requests running the query made (0 for a syntax error)."""
    before = _Counter.fetches
    try:
        result = ox.Store().query(query)
        if isinstance(result, ox.QuerySolutions):
            list(result)
    except (SyntaxError, OSError, ValueError, RuntimeError):
        pass
    return _Counter.fetches - before


def query_of(before: str, gap: str, form: str, gap2: str, target: str, url: str) -> str:
    return service_query(before, gap, form, gap2, target, url)


def allowed(query: str) -> bool:
    try:
        check(query)
    except Refused:
        return False
    return True


def test_the_reported_bypasses_are_refused(listener: str) -> None:
    """The four forms a security review found, each one fetching when run without the check."""
    for before in ['FILTER("\\u005C") ', "# x\r", "BIND(e:a\\#b AS ?z) ", "BIND(e:a\\' AS ?z) ", "FILTER(1<2)"]:
        q = query_of(before, "", "SERVICE", " ", "<{url}/sparql>", listener)
        assert fetches(q) > 0, f"the harness must see the fetch of {q!r}"
        assert not allowed(q), q
    q = f"PREFIX e: <{listener}/> SELECT * WHERE {{ FILTER(1<2)SERVICE#>\n<{listener}/sparql> {{ ?s ?p ?o }} }}"
    assert fetches(q) > 0 and not allowed(q)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.sampled_from(BEFORE), gap=st.sampled_from(GAPS), form=st.sampled_from(FORMS),
       gap2=st.sampled_from(GAPS), target=st.sampled_from(TARGETS))  # fmt: skip
def test_generated_queries_that_pass_fetch_nothing(
    listener: str, before: str, gap: str, form: str, gap2: str, target: str
) -> None:
    q = query_of(before, gap, form, gap2, target, listener)
    if allowed(q):
        assert fetches(q) == 0, q




@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=st.sampled_from(BEFORE),
    noise=st.lists(st.sampled_from(TRICKY) | st.text(max_size=2), max_size=6).map("".join),
    at=st.integers(min_value=0, max_value=200),
)
def test_mutated_queries_that_pass_fetch_nothing(listener: str, before: str, noise: str, at: int) -> None:
    base = query_of(before, " ", "SERVICE", " ", "<{url}/sparql>", listener)
    cut = at % (len(base) + 1)
    q = base[:cut] + noise + base[cut:]
    if allowed(q):
        assert fetches(q) == 0, q


def test_the_word_service_in_text_is_allowed() -> None:
    """Not a keyword: in a string, an IRI, a comment, a variable, a prefixed name or a language tag."""
    for q in [
        'SELECT * WHERE { ?s ?p "SERVICE" }',
        "SELECT * WHERE { ?s ?p <http://x/SERVICE> }",
        "SELECT * WHERE { ?s ?p ?o } # SERVICE <http://x>",
        "SELECT ?service WHERE { ?s ?p ?service }",
        "PREFIX pf: <https://folio.example/ns#> SELECT * WHERE { ?s a pf:Service }",
        'SELECT * WHERE { ?s ?p "x"@en-SERVICE }',
    ]:
        assert service_keywords(q) == [], q
        check(q)


def test_every_keyword_spelling_is_refused() -> None:
    for q in [
        "SELECT * WHERE { SERVICE<http://x/> {} }",
        "SELECT * WHERE { service ?x {} }",
        "PREFIX ex: <http://x/> SELECT * WHERE { SERVICEex:a {} }",
        "SELECT * {SERVICE SILENT <http://x/>{}}",
    ]:
        with pytest.raises(Refused, match="SERVICE"):
            check(q)


def test_nesting_is_measured_outside_text() -> None:
    assert depth("SELECT * WHERE { { ?s ?p ?o } }")[0] == 2
    assert depth('SELECT * WHERE { BIND("((((((" AS ?x) }')[0] == 2
    with pytest.raises(Refused) as refused:
        check("SELECT * WHERE " + "{" * (MAX_DEPTH + 1) + "}" * (MAX_DEPTH + 1))
    assert refused.value.status == 400


def test_a_query_that_names_its_dataset() -> None:
    assert names_its_dataset("SELECT * FROM <http://x/g> WHERE { ?s ?p ?o }")
    assert names_its_dataset("SELECT * FROM NAMED <http://x/g> WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert not names_its_dataset('SELECT * WHERE { ?s ?p "FROM" }')
