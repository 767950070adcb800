"""Graph-list branches: the pivot, comparisons, counts, periods, kinds of work, works with all, a concept's works."""

from __future__ import annotations

from datetime import date

from service.engine.catalog import CONCEPTS
from service.engine.link import Mention
from service.engine.retrieve import best_passage_for
from service.engine.routes import (
    VERB,
    answer_limit,
    class_members,
    column_iris,
    cued_section,
    dated_labels,
    during_role,
    key_first,
    labels,
    month,
    months_spanned,
    names,
    plural,
    say_in_order,
    say_ordinal,
    when,
)
from service.engine.state import State
from service.engine.texts import described_among
from service.text import terms
from service.vocab import PF

WORK = f"{PF}Work"  # every work: the class "list her projects" asks for


def pivot(st: State) -> bool:
    """A technology the graph lacks: say the graph lists no such work, and show what is used instead."""
    absent = st.q.absent  # not inside a period, nor where a name of the graph is
    if not absent.entities:  # a name in no lexicon, asked as a technology ("has she used Qdrant for search")
        unknown = _unknown_technology(st)
        return unknown is not None and _pivot_unknown(st, unknown)
    spans = [(m.start, m.end) for m in absent.mentions]
    # a skill linked inside an absent name ("js" in "Vue.js") is part of that name, not a skill she uses
    outside = [m for m in st.q.linked.mentions if not any(a <= m.start and m.end <= b for a, b in spans)]
    if any(st.engine.entities[i].kind == "skill" for m in outside for i in m.iris
           if len(m.iris) == 1 and i in st.engine.entities):  # fmt: skip
        return False
    found = sorted(absent.entities, key=lambda label: not st.engine.absent[label].listed)  # the owner's first
    if not found:
        return False
    if not st.engine.absent[found[0]].listed and _only_context(st, absent.mentions):
        return False
    absent = st.engine.absent[found[0]]
    category = st.engine.pf(absent.category)
    _, many = st.engine.category_label(category)
    evidence = st.run("absent_evidence", {"name": absent.label})
    skills = st.run("category_skills", {"category": category})
    works = st.run("category_works", {"category": category})
    used = [r for r in skills.rows if int(r["works"].value) > 0][:3]
    all_works = column_iris(works, "work")
    keys = [i for i in all_works if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
    st.listed = keys or all_works
    st.plan.route = "pivot"
    st.exact = True
    st.say(
        f"The graph lists no {absent.label} work: no work uses a skill named {absent.label}.",
        st.read_query(evidence, f"{len(evidence.rows)} rows"),
    )
    named = [st.engine.entities[i] for m in outside for i in m.iris[:1] if i in st.engine.entities]
    for w in [e for e in named if e.kind == "work"][:1]:  # "is Widget's front end written in React": its stack
        stack = st.run("stack", {"work": w.iri})
        built = [str(r["skill"].label) for r in stack.rows]
        if built:
            st.say(f"{w.display} is built with {names(built, 8)}.", st.read_query(stack, ", ".join(built)))
    if used:
        counts = names([r["works"].value for r in used], 3)
        unit = "work" if len(used) == 1 and used[0]["works"].value == "1" else "works"
        st.say(
            f"The {many} {st.voice.short} uses most are {names([r['skill'].label or '' for r in used], 3)} "
            f"({counts} {unit}{' respectively' if len(used) > 1 else ''}).",
            st.read_query(skills, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used)),
        )
    if st.listed:
        lead = "Key work in them" if keys else "Work in them"
        st.say(
            f"{lead}: {names(labels(st, st.listed), 4)}.",
            st.read_query(works, ", ".join(labels(st, st.listed[:8]))),
        )
    return True


def _unknown_technology(st: State) -> str | None:
    """A name in no lexicon asked as a technology of the person's work ("has she used Qdrant", "any Gleam
    code"): a run of at most three words the site never uses, in a question with a technology cue
    (intents.yaml technology) and no work, role or organisation named. The words as the visitor wrote them."""
    if not st.q.has("technology") or any(e.kind in ("work", "role", "organisation") for e in st.q.entities):
        return None
    linked = [(m.start, m.end) for m in st.q.linked.mentions]
    run: list[tuple[int, int]] = []
    for t in st.q.tokens:
        inside = any(a <= t.start < b for a, b in linked)
        if not inside and len(t.word) >= 4 and not t.word.isdigit() and st.q.unknown_words([t.word]):
            if run and t.start - run[-1][1] > 1:
                break  # one run only
            run.append((t.start, t.end))
        elif run:
            break
    if not run or len(run) > 3:
        return None
    return st.q.span_text(run[0][0], run[-1][1])


