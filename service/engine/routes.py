"""Planning branches shared by the others: the ambiguity chooser, an entity's overview, the works of a role;
and the small helpers every branch uses to phrase its answer.

The branches themselves follow the main seed's Algorithm 4; plan.py tries them in order. Every graph fact in
an answer comes from a stored query run through `State.run`, so the plan carries the exact SPARQL; every
sentence cites what it was read from.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from service.engine.catalog import Entity
from service.engine.quantity import Quantity
from service.engine.retrieve import PassageHit, best_passage_for, search_articles
from service.engine.state import State
from service.kb.wiki import Passage
from service.queries import QueryRun
from service.text import stem, terms


def names(labels: list[str], limit: int, joiner: str = "and") -> str:
    """'A', 'A and B', 'A, B and C', or 'A, B, C and 4 more' (never 'and 1 more': the one is named)."""
    if not labels:
        return ""
    if len(labels) > limit + 1:
        return ", ".join(labels[:limit]) + f" and {len(labels) - limit} more"
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" {joiner} " + labels[-1]


def labels(st: State, iris: list[str]) -> list[str]:
    return [st.engine.entities[i].display for i in iris if i in st.engine.entities]


def placed(st: State, iris: list[str]) -> list[str]:
    """Each work's name with where it appeared or was given and its year, when the graph says where ("Bat classifier
    paper (Proceedings of ... 2025)"); a work with no venue by its name alone."""
    out = []
    for i in iris:
        e = st.engine.entities.get(i)
        if e is None:
            continue
        year = (e.published or e.start or "")[:4]
        where = e.venue if not year or year in (e.venue or "") else f"{e.venue}, {year}"
        out.append(f"{e.display} ({where})" if e.venue else e.display)
    return out


def say_dated(st: State, e: Entity, facts: QueryRun | None, route: str) -> None:
    """ "the bat detector workshop: where and when?": the work's dates, when the question asks when (the route's
    `say.dated`), cited by its facts (read here when not given)."""
    if st.q.has("time") and e.start:
        began = date.fromisoformat(e.start[:10])
        finished = date.fromisoformat(e.end[:10]) if e.end else began
        facts = facts if facts is not None else st.run("facts", {"entity": e.iri})
        st.tell(f"{route}.dated", st.read_entity(e, facts), thing=e.display, span=when(st, began, finished))


def column_iris(run: QueryRun, column: str) -> list[str]:
    return [row[column].value for row in run.rows if column in row and row[column].kind == "iri"]


def same_named(st: State, iri: str) -> list[str]:
    """The other kinds of work and skill categories called as `iri` is ("library": a kind of work and a category)."""
    called = tuple(n.lower() for n in st.engine.class_labels[iri])
    return [i for i, names in st.engine.class_labels.items()
            if i != iri and tuple(n.lower() for n in names) == called]  # fmt: skip


def class_members(st: State, iri: str) -> tuple[QueryRun, set[str]]:
    """The works of a kind of work (the class_list route), as a run and as a set of IRIs."""
    run = st.run("class_list", {"class": iri})
    return run, set(column_iris(run, "work"))


def answer_limit(st: State) -> int:
    return int(st.engine.weights["results"]["answer_list"])


