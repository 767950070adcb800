"""The live preview: what the words typed so far would score, cheap enough for every keystroke (seed 003).

No SPARQL and no answer: linking, then the best article by passage search. A name the site knows is a
High match; otherwise the share of the question the best article holds sets the score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.engine.confidence import Scale, label_for
from service.engine.intents import contains
from service.engine.link import tokenize
from service.engine.plan import Planner
from service.engine.resources import about_url
from service.engine.retrieve import search_articles
from service.text import query_terms


@dataclass(frozen=True)
class Preview:
    query: str
    score: int
    label: str
    best: dict[str, Any] | None

    none_text: str = ""

    @property
    def text(self) -> str:
        if self.best is None:
            return self.none_text
        return f"{self.label} match · {self.best['label']}"

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "score": self.score, "label": self.label, "best": self.best, "text": self.text}


def preview(planner: Planner, text: str) -> Preview:
    engine = planner.engine
    question = " ".join(text.split())[:200]
    words = [t.word for t in tokenize(question)]
    refused = [*engine.private, *engine.opinion]
    if not words or any(contains(words, p) for p in refused):
        return Preview(question, 0, "None", None, engine.say("preview_none"))
    corrected = " ".join(engine.speller.correct(w) or w for w in words)
    # while typing, a name in lower case is still probably meant as a name, and the last word may be unfinished
    candidates = engine.linker.link(corrected, strict=False).entities
    if not candidates:  # an unfinished last word: "widg" -> Widgeteer (short fragments only on their own)
        candidates = engine.linker.complete(" ".join(words[-2:]))
        if not candidates and (len(words) == 1 or len(words[-1]) >= 4):
            candidates = engine.linker.complete(words[-1])
    for iri in candidates:
        found = engine.entities.get(iri)
        if found is None:
            continue
        best = {
            "iri": found.iri,
            "label": found.display,
            "type": found.type,
            "tier": found.tier,
            "url": about_url(found),
        }
        return Preview(question, 95, "High", best)
    terms = query_terms(corrected, engine.search_stopwords)
    hits = search_articles(engine.passages, terms, engine.synonyms, engine.weights["article"], limit=1)
    if not hits or hits[0].coverage < float(engine.weights["wiki_hits"]["min_coverage"]):
        return Preview(question, 0, "None", None, engine.say("preview_none"))
    hit = hits[0]
    e = engine.by_name.get(hit.article)
    score = round(100 * hit.coverage * 0.9)
    best = {
        "iri": e.iri if e else None,
        "label": hit.best.passage.heading,
        "type": e.type if e else "Article",
        "tier": e.tier if e else None,
        "url": f"/wiki/{hit.article}",
    }
    return Preview(question, score, label_for(score, Scale.of(engine.weights["confidence"].get("scores"))), best)
