"""What the lab reports: for each technique its steps, its hits with the formula filled in, its time, and how it
compares with plain search. Everything here turns into JSON as is (`to_json`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Hit:
    """One piece of text a technique hands over: a passage, a sentence chunk, a whole section or article."""

    article: str  # /wiki/<article>
    title: str
    heading: str
    text: str
    score: float
    why: str  # the formula with this hit's numbers: "lantern 3.21 + rust 1.10 = 4.31"
    passages: tuple[str, ...]  # ids of the wiki passages its text comes from
    label: str = ""  # what kind of piece it is, when a technique hands over several kinds
    ranks: tuple[tuple[int, int], ...] = ()  # fusion: (wording number, rank there) for each wording that found it
    in_plain: bool | None = None  # one of its passages is among plain search's top passages


@dataclass
class Step:
    text: str
    details: list[str] = field(default_factory=list)


@dataclass
class VersusPlain:
    """Against plain keyword search's top passages."""

    shared: list[str]  # ids of this technique's hits plain search also handed over
    new: list[str]  # ... and of those it did not
    missed: list[str]  # plain search's top passages this technique does not hand over


@dataclass
class Variant:
    """One of several rankings a technique makes (a chunk size), evaluated on its own."""

    name: str
    hits: list[Hit]
    ranking: list[Hit] = field(default_factory=list)


@dataclass
class Technique:
    key: str
    name: str
    explanation: str
    formula: str
    steps: list[Step] = field(default_factory=list)
    ranking: list[Hit] = field(default_factory=list)  # best first, to the lab's depth
    shown: int = 3
    variants: list[Variant] = field(default_factory=list)
    off: str | None = None  # why it did not run
    ms: float = 0.0
    comparison: VersusPlain | None = None

    @property
    def hits(self) -> list[Hit]:
        return self.ranking[: self.shown]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "explanation": self.explanation,
            "formula": self.formula,
            "off": self.off,
            "steps": [asdict(s) for s in self.steps],
            "hits": [_hit_json(h) for h in self.hits],
            "variants": [{"name": v.name, "hits": [_hit_json(h) for h in v.hits]} for v in self.variants],
            "comparison": asdict(self.comparison) if self.comparison else None,
            "ms": round(self.ms, 3),
        }


def _hit_json(hit: Hit) -> dict[str, Any]:
    out = asdict(hit)
    out["score"] = round(hit.score, 4)
    out["url"] = f"/wiki/{hit.article}"
    out["passages"] = list(hit.passages)
    out["ranks"] = [{"wording": w, "rank": r} for w, r in hit.ranks]
    return out


@dataclass
class Report:
    question: str
    words: list[str]  # the search words (stemmed), as plain search uses them
    techniques: list[Technique]
    passages: int  # how many passages the wiki has
    setup_ms: float  # building the lab's in-memory indexes (once per KB, 0 when they were ready)

    def technique(self, key: str) -> Technique:
        return next(t for t in self.techniques if t.key == key)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "words": self.words,
            "passages": self.passages,
            "setup_ms": round(self.setup_ms, 3),
            "techniques": [t.to_json() for t in self.techniques],
        }
