"""Questions about the person's roles: where they worked or studied, when, for how long, where they lived, what
they do now.

Answered from the stored role queries (language/routes.yaml: career, period_roles, place_roles), never from
an overview of the organisation or the place named: "how long was he at Acme" wants the role's dates,
"did she ever live in Spain" the roles based anywhere in Spain. The cue words are in language/intents.yaml
(career, now, first).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from service.engine.catalog import Entity
from service.engine.routes import (
    answer_limit,
    class_members,
    labels,
    month,
    names,
    say_role,
    when,
)
from service.engine.state import State
from service.queries import QueryRun
from service.text import terms
from service.vocab import PF

_YEAR = re.compile(r"\b(1[89]|20)\d\d\b")  # a year in a place's account: since when she lives there


def _span(st: State, row: dict[str, Any]) -> str:
    say = st.engine.sentence
    start = row["roleStart"].value
    end = row["roleEnd"].value if "roleEnd" in row else None
    finish = date.fromisoformat(end[:10]) if end else st.q.today
    months = (finish.year - int(start[:4])) * 12 + finish.month - int(start[5:7]) + 1
    years, rest = divmod(months, 12)
    length = say("years_and_months" if years and rest else "years" if years else "months" if rest else "",
                 years=years, months=rest) if years or rest else ""  # fmt: skip
    return say("role_span", start=month(start), end=month(end) if end else say("now"), length=length)


def role_text(st: State, row: dict[str, Any]) -> str:
    """ "Staff engineer in Glasgow (March 2021 to now, 3 years and 2 months)": a role of the career query."""
    if "placeLabel" in row:
        return st.engine.sentence("role_in", role=row["roleLabel"].value, place=row["placeLabel"].value,
                                  span=_span(st, row))  # fmt: skip
    return st.engine.sentence("role", role=row["roleLabel"].value, span=_span(st, row))


def place_of(st: State) -> bool:
    """ "which city is Acme in": the place a named organisation, role or work is based in, and "which country is
    Ljubljana in" the places a named place lies in, from its graph facts."""
    for e in st.q.entities:
        if e.kind not in ("organisation", "work", "place", "role"):
            continue
        if e.kind == "place" and st.q.has("career"):
            continue  # "where did she work in Rotterdam": her roles there, not where Rotterdam is
        mark = st.checkpoint()
        facts = st.run("facts", {"entity": e.iri})
        link = "#locatedIn" if e.kind == "place" else "#basedIn"
        rows = sorted((r for r in facts.rows if r["property"].value.endswith(link) and r["value"].kind == "iri"),
                      key=lambda r: r["inferred"].value == "true")  # what the owner wrote first: the city, then
        places = [r["value"] for r in rows]  # the countries the reasoner adds
        if not places and e.kind == "work" and _venue_of(st, e, facts):
            return True
        if not places and e.kind == "work" and _lived_then(st, e, facts):
            return True
        if not places:
            st.rollback(mark)  # not read: no answer rests on it
            continue
        st.plan.route = "place"
        st.exact = True
        st.listed = [e.iri] + [p.value for p in places]
        where = names(list(dict.fromkeys(p.label or p.value for p in places)), 3)
        said = "place_in" if e.kind == "place" else "was_based_in" if e.kind == "role" and e.end else "based_in"
        st.tell(f"place.{said}", st.read_entity(e, facts), thing=e.label, places=where)
        return True
    return False


def events_in_place(st: State) -> bool:
    """ "has he spoken at an event outside Europe", "talks she gave in Spain": the works of the kind named that
    were held in the place named or anywhere inside it, or (asked "outside") neither there nor inside it, from
    where each was held (queries/events-in-place.rq). No answer when none of that kind is held anywhere."""
    places = [e for e in st.q.entities if e.kind == "place"]
    kind = st.q.kind_of_work
    assert kind is not None
    _, members = class_members(st, kind)
    outside = st.q.has("outside")
    run = st.run("events_in_place", {"place": places[0].iri, "outside": outside})
    rows = [r for r in run.rows if r["work"].value in members]
    if not rows and not outside:
        return False  # the place by the works' own descriptions, or their roles
    label, many = st.engine.class_labels[kind]
    where = "outside" if outside else "in"
    st.plan.route = "events_in_place"
    st.exact = True
    by_work = _by_work(rows)  # a work given several times there: once, with each time
    times = [r["occurrence"].value for r in rows if "occurrence" in r]  # each time, after the works
    st.listed = [*by_work, *times, places[0].iri]
    if not rows:
        st.tell(f"events_in_place.none_{where}", st.read_query(run, "0 rows"), one=label.lower(),
                place=places[0].label)  # fmt: skip
        return True
    said = [_held_all(held, places[0].iri) for held in by_work.values()]
    st.tell(f"events_in_place.held_{where}", st.read_query(run, ", ".join(said)), count=len(by_work),
            one=label.lower(), many=many.lower(), place=places[0].label,
            works=names(said, answer_limit(st)))  # fmt: skip
    if len(by_work) == 1:  # the one held there, in its own words (the event it was given at)
        st.say_account(st.engine.entities[rows[0]["work"].value])
    return True


