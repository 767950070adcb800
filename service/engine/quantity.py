"""Questions that ask for an amount: "how long does the check take", "how many stops were surveyed", "what share of
searches". The answer must state a number in the form asked (a number before a unit of time, before the thing
counted, before a percent sign), so among the passages of the article that answers, one that states it goes
before one that only shares the question's words. The kinds, their cue phrases and their units are data
(intents.yaml quantities)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from service.engine.intents import Phrases, contains, phrases
from service.text import stem

_TOKEN = re.compile(r"\d+[^\W\d_]+|\d[\d,.]*\d|\d|%|[^\W\d_]+|[.!?;:]")
_YEAR = re.compile(r"^(?:1[89]|20)\d\d$")  # "since 2023. For each stop": a year counts nothing
_AT_CUTOFF = re.compile(r"@\d+")  # "nDCG@10 rose from 0.52": the 10 is part of the measure's name
_GLUED = re.compile(r"^(\d[\d,.]*)([^\W\d_]+|%)$")  # "14s", "300MB", "5%"


@dataclass(frozen=True)
class Quantity:
    """What a question asks the amount of: a number must come shortly before one of `units` (stems), or one
    of the words that state an amount on their own ("a tenth", "half")."""

    kind: str
    units: frozenset[str]
    alone: frozenset[str]
    numbers: frozenset[str] = frozenset()  # more words that are a number before this kind's units ("a season")
    cue: tuple[str, ...] = ()  # the words that asked for it ("what share"): the form of the answer, not its topic
    either_side: bool = False  # the number may follow the unit too ("nDCG@10 rose from 0.52")
    head: frozenset[str] = frozenset()  # for a count, the thing counted ("revisions" in "how many board revisions")
    within: int | None = None  # how many words the number may stand from the unit, when not the usual
    digits: bool = False  # only a number in digits states it ("a precision of 0.91", not "three signals")

    @property
    def form_words(self) -> frozenset[str]:
        """The stems of the cue that ask only for the form of the answer ("share" in "what share of queries"),
        not the measure's own name ("ndcg"): a text states the amount without them."""
        return frozenset(stem(w) for w in self.cue) - self.units