def _pivot_unknown(st: State, name: str) -> bool:
    """The pivot for a technology no lexicon names: no work uses it; the skills used most, and the key works."""
    evidence = st.run("absent_evidence", {"name": name})
    if evidence.rows:
        return False
    skills = st.run("skills")
    keys = st.run("key_works")
    st.plan.route = "pivot"
    st.exact = True
    st.listed = column_iris(keys, "work")
    st.say(f"The graph lists no {name} work: no work uses a skill named {name}.",
           st.read_query(evidence, f"{len(evidence.rows)} rows"))  # fmt: skip
    used = skills.rows[:3]
    if used:
        read = ", ".join(f"{r['skillLabel'].value}: {r['works'].value}" for r in used)
        st.say(f"The skills {st.voice.short} uses most are {names([r['skillLabel'].value for r in used], 3)} "
               f"({names([r['works'].value for r in used], 3)} works respectively).", st.read_query(skills, read))
    if st.listed:
        key = labels(st, st.listed)
        st.say(f"Key work: {names(key, 4)}.", st.read_query(keys, ", ".join(key[:8])))
    return True


def _only_context(st: State, mentions: list[Mention]) -> bool:
    """A technology of the engine's catalogue (not one the owner listed) that the question only mentions as
    context: beside a named work, role or organisation ("is widgeteer-py on PyPI", "how does the route planner
    cope with noisy GPS"), or beside words the site never uses ("how tall is the Eiffel tower")."""
    if any(e.kind in ("role", "organisation") for e in st.q.entities):
        return True
    if any(e.kind == "work" for e in st.q.entities):  # "is Widget's front end written in React" asks of it
        return not (st.q.kind == "stack" or st.q.has("technology"))
    spans = [(m.start, m.end) for m in mentions]
    rest = st.q.words_outside(spans)
    return bool(st.q.unknown_words(rest)) and not st.q.has("technology")  # "deployed on Kubernetes" asks of it


def comparison(st: State) -> bool:
    ents = st.q.entities
    groups = {"work": "work", "skill": "skill", "technique": "skill", "place": "place", "organisation": "place"}
    a, b = ents[0], ents[1]
    if groups.get(a.kind) != groups.get(b.kind) or groups.get(a.kind) is None:
        return False
    run = st.run("compare", {"first": a.iri, "second": b.iri})
    sides: dict[str, dict[str, list[str]]] = {"both": {}, "first": {}, "second": {}}
    for row in run.rows:
        prop = row["propertyLabel"].value
        if row["direction"].value == "in":
            prop = "based here" if row["property"].value.endswith("basedIn") else "places in it"
        value = row["value"].label or row["value"].value
        sides[row["side"].value].setdefault(prop, []).append(value)
    ref = st.read_query(run, f"{len(run.rows)} facts")

    def describe(facts: dict[str, list[str]]) -> str:
        skip = {"tier", "start date", "end date"}
        return "; ".join(f"{p} {names(v, 5)}" for p, v in sorted(facts.items()) if p not in skip)

    st.plan.route = "comparison"
    st.exact = True
    st.listed = [a.iri, b.iri]
    if sides["both"]:
        st.say(f"{a.display} and {b.display} share: {describe(sides['both']) or 'their tier and dates'}.", ref)
    else:
        st.say(f"{a.display} and {b.display} share no facts in the graph.", ref)
    for e, side in ((a, "first"), (b, "second")):
        if describe(sides[side]):
            st.say(f"Only {e.display}: {describe(sides[side])}.", ref)
    if a.start and b.start and a.kind == b.kind == "work":  # which came first
        first, second = sorted((a, b), key=lambda e: e.start or "")
        st.say(f"{first.display} began in {month(first.start or '')}, {second.display} in "
               f"{month(second.start or '')}: {first.display} came first.", ref)  # fmt: skip
        if a.end and b.end:  # which took longer
            spans = {e.iri: months_spanned(e.start or "", e.end or "") for e in (a, b)}
            longer = max((a, b), key=lambda e: spans[e.iri])
            ran = " and ".join(f"{e.display} {plural(spans[e.iri], 'month', 'months')} ({month(e.start or '')} to "
                               f"{month(e.end or '')})" for e in (a, b))  # fmt: skip
            verdict = "the same time" if spans[a.iri] == spans[b.iri] else f"{longer.display} took longer"
            st.say(f"They ran {ran}: {verdict}.", ref)
    for e in (a, b):  # what each one is, in its owner's words: the difference a reader asks for is often there
        if e.kind == "work" and e.description:
            ref = st.read_entity(e, st.run("facts", {"entity": e.iri}))
            st.say(f"{e.display}: {_first_sentence(e.description)}", ref)
    return True



