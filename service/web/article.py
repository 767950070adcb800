"""Ask this article (seed 003): a question answered only from one wiki article's passages, or not at all.

Each passage of the article is scored by how much of the question's information it holds, a word weighing
by how rare it is among the article's own passages (a word in none of them weighs the most, so words the
article never uses drag the score down; a synonym found in place of a word counts `article.synonym_weight`),
with a share added for words in its headings:

    score = 100 * covered / total + heading_share * in_headings / total      (shown at most 100)

A passage holding fewer than `min_hits` of the question's words, or only synonyms of them, scores 0; the best
passage answers, verbatim, when it scores at least `min_score`; otherwise the answer is "not covered" with the
contact link. The numbers
are `article_ask` in weights.yaml (an owner may override them in data/lexicon/weights.yaml). Ties go to a
section before the lead, then to BM25 over the same index, then to the earlier passage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from service.engine.confidence import Scale, label_for
from service.engine.engine import Engine
from service.engine.link import tokenize
from service.fallback.evidence import passage_url
from service.kb.wiki import Passage
from service.text import query_terms, terms


@dataclass(frozen=True)
class ArticleAnswer:
    article: str
    question: str
    score: int
    label: str
    passage: Passage | None  # None: the article does not cover the question
    contact_url: str
    fallback: str

    @property
    def url(self) -> str | None:
        """The passage's place in the article: the heading it sits under, as the answer page links it."""
        return passage_url(self.passage) if self.passage else None

    @property
    def fragment(self) -> str:
        """The heading's anchor in the article page ("" for the lead, before the first heading)."""
        return (self.url or "").partition("#")[2]

    @property
    def section(self) -> str | None:
        return self.passage.heading.split(" › ")[-1] if self.passage else None

    def to_json(self) -> dict[str, Any]:
        answered = self.passage is not None
        return {
            "article": self.article,
            "question": self.question,
            "answered": answered,
            "score": self.score,
            "label": self.label,
            "passage": {"id": self.passage.id, "heading": self.section, "text": self.passage.text, "url": self.url}
            if self.passage else None,
            "fallback": None if answered else self.fallback,
            "contact_url": None if answered else self.contact_url,
        }  # fmt: skip


def contact_url(engine: Engine, question: str) -> str:
    subject = quote(engine.say("contact_subject"))
    return f"mailto:{engine.kb.site.contact_email}?subject={subject}&body={quote(question)}"


def ask_article(engine: Engine, name: str, question: str) -> ArticleAnswer:
    """The best passage of article `name` for the question, or "not covered". `name` must be an article."""
    settings = engine.weights["article_ask"]
    docs = engine.passages.article_docs.get(name, [])
    scale = Scale.of(engine.weights["confidence"].get("scores"))
    nothing = ArticleAnswer(name, question, 0, "None", None, contact_url(engine, question),
                            engine.say("article_not_covered"))  # fmt: skip
    words = [t.word for t in tokenize(question)]
    if not docs or not words or engine.private.found_in(words) or engine.opinion.found_in(words):
        return nothing
    corrected = " ".join(engine.speller.correct(w) or w for w in words)
    query = query_terms(corrected, engine.search_stopwords)
    if not query:
        return nothing
    index = engine.passages
    bodies = {d: frozenset(terms(index.docs[d].text)) for d in docs}

    synonym = float(engine.weights["article"]["synonym_weight"])

    def holds(term: str, found: frozenset[str]) -> float:
        """1 when the passage has the word itself, `synonym_weight` when it has only a synonym of it, else 0."""
        if term in found:
            return 1.0
        return synonym if not engine.synonyms.get(term, set()).isdisjoint(found) else 0.0

    weight = {}
    for t in query:
        df = sum(1 for d in docs if holds(t, bodies[d] | index.heading_terms[d]))
        weight[t] = math.log(1 + len(docs) / (df or 0.5))
    total = sum(weight.values())
    need = min(int(settings["min_hits"]), len(query))
    bm25 = index.bm25(dict.fromkeys(query, 1.0), docs)
    ranked: list[tuple[int, bool, float, int, int]] = []
    for d in docs:
        heading = index.heading_terms[d]
        found = {t: share for t in query if (share := holds(t, bodies[d] | heading))}
        if len(found) < need or 1.0 not in found.values():  # synonyms alone are no match
            continue
        covered = sum(weight[t] * share for t, share in found.items())
        headed = sum(weight[t] * holds(t, heading) for t in found)
        score = round(100 * covered / total + float(settings["heading_share"]) * headed / total)
        p = index.docs[d]
        ranked.append((-score, p.kind == "lead", -bm25.get(d, 0.0), p.position, d))  # ranked before the cap
    if not ranked:
        return nothing
    best = min(ranked)
    score = min(100, -best[0])
    if score < int(settings["min_score"]):
        return ArticleAnswer(name, question, score, label_for(score, scale), None, nothing.contact_url,
                             nothing.fallback)  # fmt: skip
    return ArticleAnswer(name, question, score, label_for(score, scale), index.docs[best[4]], "", "")
