"""A build published to a remote store ($STORE_UPDATE_URL and $STORE_GSP_URL), so a running site never sees
half of it: every graph is uploaded under a staged name of its own (Graph Store Protocol), then one SPARQL
update moves the staged graphs onto the live ones together with a marker of the build (service/kb/sparql/
switch.ru). A build that fails before the switch drops its staged graphs; the live graphs stay as they were.

The marker graph says which build the store holds (`dcterms:identifier` the build's digest), so every
replica can tell whether its own KB folder and the store are the same build (/readyz) and start its caches
afresh when the store moves on.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import pyoxigraph as ox

from service import sparql_text
from service.config import setting
from service.errors import BuildFailed
from service.kb.remote import GRAPH_MARKER, KB_GRAPHS, Address, Client, RemoteStore, StoreUnavailable, internal_query
from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY

DCTERMS = "http://purl.org/dc/terms/"
XSD = "http://www.w3.org/2001/XMLSchema#"
_ROLES = {GRAPH_ONTOLOGY: "ontology", GRAPH_DATA: "data", GRAPH_INFERRED: "inferred", GRAPH_MARKER: "marker"}


@dataclass(frozen=True)
class Target:
    """The remote store's three addresses: queries, updates, and the Graph Store Protocol."""

    query_url: str
    update_url: str
    gsp_url: str
    timeout: float

    @classmethod
    def from_settings(cls) -> Target | None:
        """The remote store the build publishes to, or None to build the embedded store."""
        query = setting("STORE_URL")
        if not query:
            return None
        update, gsp = setting("STORE_UPDATE_URL"), setting("STORE_GSP_URL")
        if not update or not gsp:
            raise BuildFailed("a build for a remote store needs STORE_UPDATE_URL (the switch) and STORE_GSP_URL "
                              "(the upload) besides STORE_URL")  # fmt: skip
        return cls(query, update, gsp, float(setting("STORE_BUILD_TIMEOUT")))


@dataclass(frozen=True)
class Staged:
    """A build's graphs uploaded under their staged names, not served yet."""

    stamp: str
    names: dict[str, str]  # live graph -> staged graph
    triples: int

    def terms(self) -> dict[str, str]:
        out = {}
        for live, staged in self.names.items():
            role = _ROLES[live]
            out[role] = str(ox.NamedNode(live))
            out["staged_" + role] = str(ox.NamedNode(staged))
        return out


def stage(target: Target, stamp: str, ontology: list[Path], data: list[Path], inferred: bytes, digest: str) -> Staged:
    """Upload every graph of the build under a staged name; returns what `switch` needs. On failure, what was
    uploaded is dropped and BuildFailed says why."""
    _answering(target, float(setting("STORE_WAIT")))
    names = {live: f"{live}/staged/{stamp}" for live in (*KB_GRAPHS, GRAPH_MARKER)}
    staged = Staged(stamp, names, 0)
    gsp = Client(Address.parse(target.gsp_url), target.timeout)
    try:
        for files, live in ((ontology, GRAPH_ONTOLOGY), (data, GRAPH_DATA)):
            for path in files:
                _upload(gsp, names[live], path.read_bytes(), "text/turtle")
        _upload(gsp, names[GRAPH_INFERRED], inferred, "application/n-triples")
        _upload(gsp, names[GRAPH_MARKER], _marker(digest), "application/n-triples")
        return Staged(stamp, names, _count(target, list(names.values())))
    except (StoreUnavailable, BuildFailed) as e:
        drop(target, staged)
        raise BuildFailed(f"uploading the build to the remote store failed: {e}") from None


def _answering(target: Target, wait: float) -> None:
    """Wait up to `wait` seconds for the store to answer a query: a store started beside the build (docker compose)
    may still be opening, and its image has no shell for a health check to wait on."""
    deadline = time.monotonic() + wait
    pause = 0.1
    while True:
        store = RemoteStore(target.query_url, timeout=min(target.timeout, 5.0))
        try:
            store.ping()
            return
        except StoreUnavailable as e:
            if time.monotonic() + pause > deadline:
                raise BuildFailed(f"the remote store did not answer within {wait:g} s (STORE_WAIT): {e}") from None
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
        finally:
            store.close()


def switch(target: Target, staged: Staged) -> None:
    """Serve the staged build: one update request."""
    _update(target, "switch.ru", staged)


def drop(target: Target, staged: Staged) -> None:
    """Forget a staged build that will not be served (best effort: the store may be what failed)."""
    with contextlib.suppress(StoreUnavailable, BuildFailed):
        _update(target, "drop-staged.ru", staged)


def _update(target: Target, name: str, staged: Staged) -> None:
    text = sparql_text.substitute(internal_query(name), staged.terms())
    client = Client(Address.parse(target.update_url), target.timeout)
    status, _, body, _ = client.post(text.encode(), "application/sparql-update")
    if status not in (200, 204):
        raise BuildFailed(f"the store refused {name} ({status}): {body.decode('utf-8', 'replace')[:300]}")


def _upload(gsp: Client, graph: str, body: bytes, media: str) -> None:
    sep = "&" if "?" in gsp.address.path else "?"
    status, _, answer, _ = gsp.post(body, media, path=f"{gsp.address.path}{sep}graph={quote(graph, safe='')}")
    if status not in (200, 201, 204):
        raise BuildFailed(f"the store refused the upload to <{graph}> ({status}): "
                          f"{answer.decode('utf-8', 'replace')[:300]}")  # fmt: skip


def _marker(digest: str) -> bytes:
    marker = ox.NamedNode(GRAPH_MARKER)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    triples = [
        ox.Triple(marker, ox.NamedNode(DCTERMS + "identifier"), ox.Literal(digest)),
        ox.Triple(marker, ox.NamedNode(DCTERMS + "created"), ox.Literal(now, datatype=ox.NamedNode(XSD + "dateTime"))),
    ]
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""


def _count(target: Target, graphs: Iterable[str]) -> int:
    store = RemoteStore(target.query_url, timeout=target.timeout)
    rows = store.query(internal_query("graph-sizes.rq"), named_graphs=[ox.NamedNode(g) for g in graphs])
    return sum(int(row[1].value) for row in rows)
