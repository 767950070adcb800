"""Things a question sets apart ("apart from Widgeteer, which of her tools are in Rust", "other than the thesis,
what has he published"): the names after one of the phrases that set apart (intents.yaml set_apart) are taken
out of the question, which is then answered without them, and out of the rows its lists are made from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.engine.intents import Phrase, phrases
from service.engine.link import Linker, tokenize


@dataclass(frozen=True)
class SetApart:
    text: str  # the question without the phrase and the names it sets apart
    iris: frozenset[str]
    said: str  # the phrase and names as written ("apart from Widgeteer")


class Apart:
    def __init__(self, spec: Mapping[str, Any] | None) -> None:
        spec = spec or {}
        self.phrases: list[Phrase] = sorted(phrases(spec.get("phrases")), key=len, reverse=True)
        # the words that may stand between the phrase and a name, or between two names set apart ("the", "and")
        self.between = {""} | {" ".join(p) for p in phrases(spec.get("between"))}

    def find(self, text: str, linker: Linker) -> SetApart | None:
        """The names the question sets apart, or None: a phrase that sets apart, right before one name or more
        joined by "and", "or" or commas."""
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
            if iris:
                rest = f"{text[: tokens[at].start].rstrip(' ,')} {text[end:].lstrip(' ,')}".strip()
                return SetApart(rest, frozenset(iris), text[tokens[at].start : end])
        return None