def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def count(st: State) -> bool:
    ents = st.q.entities
    if ents and all(e.kind in CONCEPTS for e in ents):
        e = ents[0]
        run = st.run("count", {"concept": e.iri})
        n = int(run.rows[0]["works"].value) if run.rows else 0
        st.plan.route = "count"
        st.exact = True
        candidate = st.engine.routes["candidates"].get(e.kind)
        if candidate:  # the thing counted, then what was counted
            listing = st.run(candidate["query"], {candidate["param"]: e.iri})
            st.listed = [e.iri, *column_iris(listing, "work")]
        verb = VERB.get(e.kind, "use")
        st.say(f"{plural(n, 'work', 'works')} {verb + 's' if n == 1 else verb} {e.display}.",
               st.read_query(run, str(n)))  # fmt: skip
        return True
    if all(e.kind == "person" for e in ents):  # "how many games has Ada made": the person is the subject
        found = st.q.class_named
        if found:
            return class_list(st, found, counting=True)
    return False


def ongoing(st: State) -> bool:
    """ "which of his projects are still active": the works begun with no end date (of the kind named, if any)."""
    run = st.run("ongoing")
    iris, (one, many) = _of_kind_named(st, column_iris(run, "work"))
    st.listed = iris
    st.plan.route = "ongoing"
    st.exact = True
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    if not iris:
        st.say(f"The graph records no {one} still going: every one has an end date.", ref)
        return True
    st.say(f"{plural(len(iris), one, many)} still going (begun, with no end date), key work first: "
           f"{names(dated_labels(st, iris, 'since '), answer_limit(st))}.", ref)
    return True


def _of_kind_named(st: State, iris: list[str]) -> tuple[list[str], tuple[str, str]]:
    """Of these works, those of the kind of work the question names ("talks in 2022"), with the kind's names in
    lower case; all of them, as works, when it names none."""
    kind = st.q.kind_of_work
    if kind is None:
        return iris, ("work", "works")
    members, of_kind = class_members(st, kind)
    iris = [i for i in iris if i in of_kind]
    st.read_query(members, ", ".join(labels(st, iris[:10])))
    label, many = st.engine.class_labels[kind]
    return iris, (label.lower(), many.lower())


def role_named(st: State) -> bool:
    """ "what did she build at Acme": the works made during the role named (of the kind named: none when none of
    them is of that kind, so that a later way may find those described there)."""
    assert st.q.role is not None
    return during_role(st, st.q.role, of_kind_only=True)


