"""Every entity the engine can name, read once from the KB through stored queries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from service.queries import Catalog
from service.text import terms
from service.vocab import PF

# The kind of an entity, from its stated classes; the first class found in this order wins.
_KINDS: list[tuple[str, str]] = [
    ("Person", "person"),
    ("Skill", "skill"),
    ("Technique", "technique"),
    ("Theme", "theme"),
    ("Dataset", "dataset"),
    ("Education", "role"),
    ("Role", "role"),
    ("EducationalOrganisation", "organisation"),
    ("Organisation", "organisation"),
    ("Place", "place"),
    ("Award", "award"),
    ("PressCoverage", "coverage"),
    ("Occurrence", "occurrence"),
]
_WORK_CLASSES = {
    "Project", "SideWork", "Paper", "Component", "Software", "Library", "CommandLineTool", "WebApplication",
    "Service", "Game", "Visualisation", "HardwareProject", "Writing", "Talk", "Work",
}  # fmt: skip
# The class shown as an entity's type: the most specific kind of work first.
_TYPE_ORDER = [
    "Paper", "Talk", "Game", "Library", "CommandLineTool", "WebApplication", "Service", "Visualisation",
    "HardwareProject", "Writing", "Component", "Project", "SideWork",
]  # fmt: skip
CONCEPTS = {"skill", "technique", "theme", "dataset"}


@dataclass
class Entity:
    iri: str
    name: str  # local name: /id/NAME, /wiki/NAME
    label: str
    kind: str  # work, skill, technique, theme, dataset, role, organisation, place, person, award, coverage, occurrence
    classes: set[str] = field(default_factory=set)  # the portfolio's by local name ("Talk"), an owner's by IRI
    short: str | None = None
    description: str = ""
    tier: int | None = None
    key_rank: int | None = None
    start: str | None = None
    end: str | None = None
    published: str | None = None  # a paper's or a writing's publication date
    venue: str | None = None  # where a paper appeared or a talk was given
    category: str | None = None
    organisation: str | None = None  # for a role
    live: str | None = None
    repository: str | None = None
    url: str | None = None
    article_url: str | None = None
    has_article: bool = False

    @property
    def display(self) -> str:
        return self.short or self.label

    @property
    def type(self) -> str:
        """The most specific kind of work, else the owner's own class (its local name), else the kind."""
        for cls in _TYPE_ORDER:
            if cls in self.classes:
                return cls
        own = sorted(c for c in self.classes if "/" in c)
        return re.split(r"[#/]", own[0])[-1] if own else self.kind.capitalize()


def first_sentence(e: Entity) -> str:
    """The first sentence of the thing's description ("A rooftop weather station ...")."""
    return re.split(r"\.\s", e.description or "", maxsplit=1)[0]


def what_it_is(e: Entity) -> set[str]:
    """The terms of what a work is: its names and its description's first sentence ("A rooftop weather station")."""
    return set(terms(f"{e.label} {e.short or ''} {first_sentence(e)}"))


def load_entities(catalog: Catalog, query: str, base: str, articles: set[str], kinds: str = "") -> dict[str, Entity]:
    """IRI -> Entity, from the stored catalog query (one row per entity and stated class) and, for an entity of a
    class of the owner's own, the `kinds` query's portfolio classes that class is a subclass of."""
    entities: dict[str, Entity] = {}
    for row in catalog.run(query, row_cap=1_000_000).rows:
        iri = row["entity"].value
        cls = row["class"].value.removeprefix(PF)
        e = entities.get(iri)
        if e is None:
            name = iri[len(base) :] if iri.startswith(base) else iri.rsplit("/", 1)[-1]
            e = entities[iri] = Entity(
                iri=iri, name=name, label=row["label"].value, kind="", has_article=name in articles
            )
            for attr, column in (
                ("short", "short"), ("description", "description"), ("start", "start"), ("end", "end"),
                ("published", "published"), ("venue", "venue"),
                ("live", "live"), ("repository", "repository"), ("url", "url"), ("article_url", "article"),
            ):  # fmt: skip
                if column in row:
                    setattr(e, attr, row[column].value)
            if "tier" in row:
                e.tier = int(row["tier"].value)
            if "keyRank" in row:
                e.key_rank = int(row["keyRank"].value)
            if "category" in row:
                e.category = row["category"].value
            if "organisation" in row:
                e.organisation = row["organisation"].value
        e.classes.add(cls)
    for row in catalog.run(kinds, row_cap=1_000_000).rows if kinds else []:
        if row["entity"].value in entities:
            entities[row["entity"].value].classes.add(row["class"].value.removeprefix(PF))
    for e in entities.values():
        e.kind = next((kind for cls, kind in _KINDS if cls in e.classes), "work" if e.classes & _WORK_CLASSES else "")
    return {iri: e for iri, e in entities.items() if e.kind}
