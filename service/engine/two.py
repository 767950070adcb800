"""Two questions asked in one ("where did the paper appear, and what data was it trained on", "where and when did
Widgeteer first appear in public"): where they part, and one plan made of the two plans, the second planned as
the follow-up of the first. The words that start a question and those that join two are data (intents.yaml
two_questions)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from service.engine.intents import Phrase, phrases
from service.engine.link import Token, tokenize
from service.engine.model import Answer, Plan, Result, Source
from service.text import stem, terms

_CITED = re.compile(r"\[S(\d+)\]")
_SAID = re.compile(r"(?<=\])\s+")  # between one cited sentence (or run of them) and the next


class TwoQuestions:
    def __init__(self, spec: Mapping[str, Any] | None) -> None:
        spec = spec or {}
        self.starts: list[Phrase] = sorted(phrases(spec.get("starts")), key=len, reverse=True)
        self.joiners: list[Phrase] = sorted(phrases(spec.get("joiners")), key=len, reverse=True)
        self.min_first = int(spec.get("min_first_words") or 3)

    def split(self, text: str) -> tuple[str, str] | None:
        """The two questions the text asks, or None when it asks one: a question word joined to one by itself
        ("where and when did ...": each with the rest), or a question, a joining word and a question word
        ("..., and since when?")."""
        tokens = tokenize(text)
        words = [t.word for t in tokens]
        first = self._start(words, 0)
        if first and (join := self._joiner(words, first)):
            second = self._start(words, first + join)
            if second and first + join + second < len(words):
                rest = text[tokens[first + join + second].start :]
                return f"{text[: tokens[first].start].rstrip()} {rest}", f"{_span(text, tokens, first + join)} {rest}"
        for at in range(self.min_first, len(words)):
            join = self._joiner(words, at)
            if join and self._start(words, at + join):
                return text[: tokens[at].start].rstrip(" ,;-–"), text[tokens[at + join].start :]
        return None

    @staticmethod
    def adds_nothing(first: Plan, second: Plan, asked: str, stopwords: AbstractSet[str]) -> bool:
        """Whether the second answer states no name or number that the first answer, the names of its results
        or the question do not already: "when was the paper published, and where" when the first said where."""
        assert first.answer is not None and second.answer is not None
        said = set(terms(" ".join([first.answer.text, asked, *(r.label for r in first.results)])))
        stated = {stem(t.word) for t in tokenize(_CITED.sub("", second.answer.text))
                  if (t.original[:1].isupper() or t.original[:1].isdigit()) and t.word not in stopwords}  # fmt: skip
        return not stated - said

    def _start(self, words: Sequence[str], at: int) -> int:
        return next((len(p) for p in self.starts if tuple(words[at : at + len(p)]) == p), 0)

    def _joiner(self, words: Sequence[str], at: int) -> int:
        return next((len(p) for p in self.joiners if tuple(words[at : at + len(p)]) == p), 0)


def _span(text: str, tokens: list[Token], at: int) -> str:
    """The words from token `at` up to the next token's start, as written ("when" of "where and when did")."""
    end = tokens[at + 1].start if at + 1 < len(tokens) else len(text)
    return text[tokens[at].start : end].strip()


def answered(plan: Plan) -> bool:
    """Answered in the question's own terms: not "not covered", nor a passage of the work named that does not
    use the question's words (for one part, the question read whole may say more)."""
    return plan.answer is not None and plan.confidence.level != "none" and not plan.hedged


def about_first(first: Plan, second: Plan) -> bool:
    """Whether the second plan is about what the first one answered: its subject, or one of its results."""
    return second.entity is not None and (second.entity == first.entity or any(
        r.iri == second.entity for r in first.results))


def joined(whole: Plan, first: Plan, second: Plan | None, unanswered: str = "") -> Plan:
    """`whole` (the question as asked) answered by the two plans: the first plan's reading, both answers in turn
    with the second's sources numbered after the first's (one source read by both cited once), the results and
    queries of both, and the lower confidence. Without a second plan, the first answer and `unanswered`, the
    sentence saying the second question found no answer."""
    assert first.answer is not None
    sources = list(first.answer.sources)
    text = unanswered
    plan = Plan(question=whole.question, normalized=whole.normalized, corrections=whole.corrections)
    for name in ("intent", "task", "operation", "entity", "route", "ambiguous", "period", "previous", "results",
                 "ranked", "sparql", "search_terms", "expansions", "confidence"):
        setattr(plan, name, getattr(first, name))
    if second is not None:
        assert second.answer is not None
        by_ref = {s.ref: s.id for s in sources}
        renumber: dict[str, str] = {}
        for s in second.answer.sources:
            if s.ref not in by_ref:
                by_ref[s.ref] = f"S{len(sources) + 1}"
                sources.append(Source(by_ref[s.ref], s.kind, s.title, s.url, s.text, s.ref))
            renumber[s.id] = by_ref[s.ref]
        text = _CITED.sub(lambda m: f"[{renumber.get('S' + m.group(1), 'S' + m.group(1))}]", second.answer.text)
        # a sentence the first answer already said, with its source, is not said twice
        text = " ".join(part for part in _SAID.split(text) if part not in first.answer.text)
        seen = {r.iri for r in first.results}
        results: list[Result] = [*first.results, *(r for r in second.results if r.iri not in seen)]
        plan.results = results[: max(len(first.results), len(second.results), 1)]
        ranked = {i for i, _ in first.ranked}
        plan.ranked = [*first.ranked, *((i, v) for i, v in second.ranked if i not in ranked)]
        plan.sparql = [*first.sparql, *(run for run in second.sparql if run not in first.sparql)]
        plan.search_terms = list(dict.fromkeys([*first.search_terms, *second.search_terms]))
        plan.expansions = sorted(set(first.expansions) | set(second.expansions))
        plan.confidence = min(first.confidence, second.confidence, key=lambda c: c.score)
    plan.answer = Answer(f"{first.answer.text} {text}".strip(), sources)
    return plan
