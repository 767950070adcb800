"""The answer composer: one authority per answer, and only what the plan read may be cited.

The planner records everything it reads (a query's rows, a passage, a definition, an entity's graph
facts). A draft answer is a list of sentences, each naming the readings it rests on. Composing numbers the
sources S1..Sn in order of first citation, drops any citation of something that was not read, drops a
sentence left without a valid source, and returns no answer at all when nothing is left (seed 001: "an answer
left without a valid source is not an answer").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.engine.model import Answer, Source


@dataclass(frozen=True)
class Reading:
    kind: str  # graph, passage, definition
    title: str
    url: str
    text: str


@dataclass
class Read:
    """What a plan has read, by reference."""

    items: dict[str, Reading] = field(default_factory=dict)

    def add(self, ref: str, reading: Reading) -> str:
        self.items.setdefault(ref, reading)
        return ref


@dataclass
class Draft:
    sentences: list[tuple[str, list[str]]] = field(default_factory=list)

    def say(self, text: str, *refs: str) -> Draft:
        self.sentences.append((text, list(refs)))
        return self


def compose(draft: Draft, read: Read) -> Answer | None:
    numbers: dict[str, str] = {}
    sources: list[Source] = []
    parts: list[str] = []
    for text, refs in draft.sentences:
        valid = [r for r in refs if r in read.items]
        if not valid:
            continue
        marks = []
        for ref in valid:
            if ref not in numbers:
                numbers[ref] = f"S{len(numbers) + 1}"
                r = read.items[ref]
                sources.append(Source(numbers[ref], r.kind, r.title, r.url, r.text, ref))
            marks.append(numbers[ref])
        parts.append(f"{text} [{', '.join(dict.fromkeys(marks))}]")
    if not parts:
        return None
    return Answer(" ".join(parts), sources)