def period(st: State) -> bool:
    """ "what did she build in Q3 2025": the works active (begun, finished) in the period, of the kind named,
    narrowed by what the graph says of them when the question describes them; the roles held then."""
    assert st.q.period is not None
    outside = st.q.words_without(st.q.period.text)
    if not st.q.about_her and any(w not in st.engine.accounted for w in outside):
        return False  # "who won the world cup in 2018?" names a year, not her work
    start, end = st.q.period.iso()
    works = st.run("period", {"start": start, "end": end})
    roles = st.run("period_roles", {"start": start, "end": end})
    iris, (one, many) = _of_kind_named(st, column_iris(works, "work"))  # "talks in 2022"
    one, many = f"{one} was", f"{many} were"
    state = "active"
    for rule, field_name in (("began", "start"), ("ended", "end")):  # "what did he start in Q1 2020"
        if st.q.has(rule):
            iris = [i for i in iris if _dated_in(st, i, field_name, start, end)]
            state = "started" if rule == "began" else "finished"
            break
    common = st.engine.common_english  # "over the last 12 months" narrows nothing; "client projects" does
    asked = tuple(w for w in st.q.ask if st.engine.speller.english(w) < common)
    narrowed = [w.iri for w in described_among(st, iris, asked)] if asked and iris else []
    every = tuple(st.q.ask)
    if not narrowed and iris and len(every) > 1 and every != asked:  # "over a single weekend in January 2021":
        narrowed = [w.iri for w in described_among(st, iris, every)]  # common words, but more than one, told
        narrowed = narrowed if len(narrowed) < len(iris) else []
    if narrowed:  # "client projects in Q3 2025": the works of the period whose graph description says so
        iris = narrowed
        one, many = f"{one.split()[0]} so described was", f"{many.split()[0]} so described were"
    st.listed = iris
    st.plan.route = "works_in_period"
    st.exact = True
    span = when(st.q.period.start, st.q.period.end)
    short = (st.q.period.end - st.q.period.start).days < int(st.engine.weights["dates"]["events_first_under"])
    if state == "active" and short:  # "anything happen in March 2024": after the key works, what began, ended
        # or was given in it comes before what merely went on
        keys = [i for i in iris if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
        happened = [i for i in iris if i not in keys and (_dated_in(st, i, "start", start, end)
                                                         or _dated_in(st, i, "end", start, end))]  # fmt: skip
        iris = st.listed = keys + happened + [i for i in iris if i not in keys and i not in happened]
    if iris:
        st.say(
            f"{plural(len(iris), one, many)} {state} {span}. {key_first(st, iris)}".strip(),
            st.read_query(works, ", ".join(labels(st, iris[:10]))),
        )
        if narrowed:  # what makes the best of them so described, in the graph's words
            st.say_account(st.engine.entities[narrowed[0]])
    else:
        st.say(f"No work in the graph was {state} {span}.", st.read_query(works, "0 rows"))
    rows = roles.rows
    if state != "active":  # "what did he start in Q1 2020": the roles that started (or ended) in it too
        key = "roleStart" if state == "started" else "roleEnd"
        rows = [r for r in rows if key in r and start <= r[key].value[:10] <= end]
        st.listed = [*st.listed, *(r["role"].value for r in rows)]
    held = [r["role"].label or r["role"].value for r in rows]
    # "what was she doing in 2014": her roles first; and when no work was active, they are the answer
    if held and state == "active" and (st.q.has("doing_then") or not iris):
        cap = int(st.engine.weights["dates"]["roles_first"])
        st.listed = [*list(dict.fromkeys(r["role"].value for r in rows))[:cap], *st.listed]
    if held:
        lead = f"{st.voice.f['Their']} roles then" if state == "active" else f"{st.voice.f['Their']} roles {state} then"
        st.say(f"{lead}: {names(held, 4)}.", st.read_query(roles, ", ".join(held)))
    return True


def _category_with(st: State) -> str | None:
    """A skill category named beside a kind of work, narrow enough to list by ("languages", not "tools")."""
    too_broad = st.engine.broad("broad_categories")
    return next((iri for iri, k in st.q.classes_named if k == "category" and not iri.endswith(too_broad)), None)


def _kind_with(st: State) -> str | None:
    """A kind of work named beside a skill category, narrow enough to list by ("games", not "projects")."""
    too_broad = st.engine.broad("broad_kinds")
    return next((iri for iri, k in st.q.classes_named if k == "class" and not iri.endswith(too_broad)), None)


def _dated_in(st: State, iri: str, field_name: str, start: str, end: str) -> bool:
    """Whether the work's own start (or end) date falls in the period."""
    e = st.engine.entities.get(iri)
    value = getattr(e, field_name, None) if e is not None else None
    return value is not None and start <= value[:10] <= end


def all_works(st: State) -> bool:
    """ "list her projects", "his oldest project": every work, when the question names a kind too broad to
    narrow by and asks nothing more of it (tried late, after the routes that read such words otherwise)."""
    return class_list(st, (WORK, "class"))


def _other_class(st: State, iri: str) -> str | None:
    """A second kind of work the question names besides `iri` ("key works" and "hardware"), none too broad to
    narrow by (routes.yaml broad_kinds: "hardware projects" names no second kind in "projects")."""
    for other, kind in st.q.classes_named:
        if kind == "class" and other != iri and not other.endswith(st.engine.broad("broad_kinds")):
            return other
    return None


def _of_two_classes(st: State, first: str, second: str, *, counting: bool) -> bool:
    """The works of both kinds (stored query works-of-two-classes), or a plain none."""
    run = st.run("two_classes", {"first": first, "second": second})
    iris = column_iris(run, "work")
    one, many = (w.lower() for w in st.engine.class_labels[first])
    also = st.engine.class_labels[second][1].lower()
    st.listed, st.plan.route, st.exact = iris, "class_list", True
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    if not iris:
        st.say(f"None of {st.voice.f['their']} {many} is among {st.voice.f['their']} {also}.", ref)
        return True
    verb = "is" if len(iris) == 1 else "are"
    st.say(f"{plural(len(iris), one, many)} {verb} also among {st.voice.f['their']} {also}: "
           f"{names(labels(st, iris), answer_limit(st))}.", ref)  # fmt: skip
    if not counting:
        st.listed = say_ordinal(st, iris, ref)
    return True


def class_list(st: State, found: tuple[str, str] | None = None, *, counting: bool = False) -> bool:
    at = [e for e in st.q.entities if e.kind != "person"]  # "talks she gave at the Widget Meetup"
    found = found or st.q.class_named
    assert found is not None
    iri, kind = found
    if kind == "class" and (category := _category_with(st)) is not None:
        iri, kind = category, "category"  # "what languages did he use in his hardware projects"
    label, many = st.engine.class_labels[iri]
    mark = st.checkpoint()
    st.exact = True
    if kind == "class" and not at and (other := _other_class(st, iri)) is not None:
        return _of_two_classes(st, iri, other, counting=counting)  # "which of her key works are hardware"
    if kind == "class":
        run = st.run("class_list", {"class": iri})
        iris = column_iris(run, "work")
        if not iris and not at:  # a kind of work this portfolio has none of: what its wiki says may still answer
            st.rollback(mark)
            return False
        st.listed = iris
        st.plan.route = "class_list"
        ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
        named = {t for e in at for t in terms(e.label) if t not in st.engine.stopwords}
        words = (*st.q.ask, *sorted(named))
        narrowed = described_among(st, iris, tuple(dict.fromkeys(words))) if not counting else []
        # "talks at the Widget Meetup": those whose description names the place or organisation, all of it
        narrowed = [w for w in narrowed if named <= set(terms(f"{w.label} {w.description}"))]
        if narrowed:  # "his talk at Widgetconf", "the workshop at the makerspace": the ones so described
            st.listed = [w.iri for w in narrowed] + [x.iri for x in at]  # then the place or organisation named
            st.listed += [i for i in iris if i not in st.listed]
            if len(narrowed) > 1 or st.q.has("count"):  # "how many talks at the meetup": the number first
                st.say(f"{plural(len(narrowed), label.lower(), many.lower())} so described: "
                       f"{names(labels(st, st.listed[: len(narrowed)]), answer_limit(st))}.", ref)  # fmt: skip
                first = say_ordinal(st, st.listed[: len(narrowed)], ref)  # "his first jam game": the one begun first
                st.listed = [*first, *st.listed[len(narrowed):]]
            e = st.engine.entities[st.listed[0]]
            st.subject = e.iri
            facts = st.run("facts", {"entity": e.iri})
            st.say_account(e, facts)
            cued = cued_section(st, e.name) if len(narrowed) == 1 else None
            if cued is not None:  # "what was the problem with the workshop kit": its section on what went wrong
                st.say(cued.passage.text, st.read_passage(cued))
            if st.q.has("time") and e.start:  # "the bat detector workshop: where and when?"
                began = date.fromisoformat(e.start[:10])
                finished = date.fromisoformat(e.end[:10]) if e.end else began
                st.say(f"{e.display} is dated {when(began, finished)}.", st.read_entity(e, facts))
            return True
        if at:
            st.rollback(mark)
            return False
        st.say(f"The graph lists {plural(len(iris), label.lower(), many)}.", ref)
        ordered = say_in_order(st, iris, ref) if st.q.has("in_order") else []  # "list her games in order"
        if ordered:
            st.listed = ordered
        elif iris:
            st.say(f"Key work first: {names(labels(st, iris), answer_limit(st))}.", ref)
            st.listed = say_ordinal(st, iris, ref)
    elif kind == "concept":  # "has he published any datasets": the datasets, techniques or themes, most used first
        run = st.run("concept_list", {"class": iri})
        st.listed = column_iris(run, "concept")
        st.plan.route = "concept_list"
        counted = [f"{r['concept'].label} ({r['works'].value})" for r in run.rows]
        ref = st.read_query(run, ", ".join(counted[:10]))
        st.say(f"The graph lists {plural(len(run.rows), label.lower(), many)}, with the works that use each: "
               f"{names(counted, 8)}.", ref)  # fmt: skip
    elif (within := _kind_with(st)) is not None:  # "which languages are his plugins written in"
        run = st.run("category_in_class", {"category": iri, "class": within})
        st.listed = [r["skill"].value for r in run.rows]
        st.plan.route = "category_in_class"
        counted = [f"{r['skill'].label} ({r['works'].value})" for r in run.rows]
        ref = st.read_query(run, ", ".join(counted[:10]))
        of = st.engine.class_labels[within][1].lower()
        if counted:
            st.say(f"In {st.voice.pronoun.possessive} {of}, {plural(len(counted), label, many)}, most used first: "
                   f"{names(counted, 12)}.", ref)  # fmt: skip
        else:
            st.say(f"The graph records no {label.lower()} used in {st.voice.pronoun.possessive} {of}.", ref)
    else:
        run = st.run("category_skills", {"category": iri})
        used = [r for r in run.rows if int(r["works"].value) > 0]
        st.listed = [r["skill"].value for r in used]
        st.plan.route = "category_list"
        ref = st.read_query(run, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used[:10]))
        unused = [str(r["skill"].label) for r in run.rows if int(r["works"].value) == 0]
        listed = f"The graph lists {plural(len(run.rows), label, many)}; " if unused else ""
        st.say(
            f"{listed}{st.voice.short} has used "
            + (f"{len(used)} of them in {st.voice.pronoun.possessive} works" if unused
               else plural(len(used), label, many)) + ", most used first: "
            + names([f"{r['skill'].label} ({r['works'].value})" for r in used], 12)
            + "."
            + (f" Listed with no work yet: {names(unused, 6)}." if unused else ""),
            ref,
        )
    if counting:
        st.plan.route = "count"
    return True


