"""The lab's view of one KB's wiki, built once per engine and kept: the passages as the engine indexed them,
their sections, their sentences, re-chunked text, whole articles, and the names each passage mentions."""

from __future__ import annotations

import threading
import time
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from service.engine.engine import Engine
from service.engine.retrieve import Bm25, PassageIndex
from service.kb.wiki import Passage
from service.lab.synonyms import Table, table
from service.text import sentences


@dataclass(frozen=True)
class Piece:
    """A piece of wiki text that is not one indexed passage: a chunk of sentences, a section, an article."""

    article: str
    title: str
    heading: str
    text: str
    passages: tuple[str, ...]


@dataclass
class Pieces:
    """Pieces of one kind and BM25 over their text, with the engine's k1 and b."""

    pieces: list[Piece]
    bm25: Bm25


def section_key(passage: Passage) -> tuple[str, str]:
    """The article and the heading a passage sits under: the id without the passage's number."""
    return passage.article, passage.id.split("#", 1)[-1].rsplit("-", 1)[0]


@dataclass
class Corpus:
    """Holds no reference to the engine, so a cached corpus goes when its engine goes."""

    index: PassageIndex  # the engine's BM25 over the KB's Whoosh index (its postings, read once): plain search's
    k1: float
    b: float
    mentions: list[frozenset[str]] = field(default_factory=list)  # by the index's document number
    synonyms: Table = field(default_factory=dict)
    sections: dict[tuple[str, str], list[Passage]] = field(default_factory=dict)  # in the order of the article
    _chunks: dict[int, Pieces] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def of(cls, engine: Engine) -> Corpus:
        bm25 = engine.weights["bm25"]
        corpus = cls(engine.passages, float(bm25["k1"]), float(bm25["b"]))
        corpus.mentions = _mentions(engine)
        corpus.synonyms = table(engine.kb.lexicon.synonym_groups())
        grouped: dict[tuple[str, str], list[Passage]] = defaultdict(list)
        for p in sorted(engine.kb.passages, key=lambda p: (p.article, p.position)):
            grouped[section_key(p)].append(p)
        corpus.sections = dict(grouped)
        return corpus

    @property
    def docs(self) -> list[Passage]:
        return self.index.docs

    def section(self, passage: Passage) -> Piece:
        parts = self.sections[section_key(passage)]
        return Piece(passage.article, passage.title, passage.heading, "\n\n".join(p.text for p in parts),
                     tuple(p.id for p in parts))  # fmt: skip

    @cached_property
    def articles(self) -> Pieces:
        """Each whole article, its passages in their order under its title."""
        by_article: dict[str, list[Passage]] = defaultdict(list)
        for parts in self.sections.values():
            by_article[parts[0].article].extend(parts)
        pieces = []
        for name, parts in sorted(by_article.items()):
            parts.sort(key=lambda p: p.position)
            text = "\n\n".join(p.text for p in parts)
            pieces.append(Piece(name, parts[0].title, parts[0].title, text, tuple(p.id for p in parts)))
        return Pieces(pieces, Bm25.of_texts([f"{p.title}\n{p.text}" for p in pieces], k1=self.k1, b=self.b))

    def chunks(self, size: int) -> Pieces:
        """Every section re-cut into chunks of `size` sentences (the last one of a section may be shorter)."""
        with self._lock:
            made = self._chunks.get(size)
            if made is None:
                made = self._chunks[size] = self._cut(size)
            return made

    def _cut(self, size: int) -> Pieces:
        pieces = []
        for parts in self.sections.values():
            said = [(s, p.id) for p in parts for s in sentences(p.text)]
            for start in range(0, len(said), size):
                group = said[start : start + size]
                first = parts[0]
                pieces.append(Piece(first.article, first.title, first.heading, " ".join(s for s, _ in group),
                                    tuple(dict.fromkeys(pid for _, pid in group))))  # fmt: skip
        return Pieces(pieces, Bm25.of_texts([p.text for p in pieces], k1=self.k1, b=self.b))

    def warm(self, sizes: tuple[int, ...]) -> None:
        """Build everything now (the first lab request would otherwise pay for it)."""
        _ = self.articles
        for size in sizes:
            self.chunks(size)


def _mentions(engine: Engine) -> list[frozenset[str]]:
    """For each passage (by the index's document number), the entities it mentions: the names the engine's
    linker finds in its text, and the entity its article is about."""
    articles = {e.name: e.iri for e in engine.entities.values() if e.has_article}
    out = []
    for p in engine.passages.docs:
        found = set(engine.linker.link(p.text).entities)
        if p.article in articles:
            found.add(articles[p.article])
        out.append(frozenset(found))
    return out


_corpora: dict[int, tuple[weakref.ref[Engine], Corpus]] = {}
_made = threading.Lock()


def corpus_of(engine: Engine, sizes: tuple[int, ...]) -> tuple[Corpus, float]:
    """The engine's corpus, built on first use, and how long building it took now (0 when it was ready)."""
    with _made:
        kept = _corpora.get(id(engine))
        if kept is not None and kept[0]() is engine:
            return kept[1], 0.0
        started = time.perf_counter()
        corpus = Corpus.of(engine)
        corpus.warm(sizes)
        _corpora[id(engine)] = (weakref.ref(engine), corpus)
        weakref.finalize(engine, _corpora.pop, id(engine), None)
        return corpus, (time.perf_counter() - started) * 1000
