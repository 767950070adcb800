"""The W3C SPARQL 1.1 Protocol tests that apply to a read-only endpoint, run against a real uvicorn server,
and the JSON and CSV/TSV result-format tests. The query tests must pass; the update tests must be refused."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pyoxigraph as ox
import pytest
import rdflib
from rdflib.collection import Collection

from service.bench_http import free_port
from service.sparql.pool import Request, execute
from service.web.sparql import prefixes
from tests.conftest import ROOT

W3C = ROOT / "tests" / "conformance" / "w3c-sparql11"  # vendored W3C test data, with its licence
MF = rdflib.Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = rdflib.Namespace("http://www.w3.org/2011/http#")
CNT = rdflib.Namespace("http://www.w3.org/2011/content#")
UT = rdflib.Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
QT = rdflib.Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-query#")


def manifest(folder: str) -> tuple[rdflib.Graph, list[rdflib.term.Node]]:
    path = W3C / folder / "manifest.ttl"
    g = rdflib.Graph().parse(path, publicID=path.as_uri())
    head = g.value(predicate=MF.entries)
    entries = g.value(subject=g.value(predicate=rdflib.RDF.type, object=MF.Manifest), predicate=MF.entries)
    listed = entries or head
    assert listed is not None
    return g, list(Collection(g, listed))


PROTOCOL, PROTOCOL_TESTS = manifest("protocol")


def is_update(g: rdflib.Graph, test: rdflib.term.Node) -> bool:
    name = str(g.value(test, MF.name))
    return name.startswith(("update", "invoke update")) or "BASE URI" in name


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store_dir = tmp_path_factory.mktemp("w3c") / "store"
    store = ox.Store(str(store_dir))
    loaded = set()
    for data in PROTOCOL.subjects(UT.graph, None):
        file, label = PROTOCOL.value(data, UT.graph), PROTOCOL.value(data, rdflib.RDFS.label)
        if (file, label) in loaded:
            continue
        loaded.add((file, label))
        store.load(path=Path(str(file).removeprefix("file://")), format=ox.RdfFormat.N_TRIPLES,
                   to_graph=ox.NamedNode(str(label)))  # fmt: skip
    store.flush()
    del store
    port = free_port()
    env = {**os.environ, "STORE_DIR": str(store_dir), "SPARQL_WORKERS": "1"}
    log = (tmp_path_factory.mktemp("w3c-log") / "server.log").open("wb")
    command = [sys.executable, "-m", "uvicorn", "--factory", "service.web.app:sparql_app_factory", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(base + "/sparql", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    yield base
    process.terminate()
    process.wait(10)
    log.close()


def _request(base: str, req: rdflib.term.Node) -> tuple[httpx.Response, rdflib.term.Node | None]:
    g = PROTOCOL
    method = str(g.value(req, HT.methodName))
    path = str(g.value(req, HT.absolutePath))
    headers = {}
    listed = g.value(req, HT.headers)
    for h in Collection(g, listed) if listed is not None else []:
        headers[str(g.value(h, HT.fieldName))] = str(g.value(h, HT.fieldValue))
    body = g.value(req, HT.body)
    content = None
    if body is not None:
        encoding = str(g.value(body, CNT.characterEncoding) or "UTF-8")
        content = str(g.value(body, CNT.chars)).encode(encoding)
    with httpx.Client(base_url=base, timeout=30) as client:
        response = client.request(method, path, headers=headers, content=content)
    return response, g.value(req, HT.resp)


def _is_update_request(req: rdflib.term.Node) -> bool:
    g = PROTOCOL
    listed = g.value(req, HT.headers)
    values = [str(g.value(h, HT.fieldValue)) for h in (Collection(g, listed) if listed else [])]
    body = g.value(req, HT.body)
    text = str(g.value(body, CNT.chars)) if body is not None else ""
    path = str(g.value(req, HT.absolutePath))
    return "application/sparql-update" in values or text.startswith("update=") or "update=" in path


def _status_ok(status: int, expected: list[str]) -> bool:
    return any(e.endswith(f"StatusCode{status // 100}xx") for e in expected)


def _format_ok(response: httpx.Response, fmt: str | None, boolean: object) -> bool:
    media = response.headers.get("content-type", "").split(";")[0]
    if fmt == "boolean":
        if "json" in media:
            value = response.json().get("boolean")
        else:
            m = re.search(r"<boolean>\s*(true|false)\s*</boolean>", response.text)
            value = m.group(1) == "true" if m else None
        return value is not None and (boolean is None or value == bool(boolean))
    if fmt == "tabular":
        return media in ("application/sparql-results+json", "application/sparql-results+xml", "text/csv",
                         "text/tab-separated-values")  # fmt: skip
    if fmt == "RDF":
        return media in ("application/rdf+xml", "text/turtle", "application/n-triples", "application/ld+json")
    return True


RESULTS: dict[str, int] = {"query": 0, "passed": 0, "update": 0, "refused": 0}


@pytest.mark.parametrize("test", PROTOCOL_TESTS, ids=[str(PROTOCOL.value(t, MF.name)) for t in PROTOCOL_TESTS])
def test_protocol(endpoint: str, test: rdflib.term.Node) -> None:
    g = PROTOCOL
    listed = g.value(g.value(test, MF.action), HT.requests)
    assert listed is not None
    requests = list(Collection(g, listed))
    update = is_update(g, test)
    for req in requests:
        response, expected = _request(endpoint, req)
        assert response.status_code < 500, response.text
        if update:
            if _is_update_request(req):
                assert 400 <= response.status_code < 500, f"an update must be refused, got {response.status_code}"
            continue
        statuses = [str(s) for s in g.objects(expected, MF.expectedStatus)]
        assert _status_ok(response.status_code, statuses), (response.status_code, statuses, response.text[:300])
        fmt = g.value(expected, MF.expectedFormat)
        assert _format_ok(response, str(fmt) if fmt else None, g.value(expected, MF.expectedBoolean)), response.text[
            :300
        ]
    RESULTS["update" if update else "query"] += 1
    RESULTS["refused" if update else "passed"] += 1


def test_protocol_counts_are_printed() -> None:
    queries = sum(1 for t in PROTOCOL_TESTS if not is_update(PROTOCOL, t))
    updates = len(PROTOCOL_TESTS) - queries
    print(f"\nW3C protocol: {RESULTS['passed']} of {queries} query tests passed, "
          f"{RESULTS['refused']} of {updates} update tests refused")  # fmt: skip
    assert RESULTS["passed"] == queries and RESULTS["refused"] == updates


def _format_cases(folder: str) -> list[tuple[str, Path, Path, Path]]:
    g, tests = manifest(folder)
    out = []
    for t in tests:
        action = g.value(t, MF.action)
        query = Path(str(g.value(action, QT.query)).removeprefix("file://"))
        data = Path(str(g.value(action, QT.data)).removeprefix("file://"))
        result = Path(str(g.value(t, MF.result)).removeprefix("file://"))
        out.append((str(g.value(t, MF.name)), query, data, result))
    return out


FORMAT_CASES = _format_cases("json-res") + _format_cases("csv-tsv-res")
MEDIA = {".srj": "application/sparql-results+json", ".csv": "text/csv", ".tsv": "text/tab-separated-values"}


def _bnodes(text: str) -> str:
    """Blank node labels in order of appearance, so two serializations can be compared."""
    seen: dict[str, str] = {}
    return re.sub(r"_:(\w+)", lambda m: "_:" + seen.setdefault(m.group(1), f"b{len(seen)}"), text)


@pytest.mark.parametrize(("name", "query", "data", "expected"), FORMAT_CASES, ids=[c[0] for c in FORMAT_CASES])
def test_result_format(name: str, query: Path, data: Path, expected: Path) -> None:
    store = ox.Store()
    store.load(path=data, format=ox.RdfFormat.TURTLE)
    outcome = execute(store, Request(query.read_text(), MEDIA[expected.suffix]), prefixes("http://example.org/id/"))
    assert outcome.status == 200, outcome.message
    got, want = outcome.body.decode(), expected.read_text()
    if expected.suffix == ".srj":
        assert _json_bnodes(json.loads(got)) == _json_bnodes(json.loads(want))
    else:
        rows = [_cells(_bnodes(text)) for text in (got, want)]
        assert rows[0] == rows[1]


def _json_bnodes(doc: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, str] = {}
    for binding in doc.get("results", {}).get("bindings", []):
        for term in binding.values():
            if term["type"] == "bnode":
                term["value"] = seen.setdefault(term["value"], f"b{len(seen)}")
    return doc


NUMERIC = re.compile(r'^"([^"]*)"\^\^<http://www\.w3\.org/2001/XMLSchema#\w*(?:[Ii]nteger|decimal|double|float)>$')


def _cells(text: str) -> list[list[object]]:
    """Lines split into cells; numbers compared as numbers (Oxigraph keeps a double's value, not its
    lexical form: "1.0E6" comes back as 1000000)."""
    out: list[list[object]] = []
    for line in text.replace("\r\n", "\n").strip().split("\n"):
        cells: list[object] = []
        for cell in re.split(r"[,\t]", line):
            typed = NUMERIC.match(cell)  # Oxigraph also stores xsd:negativeInteger "-3" as xsd:integer
            try:
                cells.append(float(typed.group(1) if typed else cell))
            except ValueError:
                cells.append(cell)
        out.append(cells)
    return out
