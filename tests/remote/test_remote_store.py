"""The engine and the build on a real Oxigraph server instead of the embedded store: the same plans for every
generated question, the same entity pages, and builds that switch all at once or not at all."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest

from service import snapshot
from service.engine import Planner, load
from service.errors import BuildFailed, FolioError
from service.kb import KB
from service.kb.build import build
from service.kb.remote import GRAPH_MARKER, RemoteStore
from service.topology import Store, environment
from service.vocab import GRAPH_DATA
from tests.conftest import TODAY, copy_inputs, quiet
from tests.remote.conftest import built_for, open_remote

# The test's own look at the store: the live data graph's size and the build marker, in one read.
LIVE = f"""
SELECT ?n ?digest WHERE {{
  {{ SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{GRAPH_DATA}> {{ ?s ?p ?o }} }} }}
  OPTIONAL {{ GRAPH <{GRAPH_MARKER}> {{ ?m <http://purl.org/dc/terms/identifier> ?digest }} }}
}}"""
GRAPHS = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"


def live(store: Store) -> tuple[int, str]:
    remote = RemoteStore(store.query)
    row = next(iter(remote.query(LIVE)))
    remote.close()
    return int(row[0].value), row[1].value if row[1] is not None else ""


def graphs(store: Store) -> set[str]:
    remote = RemoteStore(store.query)
    found = {row[0].value for row in remote.query(GRAPHS)}
    remote.close()
    return found


# Virtuoso 7.2.5 (Debian 12) answers a one-sided date range over an indexed object wrongly: `?m pf:activeMonth`
# with FILTER (?m <= "2013-04-30"^^xsd:date) gives no row where a lower bound added gives the right five. Plans
# whose period queries meet it differ there, and only there (docs/SCALE.md); a list of the period that then shows a
# recurring work reads its times too (occurrences), and a list of one work its account (entity-facts).
PERIOD_QUERIES = {"works-in-period", "roles-in-period", "occurrences"}
FOLLOWING = {"occurrences", "entity-facts"}  # read because of what a period query returned, never alone


def _differ(embedded: dict[str, Any], served: dict[str, Any], engine: str) -> tuple[list[str], list[str]]:
    """The questions whose plans differ: those the engine's known fault explains, and the rest."""
    differ = [q for q in embedded["plans"] if embedded["plans"][q] != served["plans"].get(q)]
    if engine != "virtuoso":
        return [], differ

    def period_rows_only(q: str) -> bool:
        a, b = embedded["plans"][q], served["plans"][q]
        runs = {(name, rows) for name, rows, _ in a["sparql"]} ^ {(name, rows) for name, rows, _ in b["sparql"]}
        names = {name for name, _ in runs}
        return bool(names & (PERIOD_QUERIES - FOLLOWING)) and names <= PERIOD_QUERIES | FOLLOWING
    return [q for q in differ if period_rows_only(q)], [q for q in differ if not period_rows_only(q)]


@pytest.mark.slow
def test_every_generated_question_gets_the_same_plan_on_the_remote_store(
    planner: Planner, demo_store: Store, remote_demo_path: Path, engine: str
) -> None:
    remote = load(open_remote(demo_store, remote_demo_path))
    assert remote.engine.kb.remote
    embedded, served = snapshot.record(planner, TODAY), snapshot.record(remote, TODAY)
    assert len(embedded["plans"]) > 3000
    known, differ = _differ(embedded, served, engine)
    assert differ == [], f"{len(differ)} plans differ, e.g. {differ[:5]}"
    assert len(known) < len(embedded["plans"]) // 50, known  # Virtuoso's date ranges: at the graph's first years


@pytest.mark.slow
def test_the_second_portfolio_gets_the_same_plans_too(
    mateo_planner: Planner, mateo_store: Store, remote_mateo_path: Path, engine: str
) -> None:
    remote = load(open_remote(mateo_store, remote_mateo_path))
    embedded, served = snapshot.record(mateo_planner, TODAY), snapshot.record(remote, TODAY)
    assert len(embedded["plans"]) > 500
    known, differ = _differ(embedded, served, engine)
    assert differ == [] and len(known) < len(embedded["plans"]) // 50, (differ[:5], known)


def test_an_entity_page_reads_the_same_statements_and_graphs(
    planner: Planner, demo_store: Store, remote_demo_path: Path
) -> None:
    kb = open_remote(demo_store, remote_demo_path)
    person = ox.NamedNode(kb.site.entity_base + kb.site.person)
    embedded = planner.engine.kb.store
    here = {(q.predicate, q.object, q.graph_name) for q in embedded.quads_for_pattern(person, None, None)}
    there = {(q.predicate, q.object, q.graph_name) for q in kb.store.quads_for_pattern(person, None, None)}
    assert len(here) > 20 and here == there
    stated = set(kb.store.quads_for_pattern(person, None, None, ox.NamedNode(GRAPH_DATA)))
    assert stated and all(q.graph_name == ox.NamedNode(GRAPH_DATA) for q in stated)


def test_the_manifest_says_the_store_is_remote_and_counts_what_it_holds(
    demo_store: Store, remote_demo_path: Path, demo_kb_path: Path
) -> None:
    kb = open_remote(demo_store, remote_demo_path)
    assert kb.manifest["store"] == "remote" and not (remote_demo_path / "store").exists()
    embedded = KB.open(demo_kb_path)
    assert kb.digest == embedded.digest  # the same inputs: the same build, on any machine
    t = kb.manifest["counts"]["triples"]
    assert t["store"] == t["ontology"] + t["stated"] + t["inferred"] + 2  # and the marker's two triples
    assert kb.store_build() == kb.digest


def test_serving_a_remote_kb_without_store_url_says_what_is_missing(remote_demo_path: Path) -> None:
    with environment({"STORE_URL": ""}), pytest.raises(FolioError, match="STORE_URL"):
        KB.open(remote_demo_path)


def test_a_rebuild_switches_every_graph_at_once(tmp_path: Path, demo_store: Store, engine: str) -> None:
    """A reader polling the store while the KB is rebuilt with more data sees the old build or the new one,
    never the new data with the old marker or half an upload. Virtuoso 7.2.5 gives a reader no snapshot of an
    update under way (docs/SCALE.md): there only the builds before and after are checked."""
    sources = copy_inputs(tmp_path)
    kb = built_for(demo_store, sources, tmp_path / "kb")
    before = live(demo_store)
    seen: set[tuple[int, str]] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.add(live(demo_store))

    (sources.data / "extra.ttl").write_text(
        "@prefix pf: <https://folio.example/ns#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        + "".join(f'<https://inescalder.example/id/Note{i}> rdfs:comment "note {i}" .\n' for i in range(3000)),
        encoding="utf-8",
    )
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        built_for(demo_store, sources, kb)
    finally:
        done.set()
        watcher.join()
    after = live(demo_store)
    assert after[0] == before[0] + 3000 and after[1] != before[1]
    assert before in seen or after in seen
    if engine != "virtuoso":
        assert seen <= {before, after}, f"the reader saw a half-switched store: {seen - {before, after}}"
    assert not any("/staged/" in g for g in graphs(demo_store))


def test_a_failed_upload_leaves_the_served_build_and_store_as_they_were(tmp_path: Path, demo_store: Store) -> None:
    sources = copy_inputs(tmp_path)
    kb = built_for(demo_store, sources, tmp_path / "kb")
    before, target = live(demo_store), kb.resolve()
    (sources.data / "extra.ttl").write_text(
        '<https://inescalder.example/id/Tessera> <http://www.w3.org/2000/01/rdf-schema#comment> "new" .\n',
        encoding="utf-8",
    )
    broken = demo_store.settings() | {"STORE_GSP_URL": demo_store.gsp.rsplit("/", 1)[0] + "/no-such-path"}
    with environment(broken), pytest.raises(BuildFailed, match="upload"):
        build(sources, kb, log=quiet)
    assert live(demo_store) == before
    assert kb.resolve() == target
    assert not any("/staged/" in g for g in graphs(demo_store))


def test_a_build_for_a_remote_store_needs_its_update_and_upload_addresses(tmp_path: Path, demo_store: Store) -> None:
    sources = copy_inputs(tmp_path)
    alone = {"STORE_URL": demo_store.query, "STORE_UPDATE_URL": "", "STORE_GSP_URL": ""}
    with environment(alone), pytest.raises(BuildFailed, match="STORE_UPDATE_URL"):
        build(sources, tmp_path / "kb", log=quiet)
    assert not (tmp_path / "kb").exists()
    shutil.rmtree(tmp_path / "kb.builds", ignore_errors=True)
