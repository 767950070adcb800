"""The readers a route declaration fills a stored query's parameters with (`queries: {key: {query, params}}`):
each reads one value of the analysed question, or None when the question does not give it (an optional
parameter is then left unbound; a required one makes the step pass). Names: service/language/declarations.py
READERS."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from service.engine.catalog import CONCEPTS, Entity
from service.engine.question import Question

Reader = Callable[[Question], object]


def _first(q: Question, kinds: set[str] | frozenset[str]) -> str | None:
    return next((e.iri for e in q.entities if e.kind in kinds), None)


def _person(q: Question) -> str | None:
    owner: Entity | None = q.engine.by_name.get(q.engine.kb.site.person)
    return owner.iri if owner is not None else None


def _category(q: Question) -> str | None:
    broad = q.engine.broad("broad_categories")
    return next((iri for iri, kind in q.classes_named if kind == "category" and not iri.endswith(broad)), None)


def _skill_kind(q: Question) -> str | None:
    """A kind of skill of the owner's named ("plants": own:Plant, whose members are all skills; a category such as
    "hardware" often names the kind of work instead: "KiCad hardware projects")."""
    return next((iri for iri, kind in q.classes_named if kind == "concept" and q.engine.skill_kind(iri)), None)


def _role(q: Question) -> str | None:
    """A role named; an organisation named stands for the roles held there (the `organisation` reader)."""
    return next((e.iri for e in q.entities if e.kind == "role"), None)


READERS: dict[str, Reader] = {
    "person": _person,
    "entity": lambda q: next((e.iri for e in q.entities if e.kind != "person"), None),
    "work": lambda q: _first(q, {"work"}),
    "skill": lambda q: _first(q, {"skill"}),
    "concept": lambda q: _first(q, CONCEPTS),
    "place": lambda q: _first(q, {"place"}),
    "award": lambda q: _first(q, {"award"}),
    "organisation": lambda q: _first(q, {"organisation"}),
    "role": _role,
    "kind": lambda q: q.kind_of_work,
    "category": _category,
    "skill_kind": _skill_kind,
    "period.start": lambda q: q.period.start if q.period else None,
    "period.end": lambda q: q.period.end if q.period else None,
    "today": lambda q: q.today,
    "year_ago": lambda q: q.today - timedelta(days=365),
    "outside": lambda q: q.has("outside"),
    "latest": lambda q: True if q.has("last") else None,  # "the latest one": only the last row of a dated list
}