def key_first(st: State, iris: list[str], said: Mapping[str, str] | None = None) -> str:
    """'Key work first: A and B; then C, D and 3 more.' (or 'Among them: C, D and E.' with no key work): the
    works a list answer names, key works first, up to the answer limit in all; `said`, how some of them are
    named instead of by their labels ("rain-garden workshop (Ghent, April 2026)")."""
    limit = answer_limit(st)
    keys = [i for i in iris if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
    rest = [i for i in iris if i not in keys]
    say = st.engine.sentence

    def shown(chosen: list[str]) -> list[str]:
        known = [i for i in chosen if i in st.engine.entities]
        return [(said or {}).get(i) or label for i, label in zip(known, labels(st, known), strict=True)]

    if not keys:
        return say("among_them", works=names(shown(rest), limit)) if rest else ""
    if not rest or len(keys) >= limit:
        return say("key_first", works=names(shown(keys + rest), limit))
    return say("key_first_then", keys=names(shown(keys), limit), rest=names(shown(rest), limit - len(keys)))


def month(value: str) -> str:
    """ "2024-03-01" -> "March 2024"."""
    return date.fromisoformat(value[:10]).strftime("%B %Y")


def day(value: date) -> str:
    """ date(2024, 3, 1) -> "1 March 2024"."""
    return f"{value:%-d %B %Y}"


def ambiguous(st: State) -> bool:
    """A name shared by several entities: list them, and let the visitor choose."""
    mention = st.q.linked.ambiguous[0]
    st.plan.route = "ambiguous"
    options = [st.engine.entities[i] for i in mention.iris if i in st.engine.entities]
    refs = [st.read_entity(e, st.run("facts", {"entity": e.iri})) for e in options]
    st.listed = [e.iri for e in options]
    st.tell("ambiguous.choose", *refs, text=mention.text, things=names([e.label for e in options], 5, "or"))
    return True


def months_spanned(start: str, end: str) -> int:
    """The calendar months a span of two ISO dates touches: April to June is three."""
    began, finished = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    return (finished.year - began.year) * 12 + finished.month - began.month + 1


def when(st: State, start: date, end: date) -> str:
    """ "between 1 March 2024 and 31 May 2024", "on 3 May 2024", "before 1 January 2015"."""
    say = st.engine.sentence
    if start.year <= 1900:  # "before 2015"
        return say("before_day", day=day(end + timedelta(days=1)))
    if start == end:
        return say("on_day", day=day(start))
    return say("between_days", start=day(start), end=day(end))


def dated_labels(st: State, iris: list[str], before: str = "", *, full: bool = False) -> list[str]:
    """The names of things, each with the month it began (or, of a publication, appeared) when the graph dates
    it: "Widget (since March 2024)"; `full`, by their whole names rather than their short ones (a few things, each
    said once)."""
    shown = [st.engine.entities[i].label for i in iris if i in st.engine.entities] if full else labels(st, iris)
    dates = [(e.published or e.start) if (e := st.engine.entities.get(i)) is not None else None for i in iris]
    return [f"{n} ({before}{month(d)})" if d else n for d, n in zip(dates, shown, strict=True)]


def ordinal_pick(st: State, iris: list[str]) -> Entity | None:
    """Of the works, the one that began first (or last) when the question asks for the first (or the latest) and
    two or more are dated; of publications that are all dated so, the one published first (or last)."""
    first, last = st.q.has("first"), st.q.has("last")
    dated = _dated_works(st, iris)
    if first == last or len(dated) < 2:
        return None
    return (min if first else max)(dated, key=lambda e: _ordinal_date(dated, e))


def _dated_works(st: State, iris: list[str]) -> list[Entity]:
    return [e for i in iris if (e := st.engine.entities.get(i)) is not None and e.kind == "work" and e.start]


def _ordinal_date(dated: list[Entity], e: Entity) -> str:
    """The date works are put in order by: the publication date when every one has one ("his latest paper" is
    the one published last, not the one begun last), else the start."""
    return (e.published or "") if all(w.published for w in dated) else (e.start or "")


def say_ordinal(st: State, iris: list[str], ref: str) -> list[str]:
    """ "the first thing she built at Acme", "his latest talk": of the works listed, the one that began first (or
    last), said with its start (or its publication); returns the list with it in front. Nothing when the
    question asks neither."""
    pick = ordinal_pick(st, iris)
    if pick is None:
        return iris
    word = "first" if st.q.has("first") else "latest"
    st.subject = pick.iri  # what the answer is about: "why did it need a rewrite?" asks of it
    if all(w.published for w in _dated_works(st, iris)):
        st.tell(f"{word}_published", ref, thing=pick.display, when=month(pick.published or ""))
    else:
        st.tell(f"{word}_began", ref, thing=pick.display, when=month(pick.start or ""))
    return [pick.iri, *(i for i in iris if i != pick.iri)]


def say_in_order(st: State, iris: list[str], *refs: str, counted: str = "") -> list[str]:
    """ "list his bat detectors in order": the works that have a start, earliest first, each with the month it
    began (at most eight said); returns them in that order, or nothing when fewer than two are dated. With
    `counted` (the question's words for them, when it asks how many), how many first."""
    dated = sorted((e for i in iris if (e := st.engine.entities.get(i)) is not None and e.start),
                   key=lambda e: e.start or "")  # fmt: skip
    if len(dated) < 2:
        return []
    said = "; ".join(f"{e.display} ({month(e.start or '')})" for e in dated[:8])
    if len(dated) > 8:
        said = st.engine.sentence("and_more", items=said, count=len(dated) - 8)
    if counted:  # "how many bat detectors has he built": how many, then which
        st.tell("counted_in_order", *refs, works=said, count=len(dated), what=counted)
    else:
        st.tell("in_order", *refs, works=said)
    return [e.iri for e in dated]


def during_role(st: State, role: Entity, *, of_kind_only: bool = False) -> bool:
    """The works made during a role (of the kind named, if any); with `of_kind_only`, no answer when none of them
    is of that kind, so that a later branch may find the ones described there ("talks at the meetup")."""
    run = st.run("during_role", {"role": role.iri})
    iris = column_iris(run, "work")
    made = [row["work"].value for row in run.rows if row["how"].value.startswith("made")]
    kind = st.q.kind_of_work
    of_kind: tuple[str, str] | None = None  # the kind of work asked for, and whether any was made in the role
    none_of_kind = False
    active: list[str] = []  # "hardware projects while at Acme", none made there: those active while it lasted
    if kind is not None:
        _, members = class_members(st, kind)  # "the talks she gave at the meetup": those of the kind only
        label, many = st.engine.class_labels[kind]
        of_kind = (label.lower(), many.lower())
        none_of_kind = not any(i in members for i in made)
        if none_of_kind and st.q.has("alongside"):
            active = [i for i in iris if i in members]
        if none_of_kind and of_kind_only and not active:
            return False
        if not none_of_kind:
            made, iris = [i for i in made if i in members], [i for i in iris if i in members]
    st.listed = list(active) if active else made + [i for i in iris if i not in made]  # what the query is cited for
    st.plan.route = "works_during_role"
    st.exact = True
    ref = st.read_query(run, ", ".join(labels(st, st.listed[:10])))
    say = st.engine.sentence
    span = say("works_during_role.span", start=(role.start or "?")[:7],
               end=role.end[:7] if role.end else say("works_during_role.now"))  # fmt: skip
    if not st.q.has("making"):  # "what did she do at Acme": what the role was, then what was made in it
        say_role(st, role)
    if not st.q.has("making") or st.q.has("count"):  # ... and "how many works came out of it" is about the role
        st.listed.insert(0, role.iri)
    else:  # "what did he build at Acme": the works made, then the role they were made in
        st.listed.insert(len(made), role.iri)
    if active and of_kind is not None:
        st.listed = [role.iri, *active] if st.q.has("count") else [*active, role.iri]
        st.tell("works_during_role.active", ref, role=role.label, span=span, count=len(active), one=of_kind[0],
                many=of_kind[1], works=names(labels(st, active), answer_limit(st)))  # fmt: skip
        return True
    if made:
        one, many = of_kind if of_kind is not None and not none_of_kind else ("work", "works")
        st.tell("works_during_role.made", ref, role=role.label, span=span, count=len(made), one=one, many=many,
                works=names(labels(st, made), answer_limit(st)))  # fmt: skip
    else:
        st.tell("works_during_role.none", ref, role=role.label, span=span)
    if made and of_kind is not None and none_of_kind:
        st.tell("works_during_role.none_of_kind", ref, one=of_kind[0])
    elif (first := say_ordinal(st, made, ref)) != made:
        st.listed = [*first, *(i for i in st.listed if i not in first)]
    side = len(iris) - len(made)
    if side > 0:
        st.tell("works_during_role.others", ref, count=side)
    return True


def say_role(st: State, role: Entity | None) -> None:
    """What a role was, in its graph description ("Article search, ranking and recommendations ...")."""
    if role is not None and role.description:
        text = role.description if role.description.endswith(".") else role.description + "."
        st.say(text[:1].upper() + text[1:], st.read_entity(role, st.run("facts", {"entity": role.iri})))


def entity_answer(st: State) -> bool:
    ents = st.q.entities
    more = {stem(w) for w in st.q.cue if w not in st.engine.stopwords and w not in st.engine.intents.filler}
    share = float(st.engine.weights["confidence"]["place_account_share"])
    if st.q.kind == "search" and more and ents[0].kind in ("place", "organisation") and \
            len(more & set(terms(ents[0].description))) < share * len(more):  # fmt: skip
        return False  # "the best restaurant in Berlin" is not a question about Berlin's place in her work, nor "did
        # her floating garden idea in Ghent win" (one word of four in Ghent's account), but "what does the collective
        # maintain" is answered by the collective's own account
    e = ents[0]
    if st.q.kind == "stack":  # "which game audio middleware does Widget use": the work's stack, whatever else is named
        e = next((x for x in ents if x.kind == "work"), e)
    if e.kind == "person":
        return False  # answered by about.person_named, before this branch
    role = st.q.role if e.kind in ("role", "organisation") else None
    if role is not None and not e.has_article:
        return during_role(st, role)
    st.listed = [e.iri]
    st.exact = True
    category = st.q.class_named if e.kind == "work" else None
    if category is not None and category[1] == "class" and category[0].rsplit("#", 1)[-1] not in e.classes:
        # "which map library does Widget use": not a library of the kind of work, the skill category so called
        category = next(((i, "category") for i in same_named(st, category[0])), category)
    owed = st.engine.quantities.owed(st.q.amount, st.q.class_words)  # "how many board revisions": not its boards
    if category is not None and category[1] == "concept" and e.kind == "work" and st.engine.skill_kind(category[0]):
        category = (category[0], "category")  # "which plants were used at the park": an owner's kind of skill
    if category is not None and category[1] == "category" and not owed and not category[0].endswith(
            st.engine.broad("broad_categories")):
        _stack_of_category(st, e, category[0])  # "what database does Widgeteer use"
        _say_part(st, e)
        return True
    if st.q.kind == "stack" and e.kind == "work":
        st.plan.route = "stack"
        say_stack(st, e)
        _say_part(st, e)
        return True
    facts = st.run("facts", {"entity": e.iri})
    st.plan.route = "entity"
    address = {"source": e.repository, "navigate": e.live}.get(st.q.kind)
    if address:  # "Widgeteer source code", "where can I try it": the address asked for, then the overview
        st.tell(f"entity.{st.q.kind}", st.read_entity(e, facts), address=address)
    if role is not None:  # an organisation's overview lists what she made there
        made = st.run("made_during_role", {"role": role.iri})
        st.listed += [row["work"].value for row in made.rows]
    if e.has_article:
        asked = _section_asked(st, e)
        if asked is not None:  # "Widget problems with sounds behind the listener": the section that says it
            st.plan.route = "passage"
            account(st, e, asked, facts)
            st.say(asked.passage.text, st.read_passage(asked))
            st.exact = False
            return True
        lead = st.engine.passages.leads.get(e.name)
        if lead is not None and not _amount_only_described(st, e, lead.text) and not _described_better(st, e, lead):
            st.say(lead.text, st.read_passage(PassageHit(lead, 0.0)))
            st.exact = False
            return True
    elif e.kind == "work" and (cued := _cued_nearby(st, e)) is not None:
        # "what went wrong with the Widget board", a part without an article: what the graph says of it, then
        # the section asked for in the article of the work it belongs to
        st.plan.route = "passage"
        st.say_account(e, facts)
        st.say(cued.passage.text, st.read_passage(cued))
        st.exact = False
        return True
    st.say_account(e, facts)
    return True


def say_stack(st: State, e: Entity) -> None:
    """ "Widget is built with X (language) and Y (library)": the work's stack, each skill with its category."""
    run = st.run("stack", {"work": e.iri})
    skills = [f"{r['skill'].label} ({r['categoryLabel'].value})" for r in run.rows]
    # "what audio middleware did Widget use": of its skills, the one or two whose own account holds every word of
    # the kind asked for but the question's cue words, first, and said with that account
    asked = {w for w in st.q.which_words - st.q.name_terms(e) if w not in st.engine.accounted}
    iris = column_iris(run, "skill")
    told = [s for i in iris if (s := st.engine.entities.get(i)) is not None
            and asked and asked <= set(terms(f"{s.label} {s.description}"))]  # fmt: skip
    told = told if len(told) <= 2 and len(told) < len(iris) else []
    first = [s.iri for s in told]
    st.listed += first + [i for i in iris if i not in first]
    st.tell("stack.built", st.read_query(run, ", ".join(skills)), work=e.display, skills=names(skills, 12))
    for s in told:
        st.say_account(s)


def _say_part(st: State, e: Entity) -> None:
    """After a work's stack, the passage of its article on the part the question asks of, if any ("what is its
    validation engine written in now")."""
    part = _section_asked(st, e) if e.has_article else None
    if part is not None:
        st.say(part.passage.text, st.read_passage(part))


def _cued_nearby(st: State, e: Entity) -> PassageHit | None:
    """The section a cue asks for (what went wrong, the results) in the article of a work one hop from `e`."""
    if not st.q.sections_asked:
        return None
    ents = st.engine.entities
    for row in st.run("neighbours", {"entity": e.iri}).rows:
        near = ents.get(row["neighbour"].value)
        if near is not None and near.has_article and near.kind == "work":
            cued = cued_section(st, near.name, about=tuple(terms(e.label)))
            if cued is not None:
                return cued
    return None


def _amount_only_described(st: State, e: Entity, lead: str) -> bool:
    """ "How many microphones does Widget use": the amount asked is in the graph's description of the thing,
    not in the opening of its article."""
    amount, amounts = st.q.amount, st.engine.quantities
    return amount is not None and amounts.states(e.description or "", amount) and not amounts.states(lead, amount)


def _described_better(st: State, e: Entity, lead: Passage) -> bool:
    """ "What does the Widget resolver use to skip hopeless lookups": the graph's description of the thing holds
    what is asked beyond its name, and the opening of its article holds less of it."""
    own = st.q.name_terms(e)
    asked = tuple(t for t in st.q.ask if t not in own)
    if not asked:
        return False
    index = st.engine.passages
    held = index.coverage_of(asked, st.engine.synonyms)
    described = held(set(terms(e.description or "")))
    return described >= float(st.engine.weights["confidence"]["answer_floor"]) and described > held(
        index.passage_terms(lead))


def _stack_of_category(st: State, e: Entity, category: str) -> None:
    """The skills of one category a work is built with ("which database does Widgeteer use"), or of one kind of
    skill ("which plants"), or that it uses none of them, from the work's stack."""
    run = st.run("stack", {"work": e.iri})
    kinds = {category, category.rsplit("#", 1)[-1]}  # an owner's kind by its IRI, the engine's by its name
    rows = [r for r in run.rows if r["category"].value == category
            or kinds & set(getattr(st.engine.entities.get(r["skill"].value), "classes", ()))]  # fmt: skip
    label, many = st.engine.class_labels[category]
    st.plan.route = "stack"
    st.exact = True
    # "which map library": of those, the ones whose own account holds what else the question asks, first
    asked = set(st.q.ask) - set(terms(f"{label} {many}"))
    told = [r for r in rows if (s := st.engine.entities.get(r["skill"].value)) is not None
            and asked & set(terms(f"{s.label} {s.description}"))]  # fmt: skip
    rows = told + [r for r in rows if r not in told]
    skills = [str(r["skill"].label) for r in rows]
    st.listed = [e.iri, *column_iris(run, "skill")] if not rows else [e.iri, *(r["skill"].value for r in rows)]
    if skills:
        # the things of the category asked ("what OS"), listed: the words for the part of the work ask nothing more
        # (one category: "which chip and language" asks for more than the chips)
        st.of_kind_asked = st.q.asks_which(category) and len(st.q.classes_named) == 1
        text = st.engine.sentence("stack.of_category", work=e.display, count=len(skills), one=label.lower(),
                                  many=many.lower(), skills=names(skills, 12))  # fmt: skip
    else:
        text = st.engine.sentence("stack.none_of_category", one=label.lower(), work=e.display)
    st.say(text, st.read_query(run, ", ".join(skills) or "none of that category"))
    if len(told) == 1:
        st.say_account(st.engine.entities[told[0]["skill"].value])


def account(st: State, about: Entity | None, hit: PassageHit, facts: QueryRun | None = None) -> None:
    """Before a section of a thing's article, the graph's own one-line account of the thing, which names its
    parts and numbers (the cellular automata of a cave generator, the keys of each half of a keyboard)."""
    if about is not None and about.description and hit.passage.kind != "lead":
        st.say_account(about, facts)


def stating_amount(st: State, article: str, hit: PassageHit | None, said: str = "") -> PassageHit | None:
    """For a question asking an amount ("how long does the check take", "how many stops"), the passage of the
    article that states one, when neither the passage chosen nor what is already `said` (a graph description)
    does: the best of the article's passages for the question's words that states it."""
    engine = st.engine
    amount = st.q.amount
    if amount is None:
        return None
    own = st.q.name_terms(e) if (e := engine.by_name.get(article)) is not None else set()
    query = tuple(t for t in st.q.terms if t not in own and t not in amount.form_words) or st.q.terms
    held = engine.passages.coverage_of(query, engine.synonyms)
    # what already states an amount, and how much of what it is an amount of it holds ("queries returned nothing")
    stated = [held(set(terms(text))) for text in (said, hit.passage.text if hit else "")
              if engine.quantities.states(text, amount)]  # fmt: skip
    for found in search_articles(engine.passages, query, engine.synonyms, engine.weights["article"], article=article):
        states = [h for h in found.passages if engine.quantities.states(h.passage.text, amount)]
        best = max(states, key=lambda h: held(engine.passages.passage_terms(h.passage)), default=None)
        if best is None:
            break
        if stated and max(stated) >= held(engine.passages.passage_terms(best.passage)):
            return None
        return best
    return None if stated else nearest_stating(st, article, amount)


def nearest_stating(st: State, article: str, amount: Quantity) -> PassageHit | None:
    """Where no passage of the article holds the question's words and states the amount, the passage stating it
    that is nearest the question in meaning, when near enough (weights.yaml meaning.amount_passage): "how long
    has it been going" of a blog, answered by "running since October 2014"."""
    engine = st.engine
    if engine.meaning is None:
        return None
    docs = [d for d in engine.passages.article_docs.get(article, ())
            if engine.quantities.states(engine.passages.docs[d].text, amount)]  # fmt: skip
    floor = float(engine.weights["meaning"]["amount_passage"])
    for doc, score in engine.meaning.nearest_of(st.q.asked, docs)[:1]:
        if score >= floor:
            if st.trace is not None:
                st.trace.add("meaning", f"the passage of {article} stating an amount nearest the question in "
                             f"meaning: {engine.passages.docs[doc].heading or 'its opening'} ({score:.2f})",
                             article=article, cosine=round(score, 3))  # fmt: skip
            return PassageHit(engine.passages.docs[doc], 0.0)
    return None


def cued_section(
    st: State, article: str, kinds: tuple[str, ...] = (), about: tuple[str, ...] = ()
) -> PassageHit | None:
    """ "What did the Widget paper find": the opening of the section a cue of the question asks for ("Findings",
    intents.yaml section_asked_by); how and why, which the explain branch weighs against the question's words,
    only among `kinds` and by the heading's own word ("Why she built it"); with `about`, the passage of that section
    holding those words best, else its opening."""
    intents, index = st.engine.intents, st.engine.passages
    asked = [kind for kind in st.q.sections_asked if (kind in kinds) == (kind in ("how", "why"))]
    first = 1 if kinds else None
    wanted = list(dict.fromkeys(stem(w) for kind in asked for w in intents.sections.get(kind, ())[:first]))
    if not wanted:
        return None
    # the section whose heading holds the kind's earliest word ("Results" before "Lessons"), first in the article;
    # of how, with no heading of its own word, one of its other words ("how is it put together": "Architecture")
    rank = {w: n for n, w in enumerate(wanted)}
    if "how" in asked and not any(rank.keys() & index.section_terms[d] for d in index.article_docs.get(article, ())):
        rank = {stem(w): n for n, w in enumerate(intents.sections.get("how", ()))}
    docs = [doc for doc in index.article_docs.get(article, ()) if rank.keys() & index.section_terms[doc]]
    docs.sort(key=lambda d: min(rank[t] for t in index.section_terms[d] if t in rank))
    if about and docs:  # of the section's passages, the one about the part asked of ("the call detector")
        heading = index.docs[docs[0]].heading
        scores = index.bm25({t: 1.0 for t in about}, [d for d in docs if index.docs[d].heading == heading])
        best = max(scores, key=lambda d: (scores[d], -d), default=None)
        if best is not None:
            return PassageHit(index.docs[best], scores[best])
    return PassageHit(index.docs[docs[0]], 0.0) if docs else None


def _section_asked(st: State, e: Entity) -> PassageHit | None:
    """The section of a named thing's article holding what the question asks of it beyond its name (two or more
    words the overview does not hold), when its lead does not."""
    engine = st.engine
    cued = cued_section(st, e.name)
    if cued is not None:
        return cued
    lead = engine.passages.leads.get(e.name)
    amount = stating_amount(st, e.name, PassageHit(lead, 0.0) if lead else None, e.description or "")
    if amount is not None:  # "how long does Widgeteer take on the biggest feed": the passage that says how long
        return amount
    own = st.q.name_terms(e)
    inner = tuple(t for t in st.q.terms if t not in own and t not in engine.accounted)
    if len(inner) < 2:
        return None
    hit = best_passage_for(engine.passages, e.name, inner, engine.synonyms, engine.weights["article"])
    if hit is None or lead is None or hit.passage.id == lead.id:
        return None
    floor = float(engine.weights["confidence"]["answer_floor"])
    share = engine.passages.coverage_of(inner, engine.synonyms)
    held, overview = share(engine.passages.passage_terms(hit.passage)), share(engine.passages.passage_terms(lead))
    return hit if held >= floor and overview < floor else None