def _by_work(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows of events-in-place.rq by work, in their order."""
    by_work: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_work.setdefault(r["work"].value, []).append(r)
    return by_work


def _held_all(rows: list[dict[str, Any]], asked: str) -> str:
    """ "Build a Rain Garden in a Day (Antwerp, May 2022; Glasgow, May 2023)": a work and each time it was held."""
    times = [", ".join(_held(r, asked)) for r in rows]
    shown = "; ".join(t for t in times if t)
    return f"{rows[0]['workLabel'].value} ({shown})" if shown else rows[0]["workLabel"].value


def _held(row: dict[str, Any], asked: str) -> list[str]:
    """Where (unless it is the place asked about) and when an event was held."""
    where = [row["placeLabel"].value] if row["place"].value != asked else []
    return where + ([month(row["start"].value)] if "start" in row else [])


def _lived_then(st: State, e: Entity, facts: QueryRun) -> bool:
    """ "Where was she living when she made Widgeteer": a work placed nowhere, by the places of the roles held
    while it was made, in order (when it began, when the question asks that)."""
    began = st.q.has("began")
    # "where does it run", "what is it based on": no place; "where was Widgeteer", nothing more: where it was made
    alone = set(st.q.cue) - st.engine.stopwords <= st.engine.intents.rule_words("where") and not st.q.has("time")
    if not e.start or not (began or st.q.has("made") or alone):
        return False
    end = e.start if began else (e.end or st.q.today.isoformat())
    run = st.run("period_roles", {"start": e.start, "end": end})
    held = [r for r in run.rows if "placeLabel" in r]
    if not held:
        return False
    say = st.engine.sentence
    said = names([say("place.role_in", role=r["roleLabel"].value, place=r["placeLabel"].value) for r in held], 3,
                 say("place.and_then") if not began else "and")  # fmt: skip
    st.plan.route = "place"
    st.exact = True
    st.listed = [e.iri, *dict.fromkeys(r["place"].value for r in held)]
    st.tell("place.when_began" if began else "place.when_made", st.read_entity(e, facts), st.read_query(run, said),
            work=e.display, began=month(e.start), until=month(e.end) if e.end else say("now"), roles=said)  # fmt: skip
    return True


def _venue_of(st: State, e: Entity, facts: QueryRun) -> bool:
    """ "Where did the Widget paper appear", "at which event was the talk given": a work based nowhere is
    answered by its venue, or a talk by its description, which says where it was given."""
    if st.q.has("time"):
        return False  # "where and when was it given": its dates say both
    venue = next((r["value"].value for r in facts.rows if r["property"].value.endswith("#venue")), None)
    if venue is None and not ("Talk" in e.classes and e.description):
        return False
    # the city it was held in, when the venue does not say it ("the gallery of the Nordhavn School, Copenhagen")
    held = next((r["value"] for r in facts.rows if r["property"].value.endswith("#heldIn")), None)
    city = held.label if held is not None and held.label and venue and held.label not in venue else ""
    st.plan.route = "place"
    st.exact = True
    st.listed = [e.iri, *([held.value] if city and held is not None else [])]
    st.tell("place.appeared" if venue else "place.described", st.read_entity(e, facts), thing=e.label, venue=venue,
            description=e.description, city=city)  # fmt: skip
    return True


def _kind_asked(st: State, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Studies for "when did she do her masters", jobs for "her first job"; all roles when neither is said, or
    both with no sequence; jobs for "her first job after university"."""
    study, job = st.q.has("study"), st.q.has("job")
    if study and job and st.q.has("after"):  # the jobs begun once the last studies ended, else every job
        jobs = [r for r in rows if r["education"].value != "true"]
        ended = max((r["roleEnd"].value[:10] for r in rows if r["education"].value == "true" and "roleEnd" in r),
                    default="")  # fmt: skip
        return [r for r in jobs if r["roleStart"].value[:10] >= ended] or jobs or rows
    if study == job:
        return rows
    return [r for r in rows if (r["education"].value == "true") == study] or rows


def _kind_of_work_only(st: State) -> bool:
    """Whether the question names a kind of work that is not a kind of role or study ("talk", not "job")."""
    kind = st.q.kind_of_work
    return kind is not None and kind.rsplit("#", 1)[-1] not in ("Role", "Education")


def career(st: State) -> bool:
    named = {e.iri for e in st.q.entities if e.kind in ("role", "organisation")}
    places = [e for e in st.q.entities if e.kind == "place"]
    works = any(e.kind == "work" for e in st.q.entities)
    asked = (
        st.q.has("career")
        or (named and st.q.has("time"))  # "when was he at Acme"
        # "what was she doing in Madrid", "built in Madrid" (but "what happened at the workshop in Glasgow" asks of
        # the work named)
        or (places and ((st.q.has("doing") and not works) or st.q.has("making")))
        # "when was her visit to Madrid", "how long was she in Madrid": her roles there, with their dates
        or (places and st.q.has("time") and not works and st.q.kind_of_work is None
            and not (st.q.has("moved") and all(_YEAR.search(e.description or "") for e in places)))
        # "when did he move to Scotland": the place's own account says since when, else his first role there
        or (st.q.has("education") and not works)  # "which university did she go to"
        or ((named or places) and st.q.period is None and (st.q.has("before") or st.q.has("after")))  # "the role after
        # Acme", "before Madrid"
        or _after_titled(st, works)  # "what did he do after the research assistant post"
        or (places and st.q.has("outside") and not works)  # "has she ever worked outside Europe"
    )
    if not asked or st.q.has("on_the_side"):  # "what did he do on the side, outside his job": of his works
        return False
    if not named and not places and st.q.kind_of_work is not None and not st.q.has("education"):
        return False  # "client work in Q3 2026" asks for works of a kind, not for the roles of "work in"
    if named and _kind_of_work_only(st) and (not st.q.has("career") or st.q.has("alongside")):
        return False  # "when was the talk about moving Acme's search": the talk's date, not the role at Acme;
        # "hardware projects he had going while employed at Acme": of the works, not the roles
    if "why" in st.q.sections_asked:
        return False  # "why did he step down as organiser": the reason is in the role's article, not its dates
    sequence = st.q.has("before") or st.q.has("after")  # "what came after Acme" is the next role
    if named and not sequence and st.q.relations_asked:
        return False  # "the lab is part of which university": the relation named, not the roles there
    person = st.engine.by_name.get(st.engine.kb.site.person)
    career_params = {"person": person.iri if person else ""}
    if places:
        outside = st.q.has("outside")  # "has she ever worked outside Europe": the roles elsewhere
        if outside and _kind_of_work_only(st):
            return False  # "talks outside the UK": of the talks, which the roles do not say
        run = st.run("outside_roles" if outside else "place_roles", {"place": places[0].iri})
        where = "outside" if outside else "in"
        rows, opening = run.rows, st.engine.sentence(f"roles.{where}", place=places[0].label)
        if rows and not outside and st.q.period is None and (st.q.has("before") or st.q.has("after")):
            here = {r["role"].value for r in rows}  # "where was she before Madrid"
            all_roles = st.run("career", career_params)
            moved = _YEAR.search(places[0].description or "") if st.q.has("moved") and st.q.has("before") \
                and not st.q.has("study") else None  # every study before it, in order: _next_to
            if moved:  # "where was she working before she moved to Lisbon" (her home "since 2023"): the role
                # elsewhere she held last before that year
                move = moved.group()
                left = _kind_asked(st, [r for r in all_roles.rows
                                        if r["role"].value not in here and r["roleStart"].value[:4] < move])
                if left:
                    return _left_for(st, all_roles, max(left, key=lambda r: r["roleEnd"].value if "roleEnd" in r
                                                        else st.q.today.isoformat()), places[0], move)  # fmt: skip
            anchor = sorted((r for r in all_roles.rows if r["role"].value in here), key=lambda r: r["roleStart"].value)
            if anchor:
                return _next_to(st, all_roles, anchor, before=st.q.has("before"))
        if not rows:
            if not outside and (there := _works_there(st, places[0])):  # no role there, but works: a park
                st.plan.route, st.exact, st.listed = "roles", True, there
                return True
            st.tell(f"roles.none_{where}", st.read_query(run, "0 rows"), place=places[0].label)
            _finish(st, run, [])
            return True
    elif named:
        run = st.run("career", career_params)
        rows = [r for r in run.rows if r["role"].value in named or r["organisation"].value in named]
        rows.sort(key=lambda r: r["roleStart"].value)
        first = next(e for e in st.q.entities if e.iri in named)
        opening = "" if first.kind == "role" else st.engine.sentence("roles.at", organisation=first.label)
        if rows and st.q.period is None and (st.q.has("before") or st.q.has("after")):
            return _next_to(st, run, rows, before=st.q.has("before"))
    elif st.q.period is not None:
        start, end = st.q.period.iso()
        run = st.run("period_roles", {"start": start, "end": end})
        span = when(st, st.q.period.start, st.q.period.end)
        opening = span[:1].upper() + span[1:]
        rows = run.rows
    elif st.q.has("now") or st.q.has("first") or st.q.has("count"):
        run = st.run("career", career_params)  # most recent first
        rows = _kind_asked(st, run.rows)
        if st.q.has("count"):
            orgs = {r["organisation"].value for r in rows}
            rows = rows[::-1]
            opening = st.engine.sentence("roles.count", roles=len(rows), organisations=len(orgs))
        elif st.q.has("now"):
            today = st.q.today.isoformat()
            rows = [r for r in rows if "roleEnd" not in r or r["roleEnd"].value >= today]
            opening = st.engine.sentence("roles.now")
        else:
            rows, opening = rows[-1:], st.engine.sentence("roles.first")
    elif st.q.has("country") and not named:  # "which countries has he studied or worked in": the places, by country
        run = st.run("career", career_params)
        return _places(st, run, _kind_asked(st, run.rows), career_params)
    elif st.q.has("time") or (st.q.has("education") and not st.q.has("job")):  # "when did she study", "which uni"
        run = st.run("career", career_params)
        kind = "studies" if st.q.has("study") and not st.q.has("job") else "all"
        rows, opening = run.rows, st.engine.sentence(f"roles.{kind}")
        if sequence and st.q.period is None and (titled := _titled(st, run.rows, best=True)):
            return _next_to(st, run, titled, before=st.q.has("before"))  # "what did he do right after the RA job"
        titled = _titled(st, run.rows)  # "when did he intern": the roles whose title says so
        if titled:
            rows, opening = titled, st.engine.sentence("roles.titled", count=len(titled))
    elif st.q.has("where") and not named:  # "where has she lived", "which cities has he worked in"
        run = st.run("career", career_params)  # "where did he intern": the roles whose title says so, if any
        return _places(st, run, _titled(st, run.rows) or _kind_asked(st, run.rows), career_params)
    else:
        run = st.run("career", career_params)
        if sequence and st.q.period is None and (titled := _titled(st, run.rows, best=True)):
            return _next_to(st, run, titled, before=st.q.has("before"))  # "what did she do before the staff job"
        rows = _titled(st, run.rows)  # "did he ever do an internship": the roles whose title says so
        if not rows and st.q.has("job") and not st.q.has("study") and not works:  # "which companies has she worked for"
            rows = [r for r in run.rows if r["education"].value != "true"]
            opening = st.engine.sentence("roles.jobs")
        elif not rows:
            st.plan.sparql.pop()  # read for nothing: the authored career answer and the canned route take the rest
            return False
        else:
            opening = st.engine.sentence("roles.titled", count=len(rows))
    rows = _kind_asked(st, rows)
    if not rows:
        return False
    if st.q.has("lives") and not named and not places and (st.q.period is not None or st.q.has("now")):
        # "which city did she live in from 2019 to 2021", "where is he based these days": the places
        return _places(st, run, rows, career_params)
    held = [role_text(st, r) for r in rows]
    ref = st.read_query(run, "; ".join(held))
    st.tell("roles.roles" if opening else "roles.roles_only", ref, opening=opening, roles="; ".join(held))
    _finish(st, run, rows, what_came=bool(places) and len(rows) == 1 and st.q.has("doing") and not sequence)
    if places and not st.q.has("outside") and st.q.has("still") and not sequence and not st.q.has("making"):
        _now_elsewhere(st, rows, career_params)
    if places and not any(st.q.has(c) for c in ("outside", "time", "job")):  # "what did she do in Copenhagen":
        # the works there too (not for "which company did she work for in Berlin")
        st.listed = list(dict.fromkeys(st.listed + _works_there(st, places[0])))
    return True


def _now_elsewhere(st: State, rows: list[dict[str, Any]], person: dict[str, str]) -> None:
    """ "Is she still living in the Netherlands": when every role held in the place has ended, the roles held
    now, wherever they are."""
    today = st.q.today.isoformat()
    if any("roleEnd" not in r or r["roleEnd"].value >= today for r in rows):
        return
    run = st.run("career", person)
    now = [r for r in run.rows if "roleEnd" not in r or r["roleEnd"].value >= today]
    if not now:
        st.plan.sparql.pop()  # read for nothing
        return
    held = [role_text(st, r) for r in now]
    st.tell("roles.now_elsewhere", st.read_query(run, "; ".join(held)), roles="; ".join(held))
    places = [r["place"].value for r in now if "place" in r]  # where the person is now, then what they hold there
    st.listed = list(dict.fromkeys([*st.listed, *places, *(i for r in now for i in (r["role"].value,
                                                                                    r["organisation"].value))]))


def _works_there(st: State, place: Entity) -> list[str]:
    """Say the works held or located in a place or inside it, each with where and when ("Zuidoever Tidal Park
    (Rotterdam, April 2017)"); their IRIs, or nothing said and [] when there are none."""
    params = {"place": place.iri, "outside": False}
    by_work = _by_work(st.peek("events_in_place", params).rows)
    if by_work:
        run = st.run("events_in_place", params)  # the same run, kept in the plan now that it is read
        said = [_held_all(held, place.iri) for held in by_work.values()]
        st.tell("roles.works_there", st.read_query(run, ", ".join(said)), place=place.label, count=len(by_work),
                works=names(said, answer_limit(st)))  # fmt: skip
    return list(by_work)


def _places(st: State, run: QueryRun, rows: list[dict[str, Any]], person: dict[str, str]) -> bool:
    """The places of the roles, earliest first, each with the years spent there and the roles held."""
    spans: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: r["roleStart"].value):
        if "placeLabel" in r:
            spans.setdefault(r["placeLabel"].value, []).append(r)
    if not spans:
        return False
    within = st.run("role_places", person)
    larger: dict[str, list[str]] = {}  # a city's region, country, continent: the nearest first (query order)
    for r in within.rows:
        if "withinLabel" in r:
            larger.setdefault(r["placeLabel"].value, []).append(r["withinLabel"].value)
    said = []
    for place, held in spans.items():
        first = min(r["roleStart"].value[:4] for r in held)
        last = st.engine.sentence("now") if any("roleEnd" not in r for r in held) else max(
            r["roleEnd"].value[:4] for r in held)  # fmt: skip
        years = first if first == last else f"{first}–{last}"
        around = ", ".join(larger.get(place, []))
        said.append(st.engine.sentence("roles.place_within" if around else "roles.place", place=place, within=around,
                                       years=years, roles=names([r["roleLabel"].value for r in held], 3)))
    st.tell("roles.places", st.read_query(run, "; ".join(said)), places="; ".join(said))
    st.read_query(within, ", ".join(f"{p}: {', '.join(ws)}" for p, ws in larger.items()))
    _finish(st, run, [r for held in spans.values() for r in held])
    st.listed = [*dict.fromkeys(r["place"].value for held in spans.values() for r in held if "place" in r),
                 *st.listed]  # fmt: skip
    if st.q.has("country"):  # "which countries has he worked in": of each place, the one just inside the largest
        chains: dict[str, list[str]] = {}
        for r in within.rows:
            if "within" in r and r["placeLabel"].value in spans:  # of the places said, not of every role
                chains.setdefault(r["place"].value, []).append(r["within"].value)
        countries = [c[-2] if len(c) > 1 else c[0] for c in chains.values()]
        st.listed = [*dict.fromkeys(countries), *st.listed]
    return True


