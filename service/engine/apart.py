"""Things a question sets apart ("apart from Widgeteer, which of her tools are in Rust", "other than the thesis,
what has he published"): the names after one of the phrases that set apart (intents.yaml set_apart) are taken
out of the question, which is then answered without them, and out of the rows its lists are made from."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.engine.intents import ANY, MAX_PHRASE, Phrase, ngrams, phrases
from service.engine.link import Linker, tokenize


@dataclass(frozen=True)
class SetApart:
    text: str  # the question without the phrase and the names it sets apart
    iris: frozenset[str]
    said: str  # the phrase and names as written ("apart from Widgeteer")


# words ("the workshop"), the rest of the question ("how many talks has he given") and whether they open it ->
# the things they stand for
Describe = Callable[[tuple[str, ...], str, bool], frozenset[str]]
_STOPS = ",;:?!—–-()"  # the end of what a phrase sets apart when no name follows it ("not counting the workshop, ...")


class Apart:
    def __init__(self, spec: Mapping[str, Any] | None) -> None:
        spec = spec or {}
        self.phrases: list[Phrase] = sorted(phrases(spec.get("phrases")), key=len, reverse=True)
        # the words that may stand between the phrase and a name, or between two names set apart ("the", "and")
        self.between = {""} | {" ".join(p) for p in phrases(spec.get("between"))}
        one_word = {p[0] for p in phrases(spec.get("between")) if len(p) == 1}
        self.joining = one_word & {"and", "or", "nor"}
        self.leading = one_word - self.joining  # "the", "her": before a thing set apart, no part of it
        # "leaving the thesis aside": the opening words, what is set apart, then the closing words
        self.around = [(p[: p.index(ANY)], p[p.index(ANY) + 1 :]) for p in phrases(spec.get("around")) if ANY in p]
        # the runs of words that show a question may set something apart, looked up at once
        openings = [*self.phrases, *(o for o, _ in self.around)]
        self._quick = frozenset(p for p in openings if 0 < len(p) <= MAX_PHRASE and ANY not in p)
        self._slow = [p for p in openings if p not in self._quick]

    def find(self, text: str, linker: Linker, describe: Describe | None = None) -> SetApart | None:
        """The names the question sets apart, or None: a phrase that sets apart, right before one name or more
        joined by "and", "or" or commas; with `describe`, else the things the words up to the clause's end stand
        for ("not counting the workshop")."""
        said = ngrams(tuple(t.word for t in tokenize(text)))
        if not any(p in said for p in self._quick) and not self._slow:
            return None  # no phrase that sets apart: nothing to read (most questions)
        text = self._closed(text)
        tokens = tokenize(text)
        words = [t.word for t in tokens]
        mentions = None
        for at in range(len(words)):
            n = next((len(p) for p in self.phrases if tuple(words[at : at + len(p)]) == p), 0)
            if not n or at + n >= len(tokens):
                continue
            if mentions is None:  # linked once, and only when a phrase sets something apart
                mentions = sorted((m for m in linker.link(text).mentions if len(m.iris) == 1), key=lambda m: m.start)
            iris: list[str] = []
            end = tokens[at + n - 1].end
            for m in mentions:
                if m.start < end:
                    continue
                if " ".join(t.word for t in tokenize(text[end : m.start])) not in self.between:
                    break
                iris.append(m.iris[0])
                end = m.end
            if not iris and describe is not None:  # "not counting the workshop", "other than her papers"
                iris, end = self._described(text, tokens[at], tokens[at + n :], describe, opening=at == 0)
            if iris:
                rest = f"{text[: tokens[at].start].rstrip(' ,')} {text[end:].lstrip(' ,')}".strip()
                return SetApart(rest, frozenset(iris), text[tokens[at].start : end])
        return None

    def _closed(self, text: str) -> str:
        """The text with a phrase around what it sets apart written as one phrase before it: "leaving the thesis
        aside, what ..." is read as "leaving aside the thesis, what ..."."""
        tokens = tokenize(text)
        words = [t.word for t in tokens]
        for opening, closing in self.around:
            for at in range(len(words) - len(opening)):
                if tuple(words[at : at + len(opening)]) != opening:
                    continue
                head = tokens[at + len(opening) - 1].end
                stop = next((i for i, c in enumerate(text) if c in _STOPS and i >= head), len(text))
                close = next((i for i in range(at + len(opening) + 1, len(words) - len(closing) + 1)
                              if tokens[i + len(closing) - 1].end <= stop
                              and tuple(words[i : i + len(closing)]) == closing), None)  # fmt: skip
                if close is not None:
                    end = tokens[close + len(closing) - 1].end
                    inner = text[head : tokens[close].start].rstrip()
                    return f"{text[:head]} {' '.join(closing)}{inner}{text[end:]}"
        return text

    def _described(
        self, text: str, first: Any, after: list[Any], describe: Describe, *, opening: bool
    ) -> tuple[list[str], int]:
        """The things the words after the phrase, up to the end of the clause, stand for when no name follows:
        each part joined by "and" or "or" a kind of work or one thing so described, else nothing."""
        stop = next((i for i, c in enumerate(text) if c in _STOPS and i >= after[0].start), len(text)) if after \
            else len(text)  # fmt: skip
        span = [t for t in after if t.end <= stop]
        if not span:
            return [], 0
        parts: list[list[str]] = [[]]
        for t in span:
            if t.word in self.joining:
                parts.append([])
            elif parts[-1] or t.word not in self.leading:  # "the", "her" before a part
                parts[-1].append(t.word)
        rest = f"{text[: first.start]} {text[span[-1].end :]}"
        found: list[str] = []
        for part in parts:
            iris = describe(tuple(part), rest, opening) if part else frozenset()
            if not iris:
                return [], 0
            found += sorted(iris - set(found))
        return found, span[-1].end
