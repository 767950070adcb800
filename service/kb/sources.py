"""The editor's inputs: which directories, which files of each kind, and their digests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from service.config import path_setting

SHAPES_FILE = "shapes.ttl"


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest_of(digests: dict[str, str]) -> str:
    """One digest for a set of files, independent of the order they were listed in."""
    h = hashlib.sha256()
    for name in sorted(digests):
        h.update(f"{name}\0{digests[name]}\n".encode())
    return h.hexdigest()


@dataclass(frozen=True)
class Sources:
    ontology: Path
    data: Path
    wiki: Path
    queries: Path

    @classmethod
    def from_settings(
        cls,
        *,
        ontology: Path | None = None,
        data: Path | None = None,
        wiki: Path | None = None,
        queries: Path | None = None,
    ) -> Sources:
        base = cls(
            ontology=path_setting("ONTOLOGY_DIR"),
            data=path_setting("DATA_DIR"),
            wiki=path_setting("WIKI_DIR"),
            queries=path_setting("QUERIES_DIR"),
        )
        chosen = {k: v for k, v in {"ontology": ontology, "data": data, "wiki": wiki, "queries": queries}.items() if v}
        return replace(base, **chosen).resolved()

    def resolved(self) -> Sources:
        return Sources(*(Path(p).expanduser().resolve() for p in (self.ontology, self.data, self.wiki, self.queries)))

    # -- files of each kind --------------------------------------------------------------

    def ontology_files(self) -> list[Path]:
        return sorted(p for p in self.ontology.glob("*.ttl") if p.name != SHAPES_FILE)

    def shapes_files(self) -> list[Path]:
        return sorted(p for p in self.ontology.glob(SHAPES_FILE))

    def data_files(self) -> list[Path]:
        return sorted(self.data.rglob("*.ttl"))

    def lexicon_files(self) -> list[Path]:
        """The owner's lexicon files, with their route declarations (lexicon/routes/*.yaml)."""
        folder = self.data / "lexicon"
        return sorted(folder.glob("*.yaml")) + sorted((folder / "routes").glob("*.yaml"))

    def wiki_files(self) -> list[Path]:
        return sorted(self.wiki.rglob("*.md"))

    def query_files(self) -> list[Path]:
        return sorted(self.queries.glob("*.rq"))

    def groups(self) -> dict[str, tuple[Path, list[Path]]]:
        """Each kind of input with its directory and files; the manifest records digests per kind."""
        return {
            "ontology": (self.ontology, self.ontology_files() + self.shapes_files()),
            "data": (self.data, self.data_files()),
            "lexicon": (self.data, self.lexicon_files()),
            "wiki": (self.wiki, self.wiki_files()),
            "queries": (self.queries, self.query_files()),
        }

    def digests(self) -> dict[str, dict[str, str]]:
        return {
            kind: {p.relative_to(root).as_posix(): sha256_file(p) for p in files}
            for kind, (root, files) in self.groups().items()
        }

    def missing_dirs(self) -> list[Path]:
        return [p for p in (self.ontology, self.data, self.wiki, self.queries) if not p.is_dir()]
