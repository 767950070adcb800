"""Questions with one answer each (language/answers.yaml): an answer the owner wrote, else the one the graph
makes. Who the person is, where they are based, what they studied and how to reach them are made from the
person's description, roles, places and contact when the owner wrote no text; recent work, key works,
career and skills always come from their stored queries. Each sentence cites what it was read from.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from service.engine.career import role_text
from service.engine.catalog import Entity
from service.engine.routes import answer_limit, column_iris, labels, month, names
from service.engine.state import State
from service.queries import QueryRun
from service.text import stem, terms


def _person(st: State) -> tuple[str, QueryRun] | None:
    person = st.engine.by_name.get(st.engine.kb.site.person)
    if person is None:
        return None
    return person.iri, st.run("person", {"person": person.iri})


def _place(rows: list[dict[str, Any]]) -> str:
    """ "Glasgow, Scotland": where the person is based, with the places that directly contain it."""
    if not rows or "placeLabel" not in rows[0]:
        return ""
    place = rows[0]["placeLabel"].value
    within = list(dict.fromkeys(r["withinLabel"].value for r in rows if "withinLabel" in r))
    return ", ".join([place, *within[:2]])


def _current(st: State) -> tuple[QueryRun, list[dict[str, Any]]]:
    person = st.engine.by_name.get(st.engine.kb.site.person)
    run = st.run("career", {"person": person.iri if person else ""})
    today = st.q.today.isoformat()
    return run, [r for r in run.rows if "roleEnd" not in r or r["roleEnd"].value >= today]


def who(st: State, iri: str, run: QueryRun) -> bool:
    """Who the person is: their description, their current roles, where they are based, their key works."""
    e = st.engine.entities[iri]
    v = st.voice
    rows = run.rows
    description = rows[0]["description"].value if rows and "description" in rows[0] else ""
    ref = st.read_entity(e, st.run("facts", {"entity": iri}))
    st.listed = [iri]
    if description:
        named = v.short.lower() in description.lower() or v.name.lower() in description.lower()
        if named:
            st.say(description, ref)
        else:
            st.tell("about.named", ref, description=description)
    roles_run, now = _current(st)
    jobs = [r for r in now if r["education"].value != "true"] or now
    if jobs:
        held = "; ".join(role_text(st, r) for r in jobs)
        st.tell("about.now" if description else "about.is_now", st.read_query(roles_run, held), roles=held)
        st.listed += [r["role"].value for r in jobs]
    where = _place(rows)
    if where:
        st.tell("about.based", st.read_query(run, where), place=where)
    keys = st.run("key_works")
    works = column_iris(keys, "work")
    if works:
        shown = names(labels(st, works), answer_limit(st))
        st.tell("about.key_works", st.read_query(keys, shown), works=shown)
        st.listed += works
    if not st.draft.sentences:
        return False
    st.plan.route = "about"
    return True


def based(st: State, iri: str, run: QueryRun) -> bool:
    where = _place(run.rows)
    st.listed = [iri]
    if where:
        st.listed.append(run.rows[0]["place"].value)
        st.tell("about.based_short", st.read_query(run, where), place=where)
    else:  # no place of the person's own: where the current role is
        roles_run, now = _current(st)
        placed = [r for r in now if "placeLabel" in r]
        if not placed:
            return False
        held = [role_text(st, r) for r in placed]
        ref = st.read_query(roles_run, "; ".join(held))
        st.tell("about.role_based", ref, roles="; ".join(held))
        st.listed.append(placed[0]["place"].value)
    st.plan.route = "about"
    return True


def education(st: State, iri: str, _person_run: QueryRun) -> bool:
    run = st.run("career", {"person": iri})
    rows = sorted((r for r in run.rows if r["education"].value == "true"), key=lambda r: r["roleStart"].value)
    if not rows:
        return False
    held = [role_text(st, r) for r in rows]
    st.tell("about.studied", st.read_query(run, "; ".join(held)), roles="; ".join(held))
    st.listed = list(dict.fromkeys(i for r in rows for i in (r["role"].value, r["organisation"].value)))
    st.plan.route = "about"
    return True


def contact(st: State, iri: str, run: QueryRun) -> bool:
    engine = st.engine
    ref = st.read_entity(engine.entities[iri], st.run("facts", {"entity": iri}))
    st.say(engine.say("contact"), ref)
    urls = list(dict.fromkeys(r["contact"].value for r in run.rows if "contact" in r))
    if urls:
        st.say(engine.say("contact_url", url=urls[0]), st.read_query(run, urls[0]))
    roles_run, now = _current(st)
    jobs = [r for r in now if r["education"].value != "true"]
    if jobs:
        held = names([role_text(st, r) for r in jobs], 3)
        st.tell("contact.now", st.read_query(roles_run, held), roles=held)
    st.listed = [iri]
    st.plan.route = "contact"
    return True


ROUTES: dict[str, Callable[[State, str, QueryRun], bool]] = {
    "person": who, "based": based, "education": education, "contact": contact
}


def person_named(st: State) -> bool:
    """ "tell me about Ada Example": the person, named with nothing else asked, gets the "who" answer."""
    if _asks_more(st, st.q.entities[0]):
        return False
    return authored(st, "who")


def authored_answer(st: State) -> bool:
    """The answer to a question with one answer (answers.yaml): the owner's text, else the graph's."""
    assert st.q.authored_key is not None
    return authored(st, st.q.authored_key)


def answer_of_route(st: State) -> bool:
    """The answer of the answers.yaml item the way's route makes, as for a question with one answer: what the
    meaning model's route choice runs for a route with no ways of its own ("what software does she use for her
    drawings", nearest the skills route's "what software does he use")."""
    item = next((a for a in st.engine.authored if st.way is not None and a.route == st.way.route), None)
    return item is not None and authored(st, item.key)


