"""Graph-list branches: the pivot, comparisons, counts, periods, kinds of work, works with all, a concept's works."""

from __future__ import annotations

from service.engine.catalog import CONCEPTS
from service.engine.link import Mention, tokenize
from service.engine.retrieve import best_passage_for
from service.engine.routes import (
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
    placed,
    say_dated,
    say_in_order,
    say_ordinal,
    when,
)
from service.engine.state import State
from service.engine.texts import described_among
from service.text import stem, terms
from service.vocab import PF

WORK = f"{PF}Work"  # every work: the class "list her projects" asks for


def pivot(st: State) -> bool:
    """A technology the graph lacks: say the graph lists no such work, and show what is used instead."""
    absent = st.q.absent  # not inside a period, nor where a name of the graph is
    if not absent.entities:  # a name in no lexicon, asked as a technology ("has she used Qdrant for search")
        unknown = _unknown_technology(st) or _unknown_practice(st)
        return unknown is not None and not _defines(st, [unknown[1]]) and _pivot_unknown(st, unknown[0])
    spans = [(m.start, m.end) for m in absent.mentions]
    if _defines(st, spans):  # "what is Scala": its definition, or not covered; no list of what she uses instead
        return False
    # a skill linked inside an absent name ("js" in "Vue.js") is part of that name, not a skill she uses
    outside = [m for m in st.q.linked.mentions if not any(a <= m.start and m.end <= b for a, b in spans)]
    if any(st.engine.entities[i].kind == "skill" for m in outside for i in m.iris
           if len(m.iris) == 1 and i in st.engine.entities):  # fmt: skip
        return False
    found = sorted(absent.entities, key=lambda label: not st.engine.absent[label].listed)  # the owner's first
    if not found:
        return False
    listed = st.engine.absent[found[0]].listed  # by the owner, not only in the engine's catalogue
    if not listed and _only_context(st, absent.mentions):
        return False
    # a technology of the engine's catalogue that her own passages speak of ("Cortex-M") may be hers all the same:
    # the graph lists no work with it, but the pivot is weak, never High
    spoken = not listed and any(st.engine.passages.speaks_of(m.text)
                                and st.engine.speller.english(m.text) < st.engine.common_english
                                for m in absent.mentions)  # fmt: skip
    absent = st.engine.absent[found[0]]
    category = st.engine.pf(absent.category)
    _, many = st.engine.category_label(category)
    evidence = st.run("absent_evidence", {"name": absent.label})
    skills = st.run("category_skills", {"category": category})
    # the key works in the category, from a query bounded by the key works; the first of the rest only without one
    works = st.run("category_key_works", {"category": category})
    keys = [i for i in column_iris(works, "work") if i in st.engine.entities]
    if not keys:
        works = st.run("category_works", {"category": category})
    used = [r for r in skills.rows if int(r["works"].value) > 0][:3]
    st.listed = keys or column_iris(works, "work")
    st.plan.route = "pivot"
    st.exact, st.near = not spoken, spoken
    st.tell("pivot.none", st.read_query(evidence, f"{len(evidence.rows)} rows"), name=absent.label)
    named = [st.engine.entities[i] for m in outside for i in m.iris[:1] if i in st.engine.entities]
    for w in [e for e in named if e.kind == "work"][:1]:  # "is Widget's front end written in React": its stack
        stack = st.run("stack", {"work": w.iri})
        built = [str(r["skill"].label) for r in stack.rows]
        if built:
            st.tell("stack.built", st.read_query(stack, ", ".join(built)), work=w.display, skills=names(built, 8))
    if used:
        st.tell("pivot.used", st.read_query(skills, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used)),
                many=many, skills=names([r["skill"].label or "" for r in used], 3),
                counts=names([r["works"].value for r in used], 3),
                unit=int(used[0]["works"].value) if len(used) == 1 else 0, several=len(used))  # fmt: skip
    if st.listed:
        st.tell("pivot.key_in_them" if keys else "pivot.in_them", st.read_query(works, ", ".join(
            labels(st, st.listed[:8]))), works=names(labels(st, st.listed), 4))  # fmt: skip
    return True