def with_all(st: State) -> bool:
    concepts = list(st.q.concepts)
    if len(concepts) == 2:
        run = st.run("with_two", {"first": concepts[0].iri, "second": concepts[1].iri})
    else:
        run = st.run("with_three", {"first": concepts[0].iri, "second": concepts[1].iri, "third": concepts[2].iri})
        concepts = concepts[:3]
    iris = column_iris(run, "work")
    st.listed = iris
    st.plan.route = "works_with_all"
    st.exact = True
    together = names([c.display for c in concepts], 3)
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    if iris:
        st.say(f"{plural(len(iris), 'work combines', 'works combine')} {together}: "
               f"{names(labels(st, iris), answer_limit(st))}.", ref)  # fmt: skip
    else:
        st.say(f"No work in the graph combines {together}.", ref)
    return True


def concept_works(st: State) -> bool:
    e = st.q.entities[0]
    candidate = st.engine.routes["candidates"].get(e.kind)
    if not candidate:
        return False
    run = st.run(candidate["query"], {candidate["param"]: e.iri})
    iris = column_iris(run, "work")
    if not iris:
        return False
    kind = st.q.kind_of_work
    noun = ("work", "works")
    if kind is not None:
        _, members = class_members(st, kind)  # "the talk on forward chaining": the talks among its works
        if any(i in members for i in iris):
            iris = [i for i in iris if i in members]
            one, many = st.engine.class_labels[kind]
            noun = (one.lower(), many.lower())
    st.listed = [e.iri, *iris]  # what was asked about, then the works, as a relation lists them
    st.plan.route = "concept_works"
    st.exact = True
    verb = VERB.get(e.kind, "use")
    if st.q.kind == "entity" and e.description and not e.has_article:  # "tell me about X": what X is, first
        st.say_account(e)
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    among = key_first(st, iris)
    st.say(f"{plural(len(iris), *noun)} {verb + 's' if len(iris) == 1 else verb} {e.display}. {among}", ref)
    st.listed = [e.iri, *say_ordinal(st, iris, ref)]
    only = st.engine.entities.get(iris[0]) if len(iris) == 1 else None
    if only is not None and only.description:  # "how does he use BLE": the one work, in its own words
        st.say_account(only)
    if e.has_article and st.q.kind in ("explain", "search", "entity"):
        weights = st.engine.weights["article"]
        hit = best_passage_for(st.engine.passages, e.name, st.q.terms, st.engine.synonyms, weights)
        if hit is not None:
            st.say(hit.passage.text, st.read_passage(hit))
    return True