def contact_or_recent(st: State) -> bool:
    """A contact or a recent-work question that is no authored phrase: the answer of that key."""
    return authored(st, st.q.kind)


def _asks_more(st: State, person: Entity) -> list[str]:
    """The words of a question naming the person that ask for something their own account does not hold:
    "Ada's favourite food", "what does Ada think of the new phone" are no question about who Ada is."""
    item = next((a for a in st.engine.authored if a.key == "who"), None)
    told = set(terms(f"{person.description} {item.text if item is not None else ''}"))
    accounted = st.engine.accounted
    asked = [stem(w) for w in st.q.cue if w not in accounted and stem(w) not in accounted]
    return [s for s in asked if not any(t.startswith(s) for t in told)]  # "independent" in "independently"


def authored(st: State, key: str) -> bool:
    """The answer to a question of `key` (who, based, contact, recent, ...): the owner's text when there is one,
    else the graph route's. No item or no answer is no answer: the next branch is tried."""
    item = next((a for a in st.engine.authored if a.key == key), None)
    if item is None:
        return False
    st.exact = True
    if not item.text:
        made = ROUTES.get(item.route or "")
        if made is None:
            return canned_route(st, item.route or "")
        found = _person(st)
        return found is not None and made(st, *found)
    st.plan.route = "about" if item.group == "about" else item.key
    refs = []
    for name in item.cite or [st.engine.kb.site.person]:  # no `cite`: the person, whose facts fill the text
        e = st.engine.by_name.get(name)
        if e is not None:
            refs.append(st.read_entity(e, st.run("facts", {"entity": e.iri})))
            st.listed.append(e.iri)
    text = st.voice.say(item.text) if "{" in item.text else item.text
    st.say(text.strip(), *refs)
    return True


def _recent(st: State) -> None:
    since = (st.q.today - timedelta(days=365)).isoformat()
    run = st.run("recent", {"since": since, "today": st.q.today.isoformat()})
    st.listed = column_iris(run, "work")
    ref = st.read_query(run, ", ".join(labels(st, st.listed)))
    if st.listed:
        st.tell("recent.works", ref, works=names(labels(st, st.listed), answer_limit(st)))
    else:
        st.tell("recent.none", ref)
    # the last dated activity (a work still going is active today, which says nothing of when)
    latest = next((r["last"].value[:7] for r in run.rows if r["ongoing"].value != "true"), "")
    if latest:
        st.tell("recent.latest", ref, month=latest)
    _roles_now(st)


def _key_works(st: State) -> None:
    run = st.run("key_works")
    st.listed = column_iris(run, "work")
    ref = st.read_query(run, ", ".join(labels(st, st.listed)))
    st.tell("key_works.works", ref, works=names(labels(st, st.listed), 12))


def _career(st: State) -> None:
    person = st.engine.by_name.get(st.engine.kb.site.person)
    run = st.run("career", {"person": person.iri if person else ""})
    st.listed = column_iris(run, "role")
    ref = st.read_query(run, "; ".join(r["role"].label or "" for r in run.rows))
    now = st.engine.sentence("now")
    steps = [st.engine.sentence("career.role", role=r["role"].label, start=r["roleStart"].value[:4],
                                end=r["roleEnd"].value[:4] if "roleEnd" in r else now) for r in run.rows]
    st.tell("career.roles", ref, roles="; ".join(steps))


def _skills(st: State) -> None:
    run = st.run("skills")
    st.listed = column_iris(run, "skill")
    ref = st.read_query(run, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in run.rows))
    st.tell("skills.skills", ref, skills=names([f"{r['skill'].label} ({r['works'].value})" for r in run.rows], 10))


# the graph routes of the questions with one answer (answers.yaml `route:`) that are answered from a query alone
CANNED: dict[str, Callable[[State], None]] = {"recent": _recent, "key_works": _key_works, "career": _career,
                                              "skills": _skills}


def canned_route(st: State, route: str) -> bool:
    made = CANNED.get(route)
    if made is None:
        return False
    st.plan.route = route
    made(st)
    return True


def _roles_now(st: State) -> None:
    """ "What is she doing now": the roles held today, jobs first."""
    run, now = _current(st)
    now.sort(key=lambda r: r["education"].value == "true")
    if not now:
        st.plan.sparql.pop()
        return
    held = [st.engine.sentence("recent.since", role=r["role"].label, month=month(r["roleStart"].value)) for r in now]
    st.tell("recent.roles_now", st.read_query(run, "; ".join(held)), roles=names(held, 4))
    roles = [r["role"].value for r in now]
    # "what is she doing now" asks for the roles first; "what is she working on" for the works
    st.listed = [*roles, *st.listed] if st.q.has("doing_now") else [*st.listed, *roles]
