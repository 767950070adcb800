"""The evidence a model is given, numbered S1, S2, ...: at most five to start with (the plan's own sources,
a lexicon definition the question names, the best BM25 passages for the question and for the previous one),
then what its tools return. Every URL here is the server's own; the verifier keeps no other."""

from __future__ import annotations

from dataclasses import dataclass, field

from service.engine.engine import Engine
from service.engine.intents import contains
from service.engine.link import tokenize
from service.engine.model import Plan, Source
from service.kb.wiki import Passage, slug
from service.text import query_terms

FIRST = 5  # numbered passages in the first pack
MAX_ITEMS = 20  # with what tools add
MAX_TEXT = 1200  # characters of one item shown to the model


@dataclass(frozen=True)
class Item:
    id: str  # S1, S2, ...
    kind: str  # passage, graph, definition
    title: str
    url: str
    text: str
    ref: str

    def source(self) -> Source:
        return Source(self.id, self.kind, self.title, self.url, self.text, self.ref)

    def shown(self) -> str:
        return f"[{self.id}] {self.kind} · {self.title}\n{self.text[:MAX_TEXT]}"


@dataclass
class Evidence:
    items: list[Item] = field(default_factory=list)

    def add(self, kind: str, title: str, url: str, text: str, ref: str) -> Item | None:
        """Number and keep one item; None when it is already here or the evidence is full."""
        if len(self.items) >= MAX_ITEMS or any(i.ref == ref for i in self.items) or not text.strip():
            return None
        item = Item(f"S{len(self.items) + 1}", kind, title, url, " ".join(text.split()), ref)
        self.items.append(item)
        return item

    def get(self, sid: str) -> Item | None:
        return next((i for i in self.items if i.id == sid), None)

    @property
    def urls(self) -> set[str]:
        return {i.url for i in self.items if i.url}

    def shown(self) -> str:
        return "\n\n".join(i.shown() for i in self.items)


def passage_url(p: Passage) -> str:
    anchor = "" if p.kind == "lead" else "#" + slug(p.heading.split(" › ")[-1])
    return f"/wiki/{p.article}{anchor}"


def best_passages(engine: Engine, text: str, n: int) -> list[Passage]:
    """The n passages with the best BM25 score for the text's search words (synonyms weigh less)."""
    terms = query_terms(text, engine.search_stopwords)
    weighted: dict[str, float] = {t: 1.0 for t in terms}
    for t in terms:
        for syn in engine.synonyms.get(t, ()):
            weighted.setdefault(syn, float(engine.weights["article"]["synonym_weight"]))
    scores = engine.passages.bm25(weighted)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return [engine.passages.docs[doc] for doc, _ in ranked]


def add_passage(evidence: Evidence, p: Passage) -> Item | None:
    return evidence.add("passage", p.heading, passage_url(p), p.text, f"p:{p.id}")


def pack(engine: Engine, plan: Plan) -> Evidence:
    """The first evidence for a plan: its own sources, a definition, the question's and previous question's
    best passages; at most FIRST items."""
    evidence = Evidence()
    own: list[Source] = plan.answer.sources if plan.answer else []
    for s in own[:2]:
        evidence.add(s.kind, s.title, s.url, s.text, s.ref)
    words = [t.word for t in tokenize(plan.normalized)]
    for key, d in sorted(engine.definitions.items(), key=lambda kv: -len(kv[0])):
        if not set(key) <= engine.stopwords and contains(words, key):
            evidence.add("definition", d.term, d.url, d.text, f"d:{d.term}")
            break
    previous = best_passages(engine, plan.previous, 2) if plan.previous else []
    room = FIRST - len(evidence.items) - (1 if previous else 0)
    for p in best_passages(engine, plan.normalized, FIRST):
        if len(evidence.items) >= FIRST - (1 if previous else 0) or room <= 0:
            break
        if add_passage(evidence, p):
            room -= 1
    for p in previous:
        if len(evidence.items) >= FIRST:
            break
        add_passage(evidence, p)
    return evidence
