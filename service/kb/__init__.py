"""The knowledge base: built once by `build`, opened read-only by everything else."""

from __future__ import annotations

from collections.abc import Callable
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
from service.kb.remote import RemoteStore
from service.kb.site import Site
from service.kb.store import AnyStore, open_kb_store
from service.kb.wiki import Passage
from service.queries import Catalog, load_catalog

__all__ = ["KB", "default_kb_path"]


def _subject_test(store: AnyStore) -> Callable[[str], bool]:
    """Whether an IRI is one the KB states something about (an entity, a class, a property, a category);
    remembered, since a KB does not change while it is served and a remote store is a round trip away."""
    known: dict[str, bool] = {}

    def is_subject(iri: str) -> bool:
        found = known.get(iri)
        if found is None:
            try:
                node = ox.NamedNode(iri)
            except ValueError:
                return False
            found = next(iter(store.quads_for_pattern(node, None, None)), None) is not None
            if len(known) < 100_000:
                known[iri] = found
        return found

    return is_subject


def default_kb_path() -> Path:
    return path_setting("KB_DIR")


@dataclass
class KB:
    """Everything a question is answered from. Open it once and pass it in; nothing reads files afterwards."""

    path: Path
    manifest: dict[str, Any]
    site: Site
    store: AnyStore
    index: Index
    lexicon: Lexicon
    catalog: Catalog
    passages: list[Passage] = field(default_factory=list)
    articles: dict[str, str] = field(default_factory=dict)  # name -> Markdown
    hold: Hold | None = None  # the build is served: pruning leaves it alone (service/kb/holds.py)

    @classmethod
    def open(cls, path: Path | None = None, *, in_memory: bool = False, hold: bool = False) -> KB:
        """The KB at `path` (a build folder, or the link to one); with `hold`, the build is kept from pruning
        until `release()`. A link whose build was swapped out and pruned while it was being opened is followed
        again: a server worker started during a rebuild opens the new build instead of failing to start."""
        link = path or default_kb_path()
        for _ in range(5):
            target = link.resolve()
            try:
                return cls._open_build(target, in_memory=in_memory, hold=hold)
            except KBNotFound:
                if link.resolve() == target:
                    raise
        raise KBNotFound(link.resolve())

    @classmethod
    def _open_build(cls, path: Path, *, in_memory: bool, hold: bool) -> KB:
        if not (path / "manifest.json").exists():
            raise KBNotFound(path)
        try:
            kept = Hold(path, exclusive=False) if hold else None
        except FileNotFoundError:  # the folder was pruned between the look and the lock
            raise KBNotFound(path) from None
        if kept is not None and not (path / "manifest.json").exists():  # pruned while the lock was awaited
            kept.release()
            raise KBNotFound(path)
        manifest = read_manifest(path)
        site = Site(**manifest["site"])
        folder = path / "lexicon"
        lexicon, _ = load_lexicon(sorted(folder.glob("*.yaml")) + sorted((folder / "routes").glob("*.yaml")))
        queries, _ = load_catalog(sorted((path / "queries").glob("*.rq")))
        store = open_kb_store(path, manifest, in_memory=in_memory)
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
            catalog=Catalog(queries, store, _subject_test(store)),
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

    @property
    def digest(self) -> str:
        """The build's digest: the same inputs give the same digest, on any machine."""
        return str(self.manifest.get("digest", ""))

    @property
    def remote(self) -> bool:
        return isinstance(self.store, RemoteStore)

    def store_build(self) -> str | None:
        """The digest of the build the store holds: its marker on a remote store, this KB's own otherwise.
        Raises StoreUnavailable (remote) when the store does not answer."""
        if isinstance(self.store, RemoteStore):
            return self.store.build()
        next(iter(self.store.quads_for_pattern(None, None, None)), None)  # the embedded store answers
        return self.digest
