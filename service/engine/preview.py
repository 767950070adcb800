"""The live preview: for the words typed so far, the route and confidence the answer would have (seed 003).

The preview is the plan itself, not a guess beside it: the text is planned as an answer would be (through the
web's plan cache, so asking it then costs nothing) and the preview says that plan's route, confidence and first
result. Nothing is shown for stop words alone ("how", "has"). While the last word is still being typed it does
not count, unless it completes a name the site knows ("widg": Widgeteer), so the preview stays as it was until the
word is whole instead of matching its fragments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.engine.link import tokenize
from service.engine.model import Plan
from service.engine.plan import Planner
from service.engine.resources import about_url


@dataclass(frozen=True)
class Preview:
    query: str  # what was planned: the words typed, without an unfinished last word (or with it completed)
    score: int
    label: str
    best: dict[str, Any] | None
    none_text: str = ""
    route: str = "empty"

    @property
    def text(self) -> str:
        if self.best is None:
            return self.none_text
        return f"{self.label} match · {self.best['label']}"

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "score": self.score, "label": self.label, "best": self.best, "text": self.text,
                "route": self.route}  # fmt: skip


def preview(planner: Planner, text: str, plan_of: Callable[[str], Plan] | None = None) -> Preview:
    """The preview of `text`; `plan_of` plans a question (the web's plan cache), else the planner does."""
    engine = planner.engine
    question = " ".join(text.split())[:200]
    asked = settled(planner, question, unfinished=bool(text) and text[-1:].isalnum())
    none = Preview(asked or question, 0, "None", None, engine.say("preview_none"))
    if not asked:
        return none
    plan = (plan_of or planner.plan)(asked)
    if plan.answer is None or plan.confidence.level == "none":
        return Preview(asked, 0, plan.confidence.label, None, engine.say("preview_none"), plan.route)
    best = None
    if plan.results:
        first = plan.results[0]
        e = engine.entities.get(first.iri)
        best = {"iri": first.iri, "label": e.display if e else first.label, "type": first.type, "tier": first.tier,
                "url": about_url(e) if e else first.iri}  # fmt: skip
    elif plan.answer.sources:
        source = plan.answer.sources[0]
        best = {"iri": None, "label": source.title, "type": "Article", "tier": None, "url": source.url}
    return Preview(asked, plan.confidence.score, plan.confidence.label, best, engine.say("preview_none"), plan.route)


def settled(planner: Planner, question: str, *, unfinished: bool) -> str:
    """The question as far as it is typed: empty for stop words alone; an unfinished last word dropped, or
    completed when it begins a name of the site ("hand wid": Hand Widgeteer)."""
    engine = planner.engine
    words = [t.word for t in tokenize(question)]
    if not any(w not in engine.search_stopwords for w in words):
        return ""
    if not unfinished or _whole(planner, words[-1]):
        return question
    rest = words[:-1]
    begun = any(w not in engine.search_stopwords for w in rest)
    # a name begun in the last two words ("hand wid"); the last word alone only when nothing before it asks
    # anything yet ("widg", "what is bm2"): "rust proj" stays "rust" until "projects" is typed
    for fragment in ([" ".join(words[-2:])] if len(words) > 1 else []) + ([] if begun else [words[-1]]):
        for iri in engine.linker.complete(fragment):
            if iri in engine.entities:
                kept = words[: len(words) - len(fragment.split())]
                return " ".join([*kept, engine.entities[iri].label])
    return " ".join(rest) if begun else ""


def _whole(planner: Planner, word: str) -> bool:
    """A word the site or English knows as it is: no fragment of a longer one being typed."""
    speller = planner.engine.speller
    return word in speller.known or speller.english(word) > 0 or bool(planner.engine.linker.link(word).entities)