def _next_to(st: State, run: QueryRun, named: list[dict[str, Any]], *, before: bool) -> bool:
    """The role just before the one named (the latest to end by its start, else the latest to start before it),
    or just after it (the first to start once it ended; for a role still held, the first to start after it)."""
    slack = timedelta(days=int(st.engine.weights["dates"]["adjacent_role_days"]))  # a role ending just before
    own = {r["role"].value for r in named}
    every = [r for r in run.rows if r["role"].value not in own]
    others = _kind_asked(st, every)

    def day(r: dict[str, Any], key: str) -> date:
        return date.fromisoformat(r[key].value[:10]) if key in r else st.q.today

    def next_of(rows: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        if before:
            ended = [r for r in rows if "roleEnd" in r and day(r, "roleEnd") <= start + slack]
            started = [r for r in rows if day(r, "roleStart") < start]
            return max(ended, key=lambda r: (day(r, "roleEnd"), r["roleStart"].value), default=None) or max(
                started, key=lambda r: r["roleStart"].value, default=None), started  # fmt: skip
        after = [r for r in rows if day(r, "roleStart") >= day(anchor, "roleEnd") - slack] if "roleEnd" in anchor \
            else [r for r in rows if day(r, "roleStart") > start]  # fmt: skip
        return min(after, key=lambda r: r["roleStart"].value, default=None), after

    anchor = (min if before else max)(named, key=lambda r: r["roleStart"].value)
    start = day(anchor, "roleStart")
    pick, started = next_of(others)
    if pick is None and len(others) < len(every) and (nearest := next_of(every)[0]) is not None:
        # "did she do a PhD after the master": no later studies, but what came next all the same
        kind = "studies" if st.q.has("study") else "jobs"
        held = role_text(st, nearest)
        st.tell(f"roles.no_{kind}_{'before' if before else 'after'}", st.read_query(run, held),
                role=anchor["roleLabel"].value, held=held)  # fmt: skip
        _finish(st, run, [nearest])
        st.subject = nearest["role"].value
        return True
    if pick is None:
        text = st.engine.sentence("roles.no_earlier" if before else "roles.no_later", role=anchor["roleLabel"].value)
        st.say(text, st.read_query(run, text))
        _finish(st, run, [anchor])
        return True
    picks = [pick]
    if before and st.q.has("study") and not st.q.has("job"):  # "what did she study before she moved to
        picks = sorted(started, key=lambda r: r["roleStart"].value)  # Rotterdam": every study before it, in order
    held = "; ".join(role_text(st, r) for r in picks)
    st.tell("roles.before" if before else "roles.after", st.read_query(run, held), role=anchor["roleLabel"].value,
            held=held)  # fmt: skip
    _finish(st, run, picks)
    if len(picks) == 1:
        st.subject = pick["role"].value  # a follow-up ("when was that?") is about the role found
    return True


def _left_for(st: State, run: QueryRun, row: dict[str, Any], place: Entity, year: str) -> bool:
    """The role held last before the person moved to a place in the year its account gives."""
    held = role_text(st, row)
    st.tell("roles.before_move", st.read_query(run, held), place=place.label, year=year, held=held)
    _finish(st, run, [row])
    st.subject = row["role"].value
    return True


def _after_titled(st: State, works: bool) -> bool:
    """Whether the question asks for the role before or after one it names by its title ("what did he do after
    the research assistant post"), not for what was made then ("what did she build after ...")."""
    if works or st.q.period is not None or not (st.q.has("before") or st.q.has("after")) or st.q.has("making"):
        return False
    if st.q.kind_of_work is not None:
        return False
    person = st.engine.by_name.get(st.engine.kb.site.person)
    # the career, read to decide (not kept: the branch runs and shows the same query when it answers)
    roles = st.peek("career", {"person": person.iri if person else ""})
    return bool(_titled(st, roles.rows, best=True))


def _titled(st: State, rows: list[dict[str, Any]], *, best: bool = False) -> list[dict[str, Any]]:
    """The roles whose title (its label without the organisation's name) shares a word with the question:
    the same stem, or, for longer words, the same first five letters ("organise" and "co-organiser"); with
    `best`, only those sharing the most ("staff engineer": not the software engineer)."""
    asked = [t for t in st.q.terms if t not in st.engine.generic and len(t) >= 4]
    shared: list[tuple[int, dict[str, Any]]] = []
    for r in rows:
        own = set(terms(r["organisationLabel"].value))
        title = [t for t in terms(r["roleLabel"].value) if t not in own and len(t) >= 4]
        n = sum(any(a == t or (len(a) >= 5 and len(t) >= 5 and a[:5] == t[:5]) for t in title) for a in asked)
        if n:
            shared.append((n, r))
    if shared:
        most = max(n for n, _ in shared)
        return [r for n, r in shared if n == most or not best]
    # "when did she do her undergraduate degree": the role whose graph description holds a word asked, a word no
    # other role's description holds
    # the words of the roles, organisations and places named; a theme named is what is asked of a role ("which
    # hearing aid company did he work for": the role whose description speaks of hearing aids)
    ents = st.engine.entities
    unasked = st.engine.generic | st.engine.stopwords | {
        t for m in st.q.linked.mentions for t in terms(m.text)
        if not all((e := ents.get(i)) is not None and e.kind in ("theme", "technique") for i in m.iris)}
    said = {r["role"].value: set(terms(e.description)) for r in rows
            if (e := st.engine.entities.get(r["role"].value)) is not None}  # fmt: skip
    for a in asked:
        if a in unasked:
            continue
        holding = [r for r in rows if a in said.get(r["role"].value, set())]
        if len(holding) == 1:
            return holding
    return []


def _finish(st: State, run: QueryRun, rows: list[dict[str, Any]], *, what_came: bool = False) -> None:
    """Say the roles' works too when the question asks what was made, or `what_came` ("what did she do in
    Japan": the one role there, and what came of it)."""
    st.plan.route = "roles"
    st.exact = True
    held = list(dict.fromkeys(i for r in rows for i in (r["role"].value, r["organisation"].value)))
    works: list[str] = []
    career_words = {w for p in st.engine.intents.rules["career"].mentions for w in p}
    # "projects from when she lived in Madrid", "what did he build in Madrid": the works made in those roles
    if what_came or st.q.has("making") or any((w,) in st.engine.classes and w not in career_words for w in st.q.cue):
        for r in rows:
            made = st.run("made_during_role", {"role": r["role"].value})
            found = [row["work"].value for row in made.rows]
            if found:
                works += found
                st.tell("roles.made", st.read_query(made, ", ".join(labels(st, found[:10]))),
                        role=r["roleLabel"].value, count=len(found), works=names(labels(st, found), answer_limit(st)))
    # the works made in the roles first, unless the roles are what is counted ("how many works came out of it")
    # (the roles first when what they did is asked, not what was made)
    roles_first = st.q.has("count") or (what_came and not st.q.has("making"))
    st.listed = list(dict.fromkeys((held + works) if roles_first else (works + held))) if works else held
    if 0 < len(works) <= 2 and st.q.has("making") and not st.q.has("count"):
        for i in works:  # "stuff he built during his master's": the few works made, as the graph describes each
            if (e := st.engine.entities.get(i)) is not None:
                st.say_account(e)
    if len(rows) == 1 and (not works or what_came):  # one role: what it was, in the graph's words ("article
        # search, ranking")
        _title_asked(st, rows[0]["role"].value)
        say_role(st, st.engine.entities.get(rows[0]["role"].value))
        _work_asked(st, rows[0]["role"].value)


def _title_asked(st: State, role: str) -> None:
    """ "What was her job title at Acme": the one role's own title (pf:roleTitle, named by its label in the
    ontology), when the graph gives one."""
    if PF + "roleTitle" not in st.q.facts_asked:
        return
    facts = st.run("facts", {"entity": role})
    title = next((r["value"].value for r in facts.rows if r["property"].value == PF + "roleTitle"), None)
    if title is None:
        st.plan.sparql.pop()  # read for nothing
        return
    st.tell("roles.title", st.read_query(facts, title), title=title)


def _work_asked(st: State, role: str) -> None:
    """ "What was her undergrad dissertation": of the works made in the one role answered, the one one of whose
    names (its "BSc dissertation" alternative label) holds every word the question asks beyond the career,
    first and in its own words."""
    asked = set(st.q.ask)
    if not asked:
        return
    made = st.run("made_during_role", {"role": role})
    ents = st.engine.entities
    for row in made.rows:
        e = ents.get(row["work"].value)
        if e is not None and asked <= st.engine.linker.naming.get(e.iri, set()):
            st.listed.insert(0, e.iri)
            st.say_account(e)
            return
    st.plan.sparql.pop()  # read for nothing
