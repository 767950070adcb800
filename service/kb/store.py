"""The Oxigraph store of a KB: ontology, stated data and inferred triples in three named graphs.

Queries see their union as the default graph (`use_default_graph_as_union`), so a stored query needs no
GRAPH clause, while an entity page can still tell an inferred fact from a stated one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyoxigraph as ox

from service.config import setting
from service.errors import FolioError
from service.kb.layout import STORE_DIR
from service.kb.remote import RemoteStore

AnyStore = ox.Store | RemoteStore  # what the catalog, the entity pages and the SPARQL workers query


def open_store(directory: Path, *, in_memory: bool = False) -> ox.Store:
    """The store read-only from disk, or copied into memory (2-4x faster queries on a small graph)."""
    disk = ox.Store.read_only(str(directory))
    if not in_memory:
        return disk
    memory = ox.Store()
    memory.extend(disk)
    return memory


def open_kb_store(kb: Path, manifest: dict[str, Any], *, in_memory: bool = False) -> AnyStore:
    """The store a KB's queries run on: the remote store when $STORE_URL is set, else the KB's own folder."""
    url = setting("STORE_URL")
    if url:
        return RemoteStore(url, timeout=float(setting("STORE_TIMEOUT")))
    if manifest.get("store") == "remote" or not (kb / STORE_DIR).is_dir():
        raise FolioError(f"{kb} was built for a remote store: set STORE_URL to serve it")
    return open_store(kb / STORE_DIR, in_memory=in_memory)
