"""The knowledge base: built once by `build`, opened read-only by everything else."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from whoosh.index import Index

from service.config import path_setting
from service.errors import KBNotFound
from service.kb.holds import Hold
from service.kb.index import open_index
from service.kb.lexicon import Lexicon, load_lexicon
from service.kb.manifest import read_manifest
from service.kb.site import Site
from service.kb.store import STORE_DIR, open_store
from service.kb.wiki import Passage
from service.queries import Catalog, load_catalog

__all__ = ["KB", "default_kb_path"]


def _is_subject(store: ox.Store, iri: str) -> bool:
    """An IRI the KB states something about: an entity, a class, a property, a category."""
    try:
        node = ox.NamedNode(iri)
    except ValueError:
        return False
    return next(iter(store.quads_for_pattern(node, None, None)), None) is not None


def default_kb_path() -> Path:
    return path_setting("KB_DIR")


@dataclass
class KB:
    """Everything a question is answered from. Open it once and pass it in; nothing reads files afterwards."""

    path: Path
    manifest: dict[str, Any]
    site: Site
    store: ox.Store
    index: Index
    lexicon: Lexicon
    catalog: Catalog
    passages: list[Passage] = field(default_factory=list)
    articles: dict[str, str] = field(default_factory=dict)  # name -> Markdown
    hold: Hold | None = None  # the build is served: pruning leaves it alone (service/kb/holds.py)

    @classmethod
    def open(cls, path: Path | None = None, *, in_memory: bool = False, hold: bool = False) -> KB:
        """The KB at `path` (a build folder, or the link to one); with `hold`, the build is kept from pruning
        until `release()`."""
        path = (path or default_kb_path()).resolve()
        if not (path / "manifest.json").exists():
            raise KBNotFound(path)
        kept = Hold(path, exclusive=False) if hold else None
        if kept is not None and not (path / "manifest.json").exists():  # pruned between the look and the lock
            kept.release()
            raise KBNotFound(path)
        manifest = read_manifest(path)
        site = Site(**manifest["site"])
        lexicon, _ = load_lexicon(sorted((path / "lexicon").glob("*.yaml")))
        queries, _ = load_catalog(sorted((path / "queries").glob("*.rq")))
        store = open_store(path / STORE_DIR, in_memory=in_memory)
        index = open_index(path / "index")
        with index.searcher() as s:
            passages = [
                Passage(**{k: v for k, v in f.items() if k != "body"}, text=f["body"]) for f in s.all_stored_fields()
            ]
        passages.sort(key=lambda p: (p.article, p.position))
        return cls(
            path=path,
            manifest=manifest,
            site=site,
            store=store,
            index=index,
            lexicon=lexicon,
            catalog=Catalog(queries, store, lambda iri: _is_subject(store, iri)),
            passages=passages,
            articles={p.stem: p.read_text(encoding="utf-8") for p in sorted((path / "wiki").glob("*.md"))},
            hold=kept,
        )

    def release(self) -> None:
        """Let the build be pruned again (it is no longer served by this process)."""
        if self.hold is not None:
            self.hold.release()
            self.hold = None

    def query(self, sparql: str) -> Any:
        """Run SPARQL over the union of the ontology, stated and inferred graphs."""
        return self.store.query(sparql, use_default_graph_as_union=True)
