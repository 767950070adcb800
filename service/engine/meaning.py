"""Meaning-based search (the Kai seed): passages embedded at build through the provider, stored in the KB with
the model's name; at question time the question is embedded and its nearest passages fused with BM25's
articles by reciprocal rank fusion.

Skipped when the question has three distinct search words or more and the best keyword passage holds them
all (keywords already cover it); dropped, keyword search alone, when the provider fails or takes longer than
2 s (and for 30 s after a failure, so a provider that is down costs one wait, not one per question). A KB
whose vectors were made with another model than EMBEDDINGS_MODEL is searched by keywords alone: the scores
of two models are not comparable. Exact search over every vector: at a few thousand passages it is faster
than building an index, and needs no library.
"""

from __future__ import annotations

import json
import operator
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.engine.retrieve import ArticleHit, PassageHit, PassageIndex
from service.kb.vectors import DIR, unit
from service.model_settings import Settings
from service.provider import Provider, ProviderError

QUESTION_TIMEOUT = 2.0  # seconds: past it, keyword search alone
COOL_DOWN = 30.0  # seconds without asking after a failure
NEAREST = 20  # passages taken from the meaning ranking
RRF_K = 60
CACHE = 1024  # question vectors kept


@dataclass
class Meaning:
    """The vectors of one KB and the provider that embeds questions with the same model."""

    model: str
    docs: list[int]  # the PassageIndex document number of each vector
    vectors: list[array[float]]
    provider: Provider
    _cache: OrderedDict[str, list[float]] = field(default_factory=OrderedDict)
    _failed_at: float = -1e9
    _lock: threading.Lock = field(default_factory=threading.Lock)
    asked: int = 0  # question embeddings asked of the provider
    dropped: int = 0  # ... that failed or were too slow

    @classmethod
    def open(cls, kb_path: Path, index: PassageIndex, settings: Settings) -> Meaning | None:
        meta_file = kb_path / DIR / "meta.json"
        if not settings.embeddings or not meta_file.exists():
            return None
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if meta.get("model") != settings.embeddings_model:
            return None  # made with another model: not comparable
        dims = int(meta["dims"])
        flat = array("f")
        flat.frombytes((kb_path / DIR / "vectors.f32").read_bytes())
        number = {p.id: n for n, p in enumerate(index.docs)}
        docs, vectors = [], []
        for at, pid in enumerate(meta["ids"]):
            if pid in number:
                docs.append(number[pid])
                vectors.append(flat[at * dims : (at + 1) * dims])
        provider = Provider(settings.base_url, settings.api_key, QUESTION_TIMEOUT)
        return cls(settings.embeddings_model, docs, vectors, provider)

    @staticmethod
    def key(question: str) -> str:
        return " ".join(question.split())[:500]

    def vector(self, question: str) -> list[float] | None:
        """The question's unit vector (cached), or None: the provider failed, was slow, or failed lately."""
        text = self.key(question)
        with self._lock:
            found = self._cache.get(text)
            if found is not None:
                self._cache.move_to_end(text)
                return found
            if time.monotonic() - self._failed_at < COOL_DOWN:
                return None
        self.asked += 1
        try:
            got = unit(self.provider.embed(self.model, [text], timeout=QUESTION_TIMEOUT)[0])
        except ProviderError:
            self.dropped += 1
            self._failed_at = time.monotonic()
            return None
        if len(got) != (len(self.vectors[0]) if self.vectors else len(got)):
            self.dropped += 1
            return None
        with self._lock:
            self._cache[text] = got
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return got

    def nearest(self, vector: list[float], n: int = NEAREST) -> list[tuple[int, float]]:
        scores = [(doc, sum(map(operator.mul, vector, v))) for doc, v in zip(self.docs, self.vectors, strict=True)]
        scores.sort(key=lambda x: (-x[1], x[0]))
        return scores[:n]

    def covered(self, index: PassageIndex, terms: Sequence[str], found: Sequence[ArticleHit]) -> bool:
        """Keywords already answer: three distinct search words or more, all in the best keyword passage."""
        distinct = set(terms)
        return len(distinct) >= 3 and bool(found) and distinct <= index.passage_terms(found[0].best.passage)

    def fuse(self, index: PassageIndex, terms: Sequence[str], question: str,
             found: list[ArticleHit], coverage_of: Callable[[set[str]], float]) -> list[ArticleHit]:  # fmt: skip
        """BM25's articles and the nearest passages' articles by reciprocal rank fusion; each hit's score is
        rescaled so the first keeps BM25's best score (the relative floors after this still mean the same)."""
        if not found or self.covered(index, terms, found):
            return found
        vector = self.vector(question)
        if vector is None:
            return found
        by_meaning: list[str] = []
        best: dict[str, Any] = {}
        for doc, _ in self.nearest(vector):
            article = index.docs[doc].article
            if article not in best:
                by_meaning.append(article)
                best[article] = index.docs[doc]
        fused: dict[str, float] = {}
        for rank, hit in enumerate(found, start=1):
            fused[hit.article] = 1 / (RRF_K + rank)
        hits = {h.article: h for h in found}
        for rank, article in enumerate(by_meaning, start=1):
            fused[article] = fused.get(article, 0.0) + 1 / (RRF_K + rank)
        order = sorted(fused, key=lambda a: (-fused[a], a))
        top_score, top_fused = found[0].score, fused[order[0]]
        out = []
        for article in order:
            score = top_score * fused[article] / top_fused
            if article in hits:
                h = hits[article]
                out.append(ArticleHit(h.article, h.entity, h.title, score, h.coverage, h.best, h.passages))
            else:  # found by meaning alone: its own coverage decides whether it is kept
                p = best[article]
                cov = coverage_of(set(index.article_terms[article]))
                lone = PassageHit(p, 0.0)
                out.append(ArticleHit(article, p.entity, p.title, score, cov, lone, [lone]))
        return out
