"""The meaning model at question time (the Kai seed): passages embedded at build by the model
(service/embedding.py, built in by default) and stored in the KB with its name; a question is embedded once.
Used where words fail: the articles of the passages nearest the question are one more candidate list of the
results' weighted reciprocal rank fusion (plan.py), an article's passage stating the amount asked is found by
meaning where its words fail (routes.py), a route is chosen by its nearest `meaning:` question when no rule
answers (matcher.py), and an answer undone only because the visitor's word is not the answer's own is kept,
weakly, when the model bridges the two words (state.py, matcher.py), as a passage lacking some of the question's
words answers, weakly, when the model bridges each to one of its own (texts.py).

With an embeddings server, meaning is dropped (words alone) when the server fails or takes longer than 2 s, and
for 30 s after a failure, so a server that is down costs one wait, not one per question. Vectors made with another
model are never compared with this one's. Exact search over every vector: at a few thousand passages one matrix
product is faster than building an index.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.embedding import Builtin, Model, ModelError, np, open_model
from service.engine.retrieve import PassageIndex
from service.kb.vectors import DIR
from service.language.declarations import Route
from service.model_settings import Settings
from service.provider import CoolDown

QUESTION_TIMEOUT = 2.0  # seconds: past it, keyword search alone
COOL_DOWN = 30.0  # seconds without asking after a failure
NEAREST = 20  # passages taken from the meaning ranking
CACHE = 1024  # question vectors kept
WORDS = 4096  # word vectors kept (256 floats each: 4 MB at most)


@dataclass
class Meaning:
    """The vectors of one KB and the model that embeds questions the same way."""

    model: Model
    docs: list[int]  # the PassageIndex document number of each row of `matrix`
    matrix: Any  # float32 (passages, dims), unit rows
    _cache: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    _words: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    _rows: dict[int, int] | None = None
    _routes: tuple[list[tuple[str, str]], Any] | None = None  # the routes' meaning questions and their vectors
    _cooling: CoolDown = field(default_factory=lambda: CoolDown(COOL_DOWN))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    asked: int = 0  # question embeddings asked of the model
    dropped: int = 0  # ... that failed or were too slow

    @classmethod
    def open(cls, kb_path: Path, index: PassageIndex, settings: Settings) -> Meaning | None:
        meta_file = kb_path / DIR / "meta.json"
        if not settings.embeddings or not meta_file.exists():
            return None
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        try:
            model = open_model(settings, timeout=QUESTION_TIMEOUT)
        except ModelError:
            return None
        if model is None or meta.get("model") != model.name:
            return None  # made with another model: not comparable
        flat = np.fromfile(kb_path / DIR / "vectors.f32", dtype="<f4").reshape(-1, int(meta["dims"]))
        number = {p.id: n for n, p in enumerate(index.docs)}
        rows = [at for at, pid in enumerate(meta["ids"]) if pid in number]
        docs = [number[meta["ids"][at]] for at in rows]
        return cls(model, docs, np.ascontiguousarray(flat[rows]))

    def learn_routes(self, routes: Mapping[str, Route]) -> None:
        """Embed the routes' `meaning:` questions, once: when the engine loads, so that no visitor's question waits
        for them (a model that fails now is asked again by the first question that needs them)."""
        if self._routes is not None:
            return
        labelled = [(r.name, q) for r in routes.values() for q in r.meaning]
        made = self._embed([q for _, q in labelled]) if labelled else None
        if labelled and made is None:
            return
        self._routes = (labelled, made)

    def nearest_routes(self, question: str, routes: Mapping[str, Route]) -> list[tuple[str, float, str]]:
        """The routes declaring `meaning:` questions, each with its question nearest this one and their cosine,
        nearest first: the labelled data route choice falls back on when no route's rules answered."""
        vector = self.vector(question)
        if vector is None:
            return []
        self.learn_routes(routes)
        if self._routes is None:
            return []
        labelled, matrix = self._routes
        if matrix is None:
            return []
        best: dict[str, tuple[float, str]] = {}
        for (name, example), score in zip(labelled, (matrix @ vector).tolist(), strict=True):
            if score > best.get(name, (-2.0, ""))[0]:
                best[name] = (score, example)
        return sorted(((n, c, e) for n, (c, e) in best.items()), key=lambda x: (-x[1], x[0]))

    @property
    def row_of(self) -> dict[int, int]:
        """The row of `matrix` of each PassageIndex document number."""
        if self._rows is None:
            self._rows = {doc: row for row, doc in enumerate(self.docs)}
        return self._rows

    def nearest_of(self, question: str, docs: Sequence[int]) -> list[tuple[int, float]]:
        """Of these passages (PassageIndex document numbers), those nearest the question in meaning, nearest
        first, with their cosine."""
        vector = self.vector(question)
        rows = [(doc, self.row_of[doc]) for doc in docs if doc in self.row_of]
        if vector is None or not rows:
            return []
        scores = self.matrix[[r for _, r in rows]] @ vector
        return sorted(((doc, float(x)) for (doc, _), x in zip(rows, scores, strict=True)), key=lambda p: (-p[1], p[0]))

    def word_vectors(self, words: Sequence[str]) -> Any | None:
        """Unit vectors of single words (kept, WORDS of them), or None when the model fails."""
        missing = [w for w in dict.fromkeys(words) if w not in self._words]
        if missing:
            made = self._embed(missing)
            if made is None:
                return None
            with self._lock:
                for w, v in zip(missing, made, strict=True):
                    self._words[w] = v
                while len(self._words) > WORDS:
                    self._words.popitem(last=False)
        return np.stack([self._words[w] for w in words]) if words else None

    def nearest_word(self, word: str, candidates: Sequence[str]) -> tuple[str, float] | None:
        """Of the candidate words, the one nearest `word` in meaning, with its cosine ("lose": "lost",
        "kids": "children"), or None."""
        candidates = [c for c in dict.fromkeys(candidates) if c != word]
        vectors = self.word_vectors([word, *candidates])
        if vectors is None or not candidates:
            return None
        scores = vectors[1:] @ vectors[0]
        best = int(np.argmax(scores))
        return candidates[best], float(scores[best])

    @staticmethod
    def key(question: str) -> str:
        return " ".join(question.split())[:500]

    def vector(self, question: str) -> Any | None:
        """The question's unit vector (cached), or None: the model failed, was slow, or failed lately."""
        text = self.key(question)
        with self._lock:
            found = self._cache.get(text)
            if found is not None:
                self._cache.move_to_end(text)
                return found
        self.asked += 1
        made = self._embed([text])
        if made is None:
            return None
        got = made[0]
        if got.shape[0] != self.matrix.shape[1]:
            self.dropped += 1
            return None
        with self._lock:
            self._cache[text] = got
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return got

    def _embed(self, texts: list[str]) -> Any | None:
        """The texts' vectors, or None when the model fails or failed lately (it is then not asked for COOL_DOWN
        seconds)."""
        if self._cooling.left() > 0:
            return None
        try:
            return self.model.embed(texts)
        except ModelError:
            self.dropped += 1
            self._cooling.trip()
            return None

    @property
    def local(self) -> bool:
        """The model runs in this process (no wait worth taking off the event loop)."""
        return isinstance(self.model, Builtin)

    def nearest(self, vector: Any, n: int = NEAREST) -> list[tuple[int, float]]:
        if not self.docs:
            return []
        scores = self.matrix @ vector
        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n]
        ranked = sorted(((self.docs[i], float(scores[i])) for i in top), key=lambda x: (-x[1], x[0]))
        return ranked

    def articles(self, index: PassageIndex, question: str) -> list[str]:
        """The articles of the passages nearest the question in meaning, nearest first, each once: a candidate
        list for the results' fusion (plan.py). Empty when the model failed or is cooling down."""
        vector = self.vector(question)
        if vector is None:
            return []
        return list(dict.fromkeys(index.docs[doc].article for doc, _ in self.nearest(vector)))