def _defines(st: State, spans: list[tuple[int, int]]) -> bool:
    """Whether the question outside these spans is only a definition's phrase ("what is Scala", "define
    Kotlin")."""
    rest = [t.word for t in st.q.tokens if not any(a <= t.start < b for a, b in spans)]
    return st.engine.intents.asks_only("define", rest)


def _unknown_technology(st: State) -> tuple[str, tuple[int, int]] | None:
    """A name in no lexicon asked as a technology of the person's work ("has she used Qdrant", "any Gleam
    code"): a run of at most three words the site never uses, one of them no English word either ("Revit",
    "embassy async"; never "a nightmare" or "the scanner"), in a question with a technology cue (intents.yaml
    technology) and no work, role or organisation named. The words as the visitor wrote them, and where."""
    if not st.q.has("technology") or (any(e.kind in ("work", "role", "organisation") for e in st.q.entities)
                                      and not st.q.names_own_practice):  # "does her studio use Lumion"
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
    after = [t.word for t in st.q.tokens if t.start >= run[-1][1]]
    within = int(st.engine.weights["unknown"]["gloss_within"])
    if any(tuple(after[i : i + len(g)]) == g and len(after) > i + len(g)
           for g in st.engine.intents.name_glosses for i in range(within)):  # fmt: skip
        return None  # "recsys experience? like recommendation engines": said again in the site's words
    text = st.q.span_text(run[0][0], run[-1][1])
    if all(st.engine.speller.english(w) for t in tokenize(text) if (w := t.word)):
        return None
    return text, (run[0][0], run[-1][1])


def _unknown_practice(st: State) -> tuple[str, tuple[int, int]] | None:
    """A thing the site never speaks of, asked whether the person does it ("has she ever designed a golf course",
    "does she do skatepark design", "any corten steel in her designs"): a question that asks whether (intents.yaml
    asks_whether) she made or used it (making, technology), with one run of at most three words the site never
    uses, English or not, and no other word it does not know. Not after a word that takes the thing as known
    (intents.yaml definite: "has she used the scanner" is no question of her practice), nor beside "or" or "and"
    (intents.yaml name_cues_joining): "a review board or committee" says one thing two ways."""
    if not (st.q.has("asks_whether") and (st.q.has("making") or st.q.has("technology"))) or (any(
            e.kind != "person" for e in st.q.entities) and not st.q.names_own_practice):  # "does her studio ..."
        return None
    tokens = st.q.tokens
    runs: list[list[int]] = []
    for i, t in enumerate(tokens):
        # a word of a synonym group is one of the site's ("levees": its dikes)
        if len(t.word) >= 3 and not t.word.isdigit() and st.q.unknown_words([t.word]) \
                and not st.engine.synonyms.get(stem(t.word)):
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    max_runs = int(st.engine.weights["unknown"]["practice_runs"])  # "mangrove restoration, like in the tropics"
    if not runs or len(runs) > max_runs or any(len(r) > 3 for r in runs) or runs[0][0] == 0:
        return None
    run = runs[0]
    if tokens[run[0] - 1].word in st.engine.intents.definite:
        return None
    # "a design review board or committee": one thing said two ways, one of them the site's
    joined, articles = st.engine.intents.name_cues_joining, st.engine.intents.title_articles
    before = run[0] - 1
    while before > 0 and tokens[before].word in articles:  # "a synthesizer or a drum machine"
        before -= 1
    if tokens[before].word in joined or (run[-1] + 1 < len(tokens) and tokens[run[-1] + 1].word in joined):
        return None
    start, end = tokens[run[0]].start, tokens[run[-1]].end
    return st.q.span_text(start, end), (start, end)


def _pivot_unknown(st: State, name: str) -> bool:
    """The pivot for a technology no lexicon names: no work uses it; the skills used most, and the key works."""
    evidence = st.run("absent_evidence", {"name": name})
    if evidence.rows:
        return False
    skills = st.run("skills")
    keys = st.run("key_works")
    st.plan.route = "pivot"
    st.near = True  # a name no vocabulary knows may be no technology at all ("Zorblatt"): weak, never High
    st.listed = column_iris(keys, "work")
    st.tell("pivot.unheard", st.read_query(evidence, f"{len(evidence.rows)} rows"), name=name)
    used = skills.rows[:3]
    if used:
        read = ", ".join(f"{r['skillLabel'].value}: {r['works'].value}" for r in used)
        st.tell("pivot.used_any", st.read_query(skills, read), skills=names([r["skillLabel"].value for r in used], 3),
                counts=names([r["works"].value for r in used], 3))  # fmt: skip
    if st.listed:
        key = labels(st, st.listed)
        st.tell("pivot.key", st.read_query(keys, ", ".join(key[:8])), works=names(key, 4))
    return True


