"""A corpus of hostile requests, shared by the tests and `bench attack`: SERVICE in every spelling the review
found and their mutations, and malformed requests for every endpoint."""

from __future__ import annotations

import json
import random

# What may come before a SERVICE: each keeps the solution the SERVICE joins with (a pattern that matches
# nothing in an empty store would let Oxigraph skip the SERVICE, and no fetch could be seen).
BEFORE = [
    "", 'FILTER("\\u005C")', "# x\r", "# x\n", "BIND(e:a\\#b AS ?z)", "BIND(e:a\\' AS ?z)", "FILTER(1<2)",
    "FILTER(1<2)SERVICE#>\n", "BIND(\"\"\"a'b\"\"\" AS ?l)", "BIND('''x'''' AS ?l)", 'BIND("#" AS ?h)',
    "BIND(<http://x/#> AS ?i)", "OPTIONAL { ?s e:p? ?o }", "OPTIONAL { ?s e:p?x }", "{ }", "OPTIONAL { ?s ?p ?o }",
    "# \\u0022\n", 'FILTER("\\"" != "")', "BIND(e:a\\.b AS ?z)", "FILTER(1 < 2 && 3 > 2)", "VALUES ?v { 1 2 }",
    "BIND(e:x%41 AS ?z)", 'FILTER(STR(<http://x/>)<"z")', "BIND(1 AS ?n) FILTER(?n<2)",
]  # fmt: skip
FORMS = ["SERVICE", "service", "SeRvIcE", "SERVICE SILENT", "SERV\\u0049CE", "SERVICE\r", "SERVICE#c\n"]
GAPS = ["", " ", "\n", "\r", "\t", "# c\n", "# c\r", "#\r\n"]
TARGETS = ["<{url}/sparql>", "e:sparql", "?svc"]
TRICKY = [*"\"'\\#<>\r\n\t {}()?:.;,$_-@%^", "SERVICE", "service", "e:", "\\u", "005C", "<http://x/>"]


def service_query(before: str, gap: str, form: str, gap2: str, target: str, url: str) -> str:
    """A query that asks, in one of many spellings, for SERVICE at `url`."""
    values = f"VALUES ?svc {{ <{url}/sparql> }} " if target == "?svc" else ""
    return (f"PREFIX e: <{url}/> SELECT * WHERE {{ {values}{before}{gap}{form}{gap2}{target.format(url=url)} "
            "{ ?s ?p ?o } }")  # fmt: skip


def service_queries(url: str, n: int, rng: random.Random) -> list[str]:
    """Every combination of the forms above, then `n` random mutations of them."""
    out = [service_query(b, g, f, g2, t, url) for b in BEFORE for f in FORMS for t in TARGETS
           for g, g2 in (("", " "), (" ", ""), ("\r", "\n"))]  # fmt: skip
    for _ in range(n):
        base = rng.choice(out)
        cut = rng.randrange(len(base) + 1)
        noise = "".join(rng.choice(TRICKY) for _ in range(rng.randrange(1, 6)))
        out.append(base[:cut] + noise + base[cut:])
    return out


_TEXT = ["", " ", "x" * 600, "\x00", "\ufffd", "%ff", "../../etc/passwd", "<script>", "SELECT * {", "{", "]", '"',
         "Rust projects", "\U0001f600", "a\nb", "?q=1&q=2", "\\ud800", "DROP ALL", "ASK {}"]  # fmt: skip
_PATHS = ["/api/ask", "/api/preview", "/api/next", "/sparql", "/console", "/", "/wiki/Anything", "/id/Anything",
          "/healthz", "/readyz", "/openapi.json", "/static/style.css", "/nope", "/wiki/%2e%2e", "/id/%00"]  # fmt: skip


def _json_body(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return "[" * rng.randrange(500, 3000) + "]" * 3
    if kind == 1:
        return '{"question": "\\ud800"}'
    if kind == 2:
        return json.dumps({"question": rng.choice(_TEXT), "previous": rng.choice([*_TEXT, None, 5, [], {}])})
    if kind == 3:
        return rng.choice(['{"question": ', "null", "5", '"x"', "{}", '{"q": []}'])
    if kind == 4:
        return "{" + '"a":{' * rng.randrange(100, 2000) + "}" * 5
    return "".join(rng.choice(_TEXT) for _ in range(3))


def bad_request(rng: random.Random) -> tuple[str, str, dict[str, str], dict[str, str], bytes]:
    """One malformed request: method, path, query parameters, headers, body."""
    path = rng.choice(_PATHS)
    params: dict[str, str] = {}
    for name in rng.sample(["q", "previous", "query", "format", "default-graph-uri", "named-graph-uri", "trace",
                            "update", "output", "results"], rng.randrange(0, 4)):  # fmt: skip
        params[name] = rng.choice([*_TEXT, "json", "xml", "nope", "http://x/", "not an iri"])
    headers = {}
    if rng.random() < 0.5:
        headers["accept"] = rng.choice(["*/*", "text/html", "application/json", "text/*", "nope/nope", ";q=x", ""])
    method, body = "GET", b""
    if rng.random() < 0.5:
        method = "POST"
        headers["content-type"] = rng.choice(["application/json", "application/sparql-query", "text/plain", "",
                                              "application/x-www-form-urlencoded", "application/sparql-update",
                                              "application/json; charset=latin-1"])  # fmt: skip
        body = _json_body(rng).encode("utf-8", "surrogatepass")
    return method, path, params, headers, body
