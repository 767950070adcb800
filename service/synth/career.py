"""Places, organisations and roles: one unit of a career is 9 organisations and 11 roles (two of them
courses of study), in sequence over about twenty years."""

from __future__ import annotations

import random
from datetime import date

from service.synth import months
from service.synth.model import Organisation, Place, Portfolio, Role
from service.synth.names import Namer
from service.synth.words import Words


def make_places(words: Words, namer: Namer) -> list[Place]:
    out: dict[str, Place] = {}
    for city, country, continent in words.rows("places"):
        for label, parent in ((continent, None), (country, continent), (city, country)):
            local = namer.take(label) if namer.free(label) else None
            if local is None:
                continue
            inside = next(p.local for p in out.values() if p.label == parent) if parent else None
            what = {None: "A continent", continent: "A country in " + continent}.get(parent, f"A city in {parent}")
            out[local] = Place(local=local, label=label, located_in=inside, description=f"{what}.")
    return list(out.values())


def _org(rng: random.Random, words: Words, namer: Namer, city: Place) -> Organisation | None:
    kinds = words.rows("org_kinds")
    stems, suffixes = words.names("org_stems"), words.names("org_suffixes")
    kind = rng.choice(kinds)
    label = namer.first_free(lambda: f"{rng.choice(stems)}{rng.choice(suffixes)} {kind[0]}")
    if label is None:
        return None
    short = label.rsplit(" ", 1)[0]
    return Organisation(
        local=namer.take(label),
        label=label,
        short=short if namer.free(short) else None,
        cls="Organisation",
        place=city.local,
        what=kind[1],
        description=f"{kind[1][0].upper()}{kind[1][1:]} in {city.label}.",
    )


def _university(rng: random.Random, words: Words, namer: Namer, cities: list[Place]) -> Organisation:
    forms = words.names("university_forms")
    city = rng.choice(cities)
    label = namer.first_free(lambda: rng.choice(forms).format(city=rng.choice(cities).label))
    if label is None:
        label = f"{city.label} University {len(namer.locals)}"
    where = next(c for c in cities if c.label in label) if any(c.label in label for c in cities) else city
    return Organisation(
        local=namer.take(label),
        label=label,
        cls="EducationalOrganisation",
        place=where.local,
        what="a university",
        description=f"A university in {where.label}.",
    )


def _group(namer: Namer, city: Place, kind: str, unit: int) -> Organisation:
    label = f"{city.label} {kind}"
    if not namer.free(label):
        label = f"{city.label} {kind} {unit + 1}"
    what = {
        "Data Meetup": "a monthly meetup for people who work with data",
        "Open Data Collective": "a volunteer group that publishes open tools and data",
    }[kind]
    return Organisation(
        local=namer.take(label),
        label=label,
        cls="Organisation",
        place=city.local,
        what=what,
        description=f"{what[0].upper()}{what[1:]} in {city.label}.",
    )


def _role(
    namer: Namer,
    cls: str,
    title: str,
    org: Organisation,
    start: date,
    end: date | None,
    label: str | None = None,
    what: str = "",
) -> Role:
    label = label or f"{title}, {org.label}"
    local = namer.reserve_local(
        "Role" + "".join(w[:1].upper() + w[1:] for w in label.replace(",", "").split() if w.isalnum())
    )
    namer.labels.add(label.lower())
    return Role(
        local=local,
        label=label,
        cls=cls,
        title=title,
        org=org.local,
        place=org.place,
        start=start,
        end=months.month_end(end) if end else None,
        description=what
        or f"{title} at {org.label}, from {months.said(start)}" + (f" to {months.said(end)}." if end else " onwards."),
    )


def make_career(rng: random.Random, words: Words, namer: Namer, portfolio: Portfolio, unit: int) -> list[Role]:
    """One unit: organisations (added to the portfolio) and the roles held there, oldest first."""
    cities = [
        p for p in portfolio.places if p.located_in and not any(q.located_in == p.local for q in portfolio.places)
    ]
    y0 = 2000 + unit % 5
    uni1 = _university(rng, words, namer, cities)
    uni2 = _university(rng, words, namer, cities)
    companies = [o for o in (_org(rng, words, namer, rng.choice(cities)) for _ in range(4)) if o is not None]
    home = rng.choice(cities)
    meetup = _group(namer, home, "Data Meetup", unit)
    collective = _group(namer, home, "Open Data Collective", unit)
    studio_label = namer.first_free(lambda: f"{rng.choice(words.names('org_stems'))} Studio") or f"Studio {unit + 1}"
    studio = Organisation(
        local=namer.take(studio_label),
        label=studio_label,
        cls="Organisation",
        place=home.local,
        what="a one-person studio for independent work",
        description=f"A one-person studio for independent engineering work in {home.label}.",
    )
    portfolio.orgs += [uni1, uni2, *companies, meetup, collective, studio]

    degrees = words.rows("degrees")
    bsc = rng.choice([d for d in degrees if d[0].startswith("B")])
    msc = rng.choice([d for d in degrees if d[0].startswith("M")])
    roles = [
        _role(
            namer,
            "Education",
            bsc[1],
            uni1,
            date(y0, 9, 1),
            date(y0 + 4, 6, 1),
            f"{bsc[0]}, {uni1.label}",
            f"An undergraduate degree in {bsc[2].lower()}.",
        ),
        _role(namer, "Role", "Teaching assistant", uni1, date(y0 + 3, 9, 1), date(y0 + 5, 6, 1)),
        _role(
            namer,
            "Education",
            msc[1],
            uni2,
            date(y0 + 4, 9, 1),
            date(y0 + 5, 8, 1),
            f"{msc[0]}, {uni2.label}",
            f"A one-year master's degree in {msc[2].lower()}.",
        ),
        _role(namer, "Role", "Research assistant", uni2, date(y0 + 5, 9, 1), date(y0 + 7, 3, 1)),
    ]
    at = date(y0 + 7, 4, 1)
    titles = words.names("role_titles")
    for company in companies:
        length = rng.randint(18, 36)
        end = months.add(at, length - 1)
        roles.append(_role(namer, "Role", rng.choice(titles), company, at, end))
        at = months.add(end, 1)
    volunteer_start = months.add(roles[5].start, rng.randint(0, 12)) if len(roles) > 5 else at
    roles.append(_role(namer, "Role", "Volunteer maintainer", collective, volunteer_start, None))
    roles.append(_role(namer, "Role", "Co-organiser", meetup, months.add(volunteer_start, rng.randint(6, 24)), None))
    roles.append(_role(namer, "Role", "Independent engineer", studio, at, None))
    portfolio.roles += roles
    if not portfolio.person.place:
        portfolio.person.place = home.local
    return roles