def _only_context(st: State, mentions: list[Mention]) -> bool:
    """A technology of the engine's catalogue (not one the owner listed) that the question only mentions as
    context: beside a named work, role or organisation ("is widgeteer-py on PyPI", "how does the route planner
    cope with noisy GPS"), or beside words the site never uses ("how tall is the Eiffel tower")."""
    if any(e.kind in ("role", "organisation") for e in st.q.entities) and not st.q.names_own_practice:
        return True  # "her studio" is the person at work: "can her studio make Lumion renders" asks of her
    if any(e.kind == "work" for e in st.q.entities):  # "is Widget's front end written in React" asks of it
        return not (st.q.kind == "stack" or st.q.has("technology"))
    spans = [(m.start, m.end) for m in mentions]
    rest = st.q.words_outside(spans)
    return bool(st.q.unknown_words(rest)) and not st.q.has("technology")  # "deployed on Kubernetes" asks of it


def comparison(st: State) -> bool:
    ents = st.q.entities
    groups = {"work": "work", "skill": "skill", "technique": "skill", "place": "place", "organisation": "place"}
    # the first thing named and the next of its group: "the tidal park in Rotterdam or the Elbe Steps" compares
    # two works, Rotterdam only saying where the first is
    a = ents[0]
    b = next((e for e in ents[1:] if e.kind != "place" or a.kind == "place"), None)
    if b is None or groups.get(a.kind) != groups.get(b.kind) or groups.get(a.kind) is None:
        return False
    run = st.run("compare", {"first": a.iri, "second": b.iri})
    sides: dict[str, dict[str, list[str]]] = {"both": {}, "first": {}, "second": {}}
    for row in run.rows:
        prop = row["propertyLabel"].value
        if row["direction"].value == "in":
            prop = st.engine.sentence("comparison.based_here" if row["property"].value.endswith("basedIn")
                                      else "comparison.places_in_it")  # fmt: skip
        value = row["value"].label or row["value"].value
        sides[row["side"].value].setdefault(prop, []).append(value)
    ref = st.read_query(run, f"{len(run.rows)} facts")

    def describe(facts: dict[str, list[str]]) -> str:
        skip = {"tier", "start date", "end date"}
        return "; ".join(f"{p} {names(v, 5)}" for p, v in sorted(facts.items()) if p not in skip)

    st.plan.route = "comparison"
    st.exact = True
    st.listed = [a.iri, b.iri]
    both = describe(sides["both"])
    if sides["both"]:
        st.tell("comparison.share" if both else "comparison.share_dates", ref, first=a.display, second=b.display,
                facts=both)  # fmt: skip
    else:
        st.tell("comparison.share_nothing", ref, first=a.display, second=b.display)
    for e, side in ((a, "first"), (b, "second")):
        if describe(sides[side]):
            st.tell("comparison.only", ref, thing=e.display, facts=describe(sides[side]))
    if a.start and b.start and a.kind == b.kind == "work":  # which came first
        first, second = sorted((a, b), key=lambda e: e.start or "")
        st.tell("comparison.began", ref, first=first.display, second=second.display,
                first_began=month(first.start or ""), second_began=month(second.start or ""))  # fmt: skip
        if a.end and b.end:  # which took longer
            spans = {e.iri: months_spanned(e.start or "", e.end or "") for e in (a, b)}
            longer = max((a, b), key=lambda e: spans[e.iri])
            ran = names([st.engine.sentence("comparison.ran_each", thing=e.display, months=spans[e.iri],
                                            began=month(e.start or ""), ended=month(e.end or ""))
                         for e in (a, b)], 2)  # fmt: skip
            same = spans[a.iri] == spans[b.iri]
            st.tell("comparison.ran_same" if same else "comparison.ran_longer", ref, ran=ran, longer=longer.display)
    for e in (a, b):  # what each one is, in its owner's words: the difference a reader asks for is often there
        if e.kind == "work" and e.description:
            ref = st.read_entity(e, st.run("facts", {"entity": e.iri}))
            st.tell("comparison.is", ref, thing=e.display, what=_first_sentence(e.description))
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
        st.tell(f"count.{e.kind}", st.read_query(run, str(n)), count=n, thing=e.display)
        return True
    if all(e.kind == "person" for e in ents):  # "how many games has Ada made": the person is the subject
        found = st.q.class_named
        if found:
            return class_list(st, found, counting=True)
    return False