class Quantities:
    def __init__(self, spec: Mapping[str, Any] | None) -> None:
        spec = spec or {}
        self.alone = frozenset(stem(str(w)) for w in spec.get("alone") or [])
        # each kind's cue phrases and what it asks for, the cue filled in when a question uses one
        self.kinds: list[tuple[Phrases, Quantity]] = []
        for kind, body in (spec.get("kinds") or {}).items():
            digits = bool(body.get("digits_only"))
            self.kinds.append((Phrases(phrases(body.get("asked_by"))), Quantity(
                str(kind),
                frozenset(stem(u.lower()) if u != "%" else u for u in body.get("units") or []),
                frozenset() if digits else self.alone,  # "half an hour a week" states no score
                frozenset(str(w).lower() for w in body.get("numbers") or []),
                either_side=bool(body.get("either_side")),
                within=int(body["within"]) if body.get("within") is not None else None,
                digits=digits,
            )))
        self.numbers = frozenset(str(w).lower() for w in spec.get("number_words") or [])
        self.vague = frozenset(str(w).lower() for w in spec.get("vague") or [])
        self.counted = str(spec.get("counted") or "")  # the kind whose unit is the word after its cue
        # each thing counted -> the things an answer may count it as ("visitors": people)
        self.alike = {stem(str(w)): frozenset(stem(str(v)) for v in group)
                      for group in spec.get("counted_alike") or [] for w in group}  # fmt: skip
        self.within = int(spec.get("within") or 3)
        self.enforced = frozenset(str(k) for k in spec.get("enforced") or [])
        self.by_graph = frozenset(stem(str(w)) for w in spec.get("counted_by_graph") or [])
        # cues of another kind that ask for a count before a plural noun ("how much trees": how many)
        self.plural_counts = phrases(spec.get("plural_counts"))

    def asked(self, words: Sequence[str], skip: AbstractSet[str], synonyms: Mapping[str, set[str]]) -> Quantity | None:
        """The amount the question's words ask for, if any; for a count, the thing counted is the first word
        after the cue outside `skip` ("how many of her stops" counts stops), with its synonyms."""
        for cues, kind in self.kinds:
            if not cues.found_in(words):  # one set lookup for the kind, then its first cue in order
                continue
            for cue in cues:
                if not contains(words, cue):
                    continue
                at = next(i for i in range(len(words)) if tuple(words[i : i + len(cue)]) == cue) + len(cue)
                first = next((i for i in range(at, len(words)) if words[i] not in skip), None)
                counted = kind.kind == self.counted or (  # the plural right after the cue: not "how much did
                    cue in self.plural_counts and first == at and _plural(words[at], kind.units))  # enrolments rise"
                if not counted:
                    return replace(kind, cue=tuple(cue))
                if first is None:
                    return None
                # "how many board revisions": revisions, of boards; the plural after the first word is the head
                nouns = [words[first]]
                if first + 1 < len(words) and words[first + 1] not in skip and words[first + 1].endswith("s"):
                    nouns.append(words[first + 1])
                head = frozenset({stem(nouns[-1]), *synonyms.get(stem(nouns[-1]), set()),
                                  *self.alike.get(stem(nouns[-1]), ())})
                return Quantity(self.counted, head, frozenset(), cue=tuple(cue), head=head)
        return None

    def owed(self, q: Quantity | None, class_words: AbstractSet[str], *, quoted: bool = False) -> bool:
        """Whether an answer must state the amount: a kind that is enforced, and for a count, of something the
        graph does not count: neither a kind of work or skill category the question names (the stems of their
        names' words, `class_words`) nor one of counted_by_graph ("how many board revisions" counts revisions).
        A `quoted` answer (a passage) owes every count: only the graph may leave it to its rows ("how many
        skills" is no question for a passage holding "many" and "skill")."""
        if q is None or q.kind not in self.enforced:
            return False
        return q.kind != self.counted or quoted or not (q.head & class_words or q.head & self.by_graph)

    @lru_cache(maxsize=8192)  # noqa: B019  # the one Quantities lives as long as its engine
    def states(self, text: str, q: Quantity) -> bool:
        """Whether the text states an amount of the kind asked: a number at most `within` words before one of
        its units ("1,900 stops", "14 seconds", "2,000 Project Gutenberg books"), a number glued to one ("300MB"),
        or a word that is an amount by itself ("a tenth")."""
        tokens = [t.lower() for t in _TOKEN.findall(_AT_CUTOFF.sub("", text))]
        # "longer than a weekend" compares with one and says no amount: "a" after "than" is no number
        numbers = self.numbers - self.vague if q.kind == self.counted else self.numbers
        numbered = [(t[0].isdigit() and not _YEAR.match(t)) or (not q.digits and (t in numbers or (
            t in q.numbers and tokens[i - 1 : i] != ["than"]))) for i, t in enumerate(tokens)]  # fmt: skip
        within = q.within or self.within
        for i, token in enumerate(tokens):
            glued = _GLUED.match(token)
            if glued and (glued.group(2) in q.units or stem(glued.group(2)) in q.units):
                return True
            unit = token if token == "%" else stem(token)
            if unit in q.alone:
                return True
            if unit in q.units:
                before = tokens[max(0, i - within) : i]
                ends = max((n for n, t in enumerate(before) if t in ".!?;:"), default=-1)  # in the same sentence
                if any(numbered[max(0, i - within) + ends + 1 : i]):
                    return True
                after = tokens[i + 1 : i + 1 + within]
                stop = next((n for n, t in enumerate(after) if t in ".!?;:"), len(after))
                if q.either_side and any(numbered[i + 1 : i + 1 + stop]):
                    return True
        return False


def _plural(word: str, units: AbstractSet[str]) -> bool:
    """Whether a word after a cue is a plural noun, not one of the kind's own units ("trees", not "euros")."""
    return len(word) > 3 and word.endswith("s") and not word.endswith("ss") and stem(word) not in units \
        and word not in units
