"""Things a question sets apart ("apart from Widgeteer, which of her tools are in Rust", "other than the thesis,
what has he published"): the names after one of the phrases that set apart (intents.yaml set_apart) are taken
out of the question, which is then answered without them, and out of the rows its lists are made from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.intents import Phrase, phrases
from service.engine.link import Linker, tokenize

_JOINS = ("and", "or", "nor")
_BETWEEN = ("", "the", "his", "her", "their", *_JOINS, *(f"{j} the" for j in _JOINS))  # between the names set apart


@dataclass(frozen=True)
class SetApart:
    text: str  # the question without the phrase and the names it sets apart
    iris: frozenset[str]
    said: str  # the phrase and names as written ("apart from Widgeteer")


class Apart:
    def __init__(self, spec: Sequence[str] | None) -> None:
        self.phrases: list[Phrase] = sorted(phrases(list(spec or [])), key=len, reverse=True)

    def find(self, text: str, linker: Linker) -> SetApart | None:
        """The names the question sets apart, or None: a phrase that sets apart, right before one name or more
        joined by "and", "or" or commas."""
        tokens = tokenize(text)
        words = [t.word for t in tokens]
        for at in range(len(words)):
            n = next((len(p) for p in self.phrases if tuple(words[at : at + len(p)]) == p), 0)
            if not n or at + n >= len(tokens):
                continue
            begin = tokens[at].start
            linked = linker.link(text)
            iris: list[str] = []
            end = tokens[at + n - 1].end
            for m in sorted(linked.mentions, key=lambda m: m.start):
                if m.start < end or len(m.iris) != 1:
                    continue
                if text[end : m.start].strip(" ,").lower() not in _BETWEEN:
                    break
                iris.append(m.iris[0])
                end = m.end
            if not iris:
                continue
            rest = f"{text[:begin].rstrip(' ,')} {text[end:].lstrip(' ,')}".strip()
            return SetApart(rest, frozenset(iris), text[begin:end])
        return None
