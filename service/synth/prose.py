"""Sentences about the generated entities. Every fact a sentence states (a date, a count, a skill, an
organisation) is read from the model, the same model the Turtle is written from."""

from __future__ import annotations

from service.synth import months
from service.synth.model import Entity, Person, Portfolio, Role, Work

_PRONOUNS = {"she": ("she", "her", "her"), "he": ("he", "him", "his"), "they": ("they", "them", "their")}
_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def plural(n: int, word: str) -> str:
    return f"{number(n)} {word}" + ("" if n == 1 else "s")


def pronoun(person: Person, form: int) -> str:
    return _PRONOUNS.get(person.pronoun, _PRONOUNS["they"])[form]


def listed(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def link(e: Entity, text: str | None = None) -> str:
    return f"[{text or e.name}](/id/{e.local})"


def period(work: Work) -> str:
    """ "between June 2019 and February 2021", "in June 2019", "since June 2019"."""
    if work.end is None:
        return f"since {months.said(work.start)}"
    if (work.start.year, work.start.month) == (work.end.year, work.end.month):
        return f"in {months.said(work.start)}"
    return f"between {months.said(work.start)} and {months.said(work.end)}"


def role_period(role: Role) -> str:
    start = months.said_day(role.start)
    return f"From {start} to {months.said_day(role.end)}" if role.end else f"Since {start}"


def work_description(p: Portfolio, work: Work, index: dict[str, Entity]) -> str:
    skills = [index[s].label for s in work.uses[:3]]
    head = f"{work.phrase[0].upper()}{work.phrase[1:]} that {work.purpose}"
    if work.kind == "Talk":
        about = index[work.related[0]].label if work.related else "his work"
        return f"A talk given at {work.venue} about {about}, in {months.said(work.start)}."
    if work.base == "Paper":
        return f"A paper published at {work.venue} on a method that {work.purpose}, evaluated with {listed(skills)}."
    where = ""
    if work.role:
        role = index[work.role]
        assert isinstance(role, Role)
        where = f" {p.person.short} made it as {role.title.lower()} at {index[role.org].label}"
    else:
        where = f" {p.person.short} made it in {pronoun(p.person, 2)} own time"
    return f"{head}, built with {listed(skills)}.{where}, starting in {months.said(work.start)}."