def _counted_within(st: State) -> bool:
    """Whether the question counts things inside one thing of another kind it names, the subject of its verb
    ("how many projects does the water book cover": the book's account says, not the number of books); not "how
    many talks has he given, counting the workshop"."""
    cue = st.q.cue
    kinds = st.engine.classes_in(cue)
    if len(kinds) < 2:
        return False
    at = sorted((i, len(key)) for key, _ in kinds for i in range(len(cue)) if cue[i : i + len(key)] == key)
    (first, size), (second, _) = at[0], at[1]
    after = cue[first + size : second]  # "does the water" in "how many projects does the water book cover"
    return len(after) >= 2 and after[0] in st.engine.intents.auxiliaries and after[1] in st.engine.intents.definite


def ongoing(st: State) -> bool:
    """ "which of his projects are still active": the works begun with no end date (of the kind named, if any)."""
    run = st.run("ongoing")
    iris, (one, many) = _of_kind_named(st, column_iris(run, "work"))
    st.listed = iris
    st.plan.route = "ongoing"
    st.exact = True
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    if not iris:
        st.tell("ongoing.none", ref, one=one)
        return True
    since = st.engine.sentence("ongoing.since")
    st.tell("ongoing.some", ref, count=len(iris), one=one, many=many,
            works=names(dated_labels(st, iris, since), answer_limit(st)))  # fmt: skip
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
    st.listed = iris
    st.plan.route = "works_in_period"
    st.exact = True
    span = when(st, st.q.period.start, st.q.period.end)
    short = (st.q.period.end - st.q.period.start).days < int(st.engine.weights["dates"]["events_first_under"])
    happened: list[str] = []
    if state == "active" and short:  # "anything happen in March 2024": after the key works, what began, ended
        # or was given in it comes before what merely went on
        keys = [i for i in iris if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
        happened = [i for i in iris if i not in keys and (_dated_in(st, i, "start", start, end)
                                                         or _dated_in(st, i, "end", start, end))]  # fmt: skip
        iris = st.listed = keys + happened + [i for i in iris if i not in keys and i not in happened]
    if iris:
        said = st.engine.sentence(f"works_in_period.{state}{'_described' if narrowed else ''}", count=len(iris),
                                  one=one, many=many, span=span)  # fmt: skip
        given = _held_then(st, iris)
        if len(iris) <= int(st.engine.weights["results"]["dated_under"]):  # a few, by their whole names and dates
            given = dict(zip(iris, dated_labels(st, iris, full=True), strict=True)) | given
        text = f"{said} {key_first(st, iris, given)}".strip()
        cited, times = _cite_held(st, given, text)
        ref = st.read_query(works, ", ".join(labels(st, iris[:10])))
        st.say(text, ref, *cited)
        shown = answer_limit(st)  # "what was she working on in Q3 2025": what began or ended in it, when the key
        if state == "active" and short and happened and len(iris) > shown:  # works fill the list
            ents = st.engine.entities  # projects before their parts, then by when they began
            happened = sorted(happened, key=lambda i: (ents[i].tier or 3, ents[i].start or ""))
            st.tell("works_in_period.begun_or_ended", ref, works=names(labels(st, happened), shown))
        st.listed = [*st.listed, *times]
        if narrowed or (len(iris) == 1 and not st.q.ask):  # what makes the best of them so described, or the one
            st.say_account(st.engine.entities[(narrowed or iris)[0]])  # asked of ("his talks in 2018"), in the
            # graph's words
    else:
        st.tell(f"works_in_period.none_{state}", st.read_query(works, "0 rows"), span=span, one=one)
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
        st.tell(f"works_in_period.roles_{state}", st.read_query(roles, ", ".join(held)), roles=names(held, 4))
    return True


def _held_then(st: State, iris: list[str]) -> dict[str, str]:
    """Each recurring work of the list named with where and when it was given in the period ("rain-garden
    workshop (Ghent, April 2026)"), from its occurrences (queries/occurrences.rq, kept in the plan until
    `_cite_held`); none read when the graph has no recurring work."""
    if not st.engine.recurring or not iris or st.way is None:
        return {}
    route = st.way.route
    run = st.query("held")
    times: dict[str, list[str]] = {}
    for r in run.rows if run is not None else []:
        if r["work"].value in iris and "placeLabel" in r:
            start = month(r["start"].value) if "start" in r else ""
            times.setdefault(r["work"].value, []).append(
                st.engine.sentence(f"{route}.held_time", place=r["placeLabel"].value, start=start))
    return {w: st.engine.sentence(f"{route}.held", work=st.engine.entities[w].display, times="; ".join(t))
            for w, t in times.items()}  # fmt: skip


def _cite_held(st: State, held: dict[str, str], text: str) -> tuple[list[str], list[str]]:
    """The occurrences read for `_held_then`, cited when the answer names one of them, with each time it names
    (for the results, after the list's works); else dropped from the plan."""
    if not st.plan.sparql or st.plan.sparql[-1].name != "occurrences":
        return [], []  # not read (no recurring work in the graph, or no period)
    run = st.plan.sparql[-1]
    shown = {w: h for w, h in held.items() if h in text}
    if not shown:
        st.plan.sparql.pop()
        return [], []
    times = [r["occurrence"].value for r in run.rows if r["work"].value in shown]
    return [st.read_query(run, ", ".join(shown.values()))], times


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
        st.tell("class_list.both_none", ref, many=many, also=also)
        # "does she build hardware as well as software": the two kinds share no work, so each on its own
        runs = [st.run("class_list", {"class": kind}) for kind in (first, second)]
        each = [column_iris(r, "work") for r in runs]
        other_one, other_many = (w.lower() for w in st.engine.class_labels[second])
        st.tell("class_list.each", st.read_query(runs[0], f"{len(each[0])} rows"), count=len(each[0]), one=one,
                many=many, other=len(each[1]), other_one=other_one, other_many=other_many)  # fmt: skip
        st.read_query(runs[1], f"{len(each[1])} rows")
        st.listed = [*each[0][:5], *each[1][:5]]
        return True
    st.tell("class_list.both", ref, count=len(iris), one=one, many=many, also=also,
            works=names(labels(st, iris), answer_limit(st)))  # fmt: skip
    if not counting:
        st.listed = say_ordinal(st, iris, ref)
    return True


def class_list(st: State, found: tuple[str, str] | None = None, *, counting: bool = False) -> bool:
    if (counting or st.q.has("count")) and _counted_within(st):
        return False
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
        if not narrowed and not counting and not at:  # "that makerspace workshop he ran, what did people build"
            narrowed = next((so for clause in st.q.clauses_asked if (so := described_among(st, iris, clause))), [])
        # "talks at the Widget Meetup": those whose description names the place or organisation, all of it
        narrowed = [w for w in narrowed if named <= set(terms(f"{w.label} {w.description}"))]
        if narrowed:  # "his talk at Widgetconf", "the workshop at the makerspace": the ones so described
            st.listed = [w.iri for w in narrowed] + [x.iri for x in at]  # then the place or organisation named
            st.listed += [i for i in iris if i not in st.listed]
            if len(narrowed) > 1 or st.q.has("count"):  # "how many talks at the meetup": the number first
                st.tell("class_list.described", ref, count=len(narrowed), one=label.lower(), many=many.lower(),
                        works=names(labels(st, st.listed[: len(narrowed)]), answer_limit(st)))  # fmt: skip
                first = say_ordinal(st, st.listed[: len(narrowed)], ref)  # "his first jam game": the one begun first
                st.listed = [*first, *st.listed[len(narrowed):]]
            e = st.engine.entities[st.listed[0]]
            st.subject = e.iri
            facts = st.run("facts", {"entity": e.iri})
            st.say_account(e, facts)
            cued = cued_section(st, e.name) if len(narrowed) == 1 else None
            if cued is not None:  # "what was the problem with the workshop kit": its section on what went wrong
                st.say(cued.passage.text, st.read_passage(cued))
            say_dated(st, e, facts, "class_list")  # "the bat detector workshop: where and when?"
            return True
        if at or (st.q.sections_asked and len(iris) > 1 and not counting and st.q.amount is None):
            st.rollback(mark)  # "the main result of the paper she wrote with her students": a section of one of them
            return False
        st.tell("class_list.lists", ref, count=len(iris), one=label.lower(), many=many)
        ordered = say_in_order(st, iris, ref) if st.q.has("in_order") else []  # "list her games in order"
        if ordered:
            st.listed = ordered
        elif iris:  # "Key work first" only when one of them is a key work
            keyed = any(st.engine.entities[i].tier == 1 for i in iris if i in st.engine.entities)
            one = st.engine.entities.get(iris[0]) if len(iris) == 1 else None
            if one is not None:  # "did he ever make a game": the one there is, as the graph describes it
                st.say_account(one)
            else:
                st.tell("class_list.key_first" if keyed else "among_them", ref,
                        works=names(placed(st, iris), answer_limit(st)))  # fmt: skip
            st.listed = say_ordinal(st, iris, ref)
    elif kind == "concept":  # "has he published any datasets": the datasets, techniques or themes, most used first
        run = st.run("concept_list", {"class": iri})
        st.listed = column_iris(run, "concept")
        st.plan.route = "concept_list"
        counted = [f"{r['concept'].label} ({r['works'].value})" for r in run.rows]
        ref = st.read_query(run, ", ".join(counted[:10]))
        st.tell("concept_list.lists", ref, count=len(run.rows), one=label.lower(), many=many,
                concepts=names(counted, 8))  # fmt: skip
    elif (within := _kind_with(st)) is not None:  # "which languages are his plugins written in"
        run = st.run("category_in_class", {"category": iri, "class": within})
        st.listed = [r["skill"].value for r in run.rows]
        st.plan.route = "category_in_class"
        counted = [f"{r['skill'].label} ({r['works'].value})" for r in run.rows]
        ref = st.read_query(run, ", ".join(counted[:10]))
        of = st.engine.class_labels[within][1].lower()
        if counted:
            st.tell("category_in_class.some", ref, of=of, count=len(counted), one=label, many=many,
                    skills=names(counted, 12))  # fmt: skip
        else:
            st.tell("category_in_class.none", ref, one=label.lower(), of=of)
    else:
        run = st.run("category_skills", {"category": iri})
        if not run.rows:  # a category this portfolio files nothing under ("board"): its passages may still answer
            st.rollback(mark)
            return False
        used = [r for r in run.rows if int(r["works"].value) > 0]
        st.listed = [r["skill"].value for r in used]
        st.plan.route = "category_list"
        ref = st.read_query(run, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used[:10]))
        unused = [str(r["skill"].label) for r in run.rows if int(r["works"].value) == 0]
        st.tell("category_list.some_used" if unused else "category_list.all_used", ref, listed=len(run.rows),
                count=len(used), one=label, many=many, unused=names(unused, 6),
                skills=names([f"{r['skill'].label} ({r['works'].value})" for r in used], 12))  # fmt: skip
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
        st.tell("works_with_all.some", ref, count=len(iris), together=together,
                works=names(labels(st, iris), answer_limit(st)))  # fmt: skip
    else:
        st.tell("works_with_all.none", ref, together=together)
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
    if st.q.kind == "entity" and e.description and not e.has_article:  # "tell me about X": what X is, first
        st.say_account(e)
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])))
    among = key_first(st, iris)
    said = st.engine.sentence(f"concept_works.{e.kind}", count=len(iris), one=noun[0], many=noun[1], thing=e.display)
    st.say(f"{said} {among}", ref)
    st.listed = [e.iri, *say_ordinal(st, iris, ref)]
    only = st.engine.entities.get(iris[0]) if len(iris) == 1 else None
    if only is not None and only.description:  # "how does he use BLE": the one work, in its own words
        st.say_account(only)
    for label in sorted(st.q.absent.entities)[:2]:  # "does he know rust and go?": the one the graph lacks too
        absent = st.engine.absent[label]
        evidence = st.run("absent_evidence", {"name": absent.label})
        st.tell("pivot.none", st.read_query(evidence, f"{len(evidence.rows)} rows"), name=absent.label)
    if e.has_article and st.q.kind in ("explain", "search", "entity"):
        weights = st.engine.weights["article"]
        hit = best_passage_for(st.engine.passages, e.name, st.q.terms, st.engine.synonyms, weights)
        if hit is not None:
            st.say(hit.passage.text, st.read_passage(hit))
    return True


