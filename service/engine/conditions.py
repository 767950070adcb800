"""The conditions of route declarations (service/language/declarations.py CONDITIONS), evaluated on an analysed
question. Each test reads the Question only: what it names, the cue concepts it holds, its period."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from service.engine.catalog import CONCEPTS
from service.engine.question import Question
from service.language.declarations import Condition, Way


@lru_cache(maxsize=256)
def _kinds(wanted: frozenset[str]) -> frozenset[str]:
    return wanted - {"concept"} | (CONCEPTS if "concept" in wanted else frozenset())


def _named_count(q: Question, spec: Mapping[str, Any]) -> bool:
    kinds = _kinds(spec["kinds"]) if "kinds" in spec else None
    others = _kinds(spec["not"]) if "not" in spec else frozenset()
    n = sum(1 for e in q.entities if (kinds is None or e.kind in kinds) and e.kind not in others)
    return n >= int(spec.get("min", 0)) and ("max" not in spec or n <= int(spec["max"]))


def filters_named(q: Question) -> frozenset[str]:
    """The filters of a list the question names: a technology, a narrow kind of work, a period, a place, a role."""
    found = set()
    if q.concepts:
        found.add("technology")
    if q.kind_of_work is not None:
        found.add("kind")
    if q.period is not None:
        found.add("period")
    if any(e.kind == "place" for e in q.entities):
        found.add("place")
    if q.role is not None:
        found.add("role")
    return frozenset(found)


def _filters(q: Question, spec: Mapping[str, Any]) -> bool:
    of = spec.get("of") or frozenset({"technology", "kind", "period", "place", "role"})
    return len(filters_named(q) & of) >= int(spec.get("at_least", 1))


TESTS: dict[str, Callable[[Question, Any], bool]] = {
    "kind": lambda q, v: q.kind in v,
    "cue": lambda q, v: all(q.has(c) for c in v),
    "any_cue": lambda q, v: any(q.has(c) for c in v),
    "without": lambda q, v: not any(q.has(c) for c in v),
    "period": lambda q, v: (q.period is not None) == v,
    "names": lambda q, v: bool(q.entities) == v,
    "named": lambda q, v: any(e.kind in _kinds(v) for e in q.entities),
    "named_only": lambda q, v: all(e.kind in _kinds(v) for e in q.entities),
    "first_named": lambda q, v: bool(q.entities) and q.entities[0].kind in _kinds(v),
    "named_count": _named_count,
    "ambiguous_only": lambda q, v: (bool(q.linked.ambiguous) and not q.entities) == v,
    "kind_of_work": lambda q, v: (q.kind_of_work is not None) == v,
    "class_named": lambda q, v: (q.class_named is not None) == v,
    "broad_kind": lambda q, v: (q.class_named is not None
                                and q.class_named[0].endswith(q.engine.broad("broad_kinds"))) == v,
    "role": lambda q, v: (q.role is not None) == v,
    "own_practice": lambda q, v: q.names_own_practice == v,
    "authored": lambda q, v: (q.authored_key is not None) == v,
    "amount": lambda q, v: (q.amount is not None) == v,
    "sections": lambda q, v: bool(q.sections_asked) == v,
    "section": lambda q, v: any(k in v for k in q.sections_asked),
    "unknown_rest": lambda q, v: bool(q.unknown_rest) == v,
    "asks_more": lambda q, v: bool(q.ask) == v,
    "filters": _filters,
}  # fmt: skip


def holds(q: Question, condition: Condition) -> bool:
    for key, value in condition.tests:  # noqa: SIM110  # a loop: no generator frame per test on the hot path
        if not TESTS[key](q, value):
            return False
    return True


def applies(q: Question, way: Way) -> bool:
    """Whether a way is tried for the question: one of its `when` conditions holds (or it has none), and none of
    its `unless` conditions does."""
    if way.when:
        for c in way.when:
            if holds(q, c):
                break
        else:
            return False
    for c in way.unless:  # noqa: SIM110  # as above
        if holds(q, c):
            return False
    return True
