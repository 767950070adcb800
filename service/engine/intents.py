"""Intent and interpretation (main seed, Algorithm 2): ordered rules over cue words from intents.yaml.

The first rule that matches wins, and the order is the design: an explicit request to open something
outranks a topic; a question about the person outranks a keyword. The kind of question is then split into
a task (what the visitor wants to do), an operation (the shape of the answer) and the entity it is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from service.engine.link import tokenize

Phrase = tuple[str, ...]


def phrases(items: Sequence[str] | None) -> list[Phrase]:
    return [tuple(t.word for t in tokenize(p)) for p in items or []]


MAX_PHRASE = 6  # longer phrases are matched by scanning


@lru_cache(maxsize=8192)
def _ngrams(words: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """Every run of 1 to MAX_PHRASE consecutive words: a phrase test becomes one set lookup."""
    return frozenset(words[i : i + n] for n in range(1, MAX_PHRASE + 1) for i in range(len(words) - n + 1))


def contains(words: Sequence[str], phrase: Phrase) -> bool:
    n = len(phrase)
    if n == 0:
        return False
    if n <= MAX_PHRASE:
        return phrase in _ngrams(tuple(words))
    return any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1))


def starts(words: Sequence[str], phrase: Phrase) -> bool:
    return len(phrase) > 0 and tuple(words[: len(phrase)]) == phrase


def ends(words: Sequence[str], phrase: Phrase) -> bool:
    return len(phrase) > 0 and tuple(words[-len(phrase) :]) == phrase


@dataclass
class Rule:
    name: str
    starts_with: list[Phrase]
    mentions: list[Phrase]
    ends_with: list[Phrase]
    unless: list[Phrase]

    def matches(self, words: Sequence[str]) -> bool:
        if any(contains(words, p) for p in self.unless):
            return False
        return (
            any(starts(words, p) for p in self.starts_with)
            or any(contains(words, p) for p in self.mentions)
            or any(ends(words, p) for p in self.ends_with)
        )


class Intents:
    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.rules: dict[str, Rule] = {}
        self.order: list[str] = list(spec["order"])
        fields = ("starts_with", "mentions", "ends_with", "unless")
        for name, body in spec.items():
            if not isinstance(body, dict) or not any(f in body for f in fields):
                continue
            self.rules[name] = Rule(
                name,
                phrases(body.get("starts_with")),
                phrases(body.get("mentions")),
                phrases(body.get("ends_with")),
                phrases(body.get("unless")),
            )
        self.filler = {w for p in phrases((spec.get("entity") or {}).get("only_filler")) for w in p}
        self.cue_words = {w for r in self.rules.values() for ps in (r.starts_with, r.mentions, r.ends_with) for p in ps
                          for w in p}  # fmt: skip
        self.name_cues: list[str] = list(spec.get("name_cues") or [])
        self.topic_words = {w for p in phrases(spec.get("topic_words")) for w in p}
        self.name_cues_after: list[str] = list(spec.get("name_cues_after") or [])
        self.verb_markers: list[str] = list(spec.get("verb_markers") or [])
        self.name_frames: list[str] = list(spec.get("name_frames") or [])

    def has(self, rule: str, words: Sequence[str]) -> bool:
        r = self.rules.get(rule)
        return bool(r and r.matches(words))

    def _only_filler_after(self, rule: str, cue: Sequence[str]) -> bool:
        """Whether the words naming nothing are, once the rule's opening and closing phrases are taken off, only
        filler."""
        r = self.rules[rule]
        rest = list(cue)
        for phrase in sorted(r.starts_with, key=len, reverse=True):
            if starts(rest, phrase):
                rest = rest[len(phrase) :]
                break
        for phrase in sorted(r.ends_with, key=len, reverse=True):
            if ends(rest, phrase):
                rest = rest[: -len(phrase)]
                break
        return all(w in self.filler for w in rest)

    def kind(
        self, words: Sequence[str], cue: Sequence[str], kinds: Sequence[str], *, authored: bool, linked_any: bool
    ) -> str:
        """The kind of question. `words`: all words; `cue`: the words that name nothing; `kinds`: linked kinds."""
        work_named = "work" in kinds
        if self.has("navigate", cue) and linked_any:
            return "navigate"
        if self.has("source", cue) and linked_any:
            return "source"
        if work_named and cue and all(w in self.filler for w in cue):
            return "entity"
        if authored:
            return "about"
        if self.has("contact", cue):
            return "contact"
        if self.has("recent", cue) and not linked_any:
            return "recent"
        if work_named and self.has("stack", cue):
            return "stack"
        if self.has("count", cue):
            return "fact"
        if self.has("time", cue):
            return "fact"
        if self.has("define", words) and linked_any and not work_named and self._only_filler_after("define", cue):
            return "define"
        if self.has("list", words):
            return "list"
        if self.has("explain", cue):
            return "explain"
        if linked_any and all(w in self.filler for w in cue):
            return "entity"
        return "search"


@dataclass(frozen=True)
class Interpretation:
    task: str  # navigate, source, compare, discover, learn
    operation: str  # count, stack, explain, list, fact, compare, overview


def interpret(kind: str, words: Sequence[str], *, counting: bool, bare_work: bool, named: bool) -> Interpretation:
    if counting:
        operation = "count"
    elif kind == "stack":
        operation = "stack"
    elif kind in ("explain", "list", "fact", "compare"):
        operation = kind
    else:
        operation = "overview"
    if kind == "navigate" or bare_work:
        task = "navigate"
    elif kind in ("source", "compare"):
        task = kind
    elif operation == "list" or (kind == "search" and not named):
        task = "discover"
    else:
        task = "learn"
    return Interpretation(task, operation)
