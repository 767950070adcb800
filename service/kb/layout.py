"""The parts of a built KB folder, by name: what serving reads (the store, the dumps) without the code that
writes them (which needs the build's packages)."""

from __future__ import annotations

from service.vocab import GRAPH_DATA, GRAPH_INFERRED, GRAPH_ONTOLOGY

STORE_DIR = "store"  # the Oxigraph store (absent when the KB was built for a remote store)
DUMP_DIR = "dump"  # the graphs as files (service/kb/dump.py)
GRAPHS = {"ontology": GRAPH_ONTOLOGY, "stated": GRAPH_DATA, "inferred": GRAPH_INFERRED}  # dump name: graph