def works_filtered(st: State) -> bool:
    """ "Rust projects from 2024", "talks in Lisbon since 2023", "papers written while at Acme": the works that
    match every filter the question names (a technology, a kind of work, a period, a place, a role or an
    organisation), from one stored query that takes each filter given (queries/works-filtered.rq); those begun or
    finished in the period when it asks that; key work first, the first or latest of them, or in the order they
    began; a few, each with when it began, and one in its own words."""
    q, say = st.q, st.engine.sentence
    in_place = any(e.kind == "place" for e in q.entities)
    outside = in_place and q.has("outside")  # "works outside the UK": those that took place elsewhere
    run = st.query("works_outside_place" if outside else "works_in_place" if in_place else "works")
    if run is None:
        return False
    iris = column_iris(run, "work")
    state = "active"
    if q.period is not None:  # "what did he start at Acme in 2020": begun (or finished) in the period
        start, end = q.period.iso()
        for rule, field_name, name in (("began", "start", "started"), ("ended", "end", "finished")):
            if q.has(rule):
                iris = [i for i in iris if _dated_in(st, i, field_name, start, end)]
                state = name
                break
    concept = next(iter(q.concepts), None)
    place = next((e for e in q.entities if e.kind == "place"), None)
    role = next((e for e in q.entities if e.kind == "role"), None)
    organisation = next((e for e in q.entities if e.kind == "organisation"), None) if role is None else None
    parts = [say(f"works_filtered.{concept.kind}", thing=concept.display)] if concept is not None else []
    if place is not None:
        parts.append(say("works_filtered.outside_place" if outside else "works_filtered.place", place=place.label))
    if q.period is not None:
        key = "period" if state == "active" else f"period_{state}"
        parts.append(say(f"works_filtered.{key}", span=when(st, q.period.start, q.period.end)))
    if role is not None:
        parts.append(say("works_filtered.role", role=role.label))
    if organisation is not None:
        parts.append(say("works_filtered.organisation", organisation=organisation.label))
    one, many = ("work", "works")
    if q.kind_of_work is not None:
        one, many = (w.lower() for w in st.engine.class_labels[q.kind_of_work])
    filters = ", ".join(parts)
    st.plan.route = "works_filtered"
    st.exact = True
    ref = st.read_query(run, ", ".join(labels(st, iris[:10])) or "0 rows")
    named = [e.iri for e in (concept, place, role, organisation) if e is not None]
    st.listed = [*iris, *named]
    if not iris:
        st.tell(f"works_filtered.none_{state}", ref, one=one, many=many, filters=filters)
        return True
    few = int(st.engine.weights["results"]["dated_under"])
    shown = dated_labels(st, iris) if len(iris) <= few else labels(st, iris)
    given = _held_then(st, iris) if q.period is not None else {}  # "rain-garden workshop (Glasgow, May 2023)"
    shown = [given.get(i, label) for i, label in zip([i for i in iris if i in st.engine.entities], shown, strict=True)]
    text = say(f"works_filtered.{state}", count=len(iris), one=one, many=many, filters=filters,
               works=names(shown, answer_limit(st)))  # fmt: skip
    cited, times = _cite_held(st, given, text)  # and the times of a recurring work it names
    st.say(text, ref, *cited)
    ordered = say_in_order(st, iris, ref) if q.has("in_order") else []
    first = ordered or say_ordinal(st, iris, ref)
    st.listed = [*first, *named, *times]
    if len(iris) == 1:  # the one, in its own words (where it was given, what it was)
        st.say_account(st.engine.entities[iris[0]])
    return True
