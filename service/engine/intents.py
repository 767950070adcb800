"""Intent and interpretation (main seed, Algorithm 2): ordered rules over cue words from intents.yaml.

The first rule that matches wins, and the order is the design: an explicit request to open something
outranks a topic; a question about the person outranks a keyword. The kind of question is then split into
a task (what the visitor wants to do), an operation (the shape of the answer) and the entity it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from service.engine.link import tokenize

Phrase = tuple[str, ...]
ANY = "*"  # in a phrase, any one word: "the * that" matches "the sensor that"


def phrases(items: Sequence[str] | None) -> list[Phrase]:
    return [_phrase(p) for p in items or []]


def _phrase(text: str) -> Phrase:
    out: list[str] = []
    for n, part in enumerate(text.split(ANY)):
        if n:
            out.append(ANY)
        out += [t.word for t in tokenize(part)]
    return tuple(out)


MAX_PHRASE = 6  # longer phrases are matched by scanning


@lru_cache(maxsize=8192)
def ngrams(words: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """Every run of 1 to MAX_PHRASE consecutive words: a phrase test becomes one set lookup."""
    return frozenset(words[i : i + n] for n in range(1, MAX_PHRASE + 1) for i in range(len(words) - n + 1))


def _at(words: Sequence[str], i: int, phrase: Phrase) -> bool:
    return (
        i >= 0 and i + len(phrase) <= len(words) and all(p in (ANY, w) for p, w in zip(phrase, words[i:], strict=False))
    )


def contains(words: Sequence[str], phrase: Phrase) -> bool:
    n = len(phrase)
    if n == 0:
        return False
    if ANY in phrase:
        return any(_at(words, i, phrase) for i in range(len(words) - n + 1))
    if n <= MAX_PHRASE:
        return phrase in ngrams(tuple(words))
    return any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1))


def starts(words: Sequence[str], phrase: Phrase) -> bool:
    return len(phrase) > 0 and _at(words, 0, phrase)


def ends(words: Sequence[str], phrase: Phrase) -> bool:
    return len(phrase) > 0 and _at(words, len(words) - len(phrase), phrase)


class Phrases:
    """A list of phrases matched at once: the fixed ones by looking the question's runs of words up in a set, the
    few with a wildcard by scanning (a phrase list expanded for every pronoun and name is long)."""

    def __init__(self, items: Sequence[Phrase]) -> None:
        self.items = list(items)
        self._fixed = frozenset(p for p in items if ANY not in p and 0 < len(p) <= MAX_PHRASE)
        self._lengths = sorted({len(p) for p in self._fixed})
        # the rest (a wildcard, or longer than MAX_PHRASE), each with the words it cannot match without
        self._other = [(p, frozenset(w for w in p if w != ANY)) for p in items if p not in self._fixed and p]

    def __iter__(self) -> Iterator[Phrase]:
        return iter(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def found_in(self, words: Sequence[str]) -> bool:
        if self._fixed and not self._fixed.isdisjoint(ngrams(tuple(words))):
            return True
        if not self._other:
            return False
        said = set(words)
        return any(need <= said and contains(words, p) for p, need in self._other)

    def first(self, words: Sequence[str]) -> Phrase | None:
        """The first phrase the words contain (for the trace; `found_in` is the fast test)."""
        return next((p for p in self.items if contains(words, p)), None)

    def starts(self, words: Sequence[str]) -> bool:
        head = tuple(words)
        if any(head[:n] in self._fixed for n in self._lengths):
            return True
        if not self._other:
            return False
        said = set(words)
        return any(need <= said and starts(words, p) for p, need in self._other)

    def ends(self, words: Sequence[str]) -> bool:
        tail = tuple(words)
        if any(len(tail) >= n and tail[-n:] in self._fixed for n in self._lengths):
            return True
        if not self._other:
            return False
        said = set(words)
        return any(need <= said and ends(words, p) for p, need in self._other)


class Rule:
    def __init__(self, name: str, starts_with: list[Phrase], mentions: list[Phrase], ends_with: list[Phrase],
                 unless: list[Phrase]) -> None:  # fmt: skip
        self.name = name
        self.starts_with, self.mentions = Phrases(starts_with), Phrases(mentions)
        self.ends_with, self.unless = Phrases(ends_with), Phrases(unless)

    def matches(self, words: Sequence[str]) -> bool:
        if self.unless.found_in(words):
            return False
        return self.starts_with.starts(words) or self.mentions.found_in(words) or self.ends_with.ends(words)

    def why(self, words: Sequence[str]) -> str:
        """Which of the rule's phrases the words match, said plainly (for the trace)."""
        for how, group, test in (("starts with", self.starts_with, starts), ("mentions", self.mentions, contains),
                                 ("ends with", self.ends_with, ends)):  # fmt: skip
            for phrase in group:
                if test(words, phrase):
                    return f"{how} “{' '.join(phrase)}”"
        return "matches"


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
        self.answer_filler = {w for p in phrases(spec.get("answer_filler")) for w in p}
        self.sections: dict[str, list[str]] = {str(k): [str(w) for w in v or []]
                                               for k, v in (spec.get("sections") or {}).items()}  # fmt: skip
        # the question's words that ask for each kind of section: its own key ("why") and those listed for it
        self.section_asked_by: dict[str, list[tuple[str, ...]]] = {
            k: [(k,), *phrases((spec.get("section_asked_by") or {}).get(k))] for k in self.sections}
        self._section_asked_by = {k: Phrases(v) for k, v in self.section_asked_by.items()}
        self.name_cues_after: list[str] = list(spec.get("name_cues_after") or [])
        self.name_cues_joining: list[str] = list(spec.get("name_cues_joining") or [])
        self.name_glosses: tuple[tuple[str, ...], ...] = tuple(phrases(spec.get("name_glosses")))
        self.asks_which = frozenset(str(w) for w in spec.get("asks_which") or [])
        self.asked_with_not_before = frozenset(str(w) for w in spec.get("asked_with_not_before") or [])
        self.definite = frozenset(str(w) for w in spec.get("definite") or [])
        self.title_articles = frozenset(str(w) for w in spec.get("title_articles") or [])
        self.auxiliaries = frozenset(str(w) for w in spec.get("auxiliaries") or [])
        # "I'm organising a conference - what talks has she given?": what the visitor says of themselves, up to
        # the first dash, colon, semicolon or comma, is no part of the question
        starts = "|".join(re.escape(p).replace("\\ ", r"\s+") for p in spec.get("visitor_prefaces") or [])
        self.preface = re.compile(rf"^\s*(?:{starts})\b[^-–—:;,?]{{0,80}}[-–—:;,]\s*(?=\S+\s+\S)", re.I) \
            if starts else None  # fmt: skip
        self.verb_markers: list[str] = list(spec.get("verb_markers") or [])
        self.verb_phrases: list[str] = list(spec.get("verb_phrases") or [])
        self.name_frames: list[str] = list(spec.get("name_frames") or [])

    def sections_asked(self, words: Sequence[str]) -> list[str]:
        """The kinds of section (intents.yaml sections) the words ask for: "why", "results" for "how accurate"."""
        return [kind for kind, asked_by in self._section_asked_by.items() if asked_by.found_in(words)]

    def rule_words(self, rule: str) -> frozenset[str]:
        """Every word of the rule's phrases ("where", "city", "located" for where)."""
        r = self.rules.get(rule)
        groups = (r.starts_with, r.mentions, r.ends_with) if r else ()
        return frozenset(w for group in groups for phrase in group for w in phrase)

    def has(self, rule: str, words: Sequence[str]) -> bool:
        r = self.rules.get(rule)
        return bool(r and r.matches(words))

    def asks_only(self, rule: str, words: Sequence[str]) -> bool:
        """Whether the words are the rule's phrase and filler, nothing else ("what is", "define ... please")."""
        return self.has(rule, words) and self._only_filler_after(rule, words)

    def _only_filler_after(self, rule: str, cue: Sequence[str]) -> bool:
        """Whether the words naming nothing are, once the rule's opening and closing phrases are taken off, only
        filler ("what is X", "X - what's that?": either may come first)."""
        r = self.rules[rule]

        def strip(words: list[str], head_first: bool) -> list[str]:
            rest = list(words)
            for step in ("head", "tail") if head_first else ("tail", "head"):
                for phrase in sorted(r.starts_with if step == "head" else r.ends_with, key=len, reverse=True):
                    if step == "head" and starts(rest, phrase):
                        rest = rest[len(phrase) :]
                        break
                    if step == "tail" and ends(rest, phrase):
                        rest = rest[: -len(phrase)]
                        break
            return rest

        return any(all(w in self.filler for w in strip(list(cue), first)) for first in (True, False))

    def kind(
        self, words: Sequence[str], cue: Sequence[str], kinds: Sequence[str], *, authored: bool, linked_any: bool
    ) -> str:
        """The kind of question. `words`: all words; `cue`: the words that name nothing; `kinds`: linked kinds."""
        return self.decide(words, cue, kinds, authored=authored, linked_any=linked_any)[0]

    def decide(
        self, words: Sequence[str], cue: Sequence[str], kinds: Sequence[str], *, authored: bool, linked_any: bool
    ) -> tuple[str, str, Sequence[str]]:
        """(the kind of question, the rule that decided it, the words it read): what `kind` says, and why."""
        work_named = "work" in kinds
        if self.has("navigate", cue) and linked_any:
            return "navigate", "navigate", cue
        if self.has("source", cue) and linked_any:
            return "source", "source", cue
        if work_named and cue and all(w in self.filler for w in cue):
            return "entity", "only_filler", cue
        if authored:
            return "about", "authored", words
        if self.has("contact", cue):
            return "contact", "contact", cue
        if kinds and set(kinds) == {"person"} and self.has("contact", words):  # "reach $them": "reach Ada"
            return "contact", "contact", words
        if self.has("recent", cue) and not linked_any:
            return "recent", "recent", cue
        if work_named and self.has("stack", cue):
            return "stack", "stack", cue
        if self.has("count", cue):
            return "fact", "count", cue
        if self.has("time", cue):
            return "fact", "time", cue
        if self.has("define", words) and linked_any and not work_named and self._only_filler_after("define", cue):
            return "define", "define", words
        if self.has("list", words):
            return "list", "list", words
        if self.has("explain", cue):
            return "explain", "explain", cue
        if linked_any and all(w in self.filler for w in cue):
            return "entity", "only_filler", cue
        return "search", "", ()


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
