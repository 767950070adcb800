"""Writing a build's Oxigraph store: the ontology and stated data as the editors wrote them, and what the reasoner
inferred, each into its named graph (build time only)."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import rdflib

from service.kb.rdf import graph_to_ntriples
from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY


def write_store(directory: Path, ontology: list[Path], data: list[Path], inferred: rdflib.Graph) -> int:
    store = ox.Store(str(directory))
    for paths, graph in ((ontology, GRAPH_ONTOLOGY), (data, GRAPH_DATA)):
        for path in paths:
            store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(graph))
    store.bulk_load(
        input=graph_to_ntriples(inferred),
        format=ox.RdfFormat.N_TRIPLES,
        to_graph=ox.NamedNode(GRAPH_INFERRED),
    )
    store.optimize()
    count = len(store)
    store.flush()
    del store
    return count
