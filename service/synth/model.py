"""The synthetic portfolio as plain data: what the Turtle and the articles are both written from."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(kw_only=True)
class Entity:
    local: str
    label: str
    description: str = ""
    short: str | None = None
    alt: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The name used in running text."""
        return self.short or self.label


@dataclass(kw_only=True)
class Place(Entity):
    located_in: str | None = None


@dataclass(kw_only=True)
class Organisation(Entity):
    cls: str  # Organisation or EducationalOrganisation
    place: str
    what: str  # "a logistics start-up"


@dataclass(kw_only=True)
class Role(Entity):
    cls: str  # Role or Education
    title: str
    org: str
    place: str
    start: date
    end: date | None


@dataclass(kw_only=True)
class Skill(Entity):
    category: str
    broader: str | None = None


@dataclass(kw_only=True)
class Concept(Entity):
    cls: str  # Technique, Theme or Dataset


@dataclass(kw_only=True)
class Work(Entity):
    base: str  # Project, SideWork, Paper or Component
    kind: str  # Library, Game, ... or "" for none
    phrase: str  # "a command-line tool"
    tier: int
    start: date
    end: date | None
    months: list[date]
    rank: int | None = None
    uses: list[str] = field(default_factory=list)
    implements: list[str] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)
    datasets: list[str] = field(default_factory=list)
    role: str | None = None
    related: list[str] = field(default_factory=list)
    succeeds: str | None = None
    component_of: str | None = None
    published: date | None = None
    venue: str | None = None
    purpose: str = ""
    repository: str | None = None
    source_file: str | None = None


@dataclass
class Person:
    local: str
    label: str
    short: str
    pronoun: str
    email: str
    base: str
    site: str
    place: str = ""
    description: str = ""


@dataclass
class Portfolio:
    person: Person
    scale: int
    seed: int
    places: list[Place] = field(default_factory=list)
    orgs: list[Organisation] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    works: list[Work] = field(default_factory=list)
    units: list[list[str]] = field(default_factory=list)  # local names of each unit's works, for the files
    articles: list[list[str]] = field(default_factory=list)  # each unit's entities that get an article

    def index(self) -> dict[str, Entity]:
        out: dict[str, Entity] = {}
        for group in (self.places, self.orgs, self.roles, self.skills, self.concepts, self.works):
            for e in group:
                out[e.local] = e
        return out
