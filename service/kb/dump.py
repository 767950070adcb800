"""The whole graph as files, written at build time: each named graph of the KB (the ontology, the stated data and
what OWL 2 RL inferred from them, kept apart) as gzipped N-Triples and Turtle, and all of them in one file as
N-Quads and TriG (each triple in its graph), each with its triple count, size and SHA-256 recorded in the
manifest, so a crawler can take everything in one request and check what it took.

The files are the same bytes for the same inputs (sorted N-Triples, blank nodes labelled canonically, gzip
without a time stamp), so two builds of one set of inputs publish one digest. They are written into the build's
own folder: a failed build leaves the serving KB, and its dump, as they were.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import rdflib
from rdflib.compare import to_canonical_graph

from service.kb.layout import GRAPHS
from service.kb.rdf import graph_to_ntriples
from service.vocab import PREFIXES

SERIALIZATIONS = {  # extension: (media type, pyoxigraph format)
    "nt": ("application/n-triples", ox.RdfFormat.N_TRIPLES),
    "ttl": ("text/turtle", ox.RdfFormat.TURTLE),
}
DATASET_SERIALIZATIONS = {  # the whole dataset in one file
    "nq": ("application/n-quads", ox.RdfFormat.N_QUADS),
    "trig": ("application/trig", ox.RdfFormat.TRIG),
}


def _sorted_ntriples(graph: rdflib.Graph) -> bytes:
    """One triple a line, sorted; blank nodes relabelled canonically (by their place in the graph), since the
    parser draws their labels afresh on each build."""
    if any(isinstance(term, rdflib.BNode) for triple in graph for term in triple):
        graph = to_canonical_graph(graph)
    lines = sorted({line for line in graph_to_ntriples(graph).splitlines() if line.strip()})
    return b"\n".join(lines) + (b"\n" if lines else b"")


def _write(path: Path, body: bytes) -> dict[str, Any]:
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    path.write_bytes(packed)
    return {"bytes": len(packed), "sha256": hashlib.sha256(packed).hexdigest(), "uncompressed_bytes": len(body)}


def write_dumps(directory: Path, graphs: dict[str, rdflib.Graph], entity_base: str) -> dict[str, Any]:
    """Write every graph in both serializations; returns the manifest's `dumps` entry, by file name."""
    directory.mkdir()
    listed: dict[str, Any] = {}
    quads: list[ox.Quad] = []
    prefixes = PREFIXES | {"id": entity_base}
    for role, graph in graphs.items():
        nt = _sorted_ntriples(graph)
        triples = list(ox.parse(nt, format=ox.RdfFormat.N_TRIPLES))
        for ext, (media, fmt) in SERIALIZATIONS.items():
            name = f"{role}.{ext}.gz"
            body = nt if ext == "nt" else (ox.serialize(triples, format=fmt, prefixes=prefixes) or b"")
            listed[name] = {"graph": GRAPHS[role], "role": role, "media_type": media, "encoding": "gzip",
                            "triples": len(triples), **_write(directory / name, body)}  # fmt: skip
        quads += [ox.Quad(t.subject, t.predicate, t.object, ox.NamedNode(GRAPHS[role])) for t in triples]
    for ext, (media, fmt) in DATASET_SERIALIZATIONS.items():  # every graph in one file, each triple in its graph
        name = f"all.{ext}.gz"
        body = ox.serialize(quads, format=fmt, prefixes=prefixes if fmt == ox.RdfFormat.TRIG else None) or b""
        listed[name] = {"graph": None, "role": "all", "media_type": media, "encoding": "gzip",
                        "triples": len(quads), **_write(directory / name, body)}  # fmt: skip
    return listed
