"""Form-encoded fields (service/web/form.py) read exactly as the standard library's parse_qs reads them."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, quote

from service.web.form import fields


def test_every_input_gives_the_fields_parse_qs_gives() -> None:
    rng = random.Random(7)
    alphabet = "ab=&+%\\xé∑{}<>?# \t\n0123456789ABCDEFfzu\udcff"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        if rng.random() < 0.3:
            text = quote(text, safe="=&%", errors="surrogatepass")
        if rng.random() < 0.3:  # escapes of UTF-8 sequences, whole and broken
            text = text.replace("u", "%C3%A9").replace("z", "%e2%88").replace("f", "%F0%9F%98%80")
        assert fields(text) == parse_qs(text, keep_blank_values=True), repr(text)


def test_a_sparql_query_in_a_url() -> None:
    query = 'PREFIX pf: <https://folio.example/ns#>\nSELECT ?w WHERE { ?w pf:uses ?s ; rdfs:label "a+b \\"é\\"" }'
    assert fields("query=" + quote(query) + "&format=json&x") == {"query": [query], "format": ["json"], "x": [""]}
