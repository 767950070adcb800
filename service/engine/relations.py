"""Questions about one named thing's dates, or about the things it is related to, answered from the graph.

"since when?" after a work, "when did he start Widgeteer": the work's own dates (entity-facts). "what replaced
Gadgeteer?", "what is Widgeteer made of?": the neighbours through the property the question names, by the
property's label or one of the other names the ontology gives it (skos:altLabel, queries/relation-names.rq),
so a new relation is an edit of the ontology, not of Python.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from service.engine.catalog import Entity
from service.engine.intents import Phrase
from service.engine.retrieve import best_passage_for
from service.engine.routes import (
    class_members,
    dated_labels,
    day,
    labels,
    month,
    months_spanned,
    names,
    same_named,
    say_stack,
)
from service.engine.state import State
from service.engine.texts import described_among
from service.text import fold, stem, terms
from service.text import words as words_of
from service.vocab import PF


def dates(st: State) -> bool:
    """ "when did he start Widgeteer", "how long did Gadgeteer take": a named work's start, end and publication."""
    stack = st.q.kind == "stack"  # "what was Widget built with, and when": its dates, then its stack
    if st.q.ask:  # "how long did the battery last": a part of the work, not the work's own dates
        return False
    e = next(e for e in st.q.entities if e.kind == "work")  # "when did Ada start working on Widget": the work's
    kind = st.q.kind_of_work
    if kind is not None and kind.rsplit("#", 1)[-1] not in e.classes:
        return False  # "when did she give a talk about it": the talk's date, not the work's
    facts = st.run("facts", {"entity": e.iri})
    values = {r["property"].value.rsplit("#", 1)[-1]: r["value"].value for r in facts.rows}
    start, end, published = values.get("startDate"), values.get("endDate"), values.get("published")
    if not start:
        return False
    say = st.engine.sentence
    short = False  # a work of a few days (a jam, a workshop): its description says what the days held
    if end:
        finish, began = date.fromisoformat(end[:10]), date.fromisoformat(start[:10])
        months = months_spanned(start, end)
        short = (finish - began).days < int(st.engine.weights["dates"]["to_the_day_under"])
        if short:  # a jam, not "1 month"
            days = (finish - began).days + 1
            span = say("dates.days" if days > 1 else "dates.day", began=day(began), ended=day(finish),
                       days=days)  # a talk, given on one day  # fmt: skip
        else:
            span = say("dates.months", began=month(start), ended=month(end), months=months)
    else:
        span = say("dates.since", began=month(start))
    given = bool(end) and start[:10] == (end or "")[:10] and "Talk" in e.classes
    text = say("dates.given" if given else "dates.ran" if end else "dates.has_run", thing=e.display, span=span)
    if not end and "Talk" in e.classes:  # a talk with no end date was given, not begun: "since" is no answer
        given, text = True, say("dates.given_in", thing=e.display, month=month(start))
    if published and not (given and published[:7] == start[:7]):  # a talk is published when it is given
        text += " " + say("dates.published_in" if values.get("venue") else "dates.published", month=month(published),
                          venue=values.get("venue"))  # fmt: skip
    if (st.q.has("where") or "Talk" in e.classes or short) and e.description:  # where and when, what the days held
        text += f" {e.description}"
    st.plan.route = "dates"
    st.exact = True
    st.listed = [e.iri]
    st.say(text, st.read_entity(e, facts))
    if stack:
        say_stack(st, e)
    return True


def _of_category(st: State, iri: str, category: str) -> bool:
    """Whether the thing may be what a skill category asked stands for: a skill of that category, or another
    work ("Widgeteer replaced which tool": Gadgeteer), not a dataset or a theme."""
    e = st.engine.entities.get(iri)
    return e is not None and (e.kind == "work" or e.category == category)


def relation(st: State) -> bool:
    """The things one named entity is related to through the property the question names."""
    ents = [e for e in st.q.entities if e.kind != "person"][:3]  # the person is every question's subject
    asked = list(st.q.relations_asked)
    # "what does Widgeteer's successor run on": a stack asked of the related thing is still the relation's
    if not asked:
        return False
    if not ents:  # "how many components does widgeteer have": a name read as a word, of which a relation is asked
        ents = [st.engine.entities[i] for text in st.q.linked.skipped for i in st.engine.linker.link(text, strict=False)
                .entities if i in st.engine.entities and st.engine.entities[i].kind != "person"][:3]  # fmt: skip
    if not ents:
        return False
    # "which database does Widgeteer store its data in": a skill category asked of a work is of its stack, and a
    # relation ("data": its datasets) answers only with things of that category
    category = st.q.class_named
    of_category = category[0] if category is not None and category[1] == "category" and st.q.asks_which(
        category[0]) else None  # fmt: skip
    longest = max(len(key) for key, _ in asked)
    chosen = [(key, prop) for key, prop in asked if len(key) == longest]
    wanted = {prop for _, prop in chosen}
    for e in ents:  # the named thing that has the relation asked about ("hearing aids" may only be context)
        mark = st.checkpoint()
        run = st.run("neighbours", {"entity": e.iri})
        rows = [r for r in run.rows if r["property"].value in wanted]
        if of_category is not None and e.kind == "work":
            rows = [r for r in rows if _of_category(st, r["neighbour"].value, of_category)]
        ahead = [r for r in rows if r["direction"].value == "out"]
        # "Widget replaced which tool", "what is Widget the successor of": named before the relation's words, the
        # thing may be what does it to others ("Gadget: succeeded by Widget"), not only what others do to it
        behind = [r for r in rows if r["direction"].value == "in"] if _named_before(st, e, [k for k, _ in chosen]) \
            else []  # fmt: skip
        if ahead or behind:
            break
        st.rollback(mark)
    else:
        return False
    counted = st.q.has("count")  # "how many parts does it have": the number first
    say = st.engine.sentence
    said = [say("relation.to_it", things=names(labels(st, iris), 8), relation=label, thing=e.display)
            for label, iris in _by_property(behind).items()]
    if ahead:
        said.append(say("relation.of_it", thing=e.display, relations="; ".join(
            say("relation.relation_counted" if counted else "relation.relation", relation=label, count=len(iris),
                things=names(_with_organisation(st, iris), 8)) for label, iris in _by_property(ahead).items())))
    st.plan.route = "relation"
    st.exact = True
    related = list(dict.fromkeys(r["neighbour"].value for r in behind + ahead))
    st.listed = [e.iri, *related]
    st.subject = e.iri
    st.say(". ".join(said) + ".", st.read_query(run, "; ".join(said)))
    other = st.engine.entities.get(related[0]) if len(related) == 1 else None
    if other is not None and other.description and st.q.amount is not None:
        # "how many keys does its successor have": the one related thing's own account holds the amount
        st.say_account(other)
    elif e.description and set(st.q.ask) & set(terms(e.description)):
        # "which parts of the firmware did he own": the named thing's own account says what else is asked
        st.say_account(e)
    return True


def fact(st: State) -> bool:
    """ "where was the classifier paper published", "Widget venue": a value of one thing named (or, of the kind of
    work named, the one its description makes the question about) through the property the question names by its
    label or another name the ontology gives it (queries/relation-names.rq, the facts); with its publication."""
    asked = set(st.q.facts_asked)
    if not asked:
        return False
    ents = [e for e in st.q.entities if e.kind != "person"][:3]
    kind = st.q.kind_of_work
    if not ents and (st.q.has("where") or st.q.has("time")):  # "the classifier paper": the work so described
        own = {stem(w) for key, prop in st.engine.facts_named if prop in asked for w in key}
        words = tuple(t for t in st.q.ask if t not in own)
        among = class_members(st, kind)[1] if kind is not None else set(st.engine.described)
        ents = described_among(st, list(among), words)[:1]
    for e in ents:
        mark = st.checkpoint()
        facts = st.run("facts", {"entity": e.iri})
        rows = [r for r in facts.rows if r["property"].value in asked and not _stated(st, r["value"].value)]
        if rows:
            break
        st.rollback(mark)
    else:
        return False
    values = {r["property"].value: r["value"].value for r in facts.rows}
    said = "; ".join(f"{r['propertyLabel'].value} {r['value'].value}" for r in rows)
    published = values.get(PF + "published")
    told = published and PF + "published" not in asked
    st.plan.route = "fact"
    st.exact = True
    st.listed = [e.iri]
    st.subject = e.iri
    st.tell("fact.published" if told else "fact.values", st.read_entity(e, facts), thing=e.display, values=said,
            month=month(published) if told and published else "")  # fmt: skip
    return True


def _stated(st: State, value: str) -> bool:
    """Whether the question already says a value (two or more of its words, numbers aside): "when did he speak at
    the Sound Code Conference" names the talk by its venue and asks when, not where."""
    said = [t for t in terms(value) if not t.isdigit()]
    return len(said) > 1 and set(said) <= set(terms(st.q.normalized))


def _by_property(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The neighbours of the rows by the label of the property relating them."""
    by_property: dict[str, list[str]] = {}
    for r in rows:
        by_property.setdefault(r["propertyLabel"].value, []).append(r["neighbour"].value)
    return by_property


def _named_before(st: State, e: Entity, keys: list[Phrase]) -> bool:
    """Whether the question names the thing just before the words of the relation ("Widget replaced which tool",
    "what is Widget the successor of"), so it asks what the thing is to others, not what others are to it; not
    "how does Widget decide which night a detection belongs to", where the relation is of something else."""
    end = next((m.end for m in st.q.linked.mentions if e.iri in m.iris), None)
    if end is None:  # a name read as a word ("what is widgeteer the successor of")
        if not st.q.skipped_ends:
            return False
        end = st.q.skipped_ends[0]
    if st.q.possessive_at(end):
        return False  # "Widget's successor": the relation of the thing
    near = int(st.engine.weights["relations"]["named_before_within"])
    words = st.q.words_after(end)
    keys = [key for key in keys if key not in st.engine.classes]  # "the Widget dataset" names its kind, no relation
    return any(words[i : i + len(key)] == list(key) for key in keys for i in range(min(near + 1, len(words))))


def _with_organisation(st: State, iris: list[str]) -> list[str]:
    """Names, a role's with its organisation when its name leaves it out ("made during Volunteer (Acme)")."""
    out = []
    for iri, label in zip(iris, labels(st, iris), strict=True):
        e = st.engine.entities.get(iri)
        org = st.engine.entities.get(e.organisation or "") if e is not None and e.kind == "role" else None
        out.append(st.engine.sentence("relation.with_organisation", role=label, organisation=org.label)
                   if org is not None and org.label not in label else label)  # fmt: skip
    return out


def of_kind(st: State) -> bool:
    """ "has he given a talk about Widgeteer", "papers about Gadgeteer": the works of the kind named that the one
    thing named is related to in the graph, through any property, either way."""
    e = next(e for e in st.q.entities if e.kind != "person")
    kind = st.q.kind_of_work
    assert kind is not None
    if e.kind != "work" or kind.rsplit("#", 1)[-1] in e.classes:  # "the Widgeteer library" is Widgeteer itself
        return False
    mark = st.checkpoint()
    members, of_kind_iris = class_members(st, kind)
    run = st.run("neighbours", {"entity": e.iri})
    found = list(dict.fromkeys(r["neighbour"].value for r in run.rows if r["neighbour"].value in of_kind_iris))
    if not found and any(r["property"].value == PF + "venue" for r in st.run("facts", {"entity": e.iri}).rows):
        st.rollback(mark)  # "which workshop was the paper in": its venue, not the talks related to it
        return False
    label, many = st.engine.class_labels[kind]
    if not found and not members.rows:
        st.rollback(mark)  # "what software was used for the Elbe Steps" where no work is software: its tools
        return False
    if not found and same_named(st, kind):
        st.rollback(mark)  # "what solver library does it use": no work of the kind, but perhaps a skill so called
        return False
    st.plan.route = "relation"
    st.exact = True
    st.listed = [*found, e.iri]
    if not found:
        st.tell("relation.none_of_kind", st.read_query(run, f"{len(run.rows)} rows, none a {label.lower()}"),
                one=label.lower(), thing=e.display)  # fmt: skip
        return True
    said = names(labels(st, found), 8)
    ref = st.read_query(run, said)
    st.tell("relation.of_kind", ref, count=len(found), one=label.lower(), many=many.lower(), thing=e.display,
            works=names(dated_labels(st, found, full=True), 8) if len(found) <= 3 else said)  # a few, dated
    st.read_query(members, ", ".join(labels(st, found)))
    return True


def described_neighbour(st: State) -> bool:
    """ "what does the resolver use to skip hopeless lookups", "which edit distance does the spelling service use":
    of the things one named work is related to, the one whose own description holds what the question asks
    beyond the work's name, better than the work's own description and article do (or named by the article's
    passage that holds it most); said with its description and the passage of the work's article that names it."""
    work = next(e for e in st.q.entities if e.kind == "work")
    own = st.q.name_terms(work)
    asked = tuple(t for t in st.q.ask if t not in own)
    if not asked:
        return False
    engine = st.engine
    held = engine.passages.coverage_of(asked, engine.synonyms)
    mark = st.checkpoint()
    run = st.run("neighbours", {"entity": work.iri})
    said_words = set(st.q.said)
    scored: dict[str, tuple[float, bool]] = {}
    how: dict[str, tuple[str, str]] = {}  # the property and direction it is related by
    for r in run.rows:
        e = engine.entities.get(r["neighbour"].value)
        if e is not None and e.iri in scored and r["direction"].value == "out":
            how[e.iri] = (r["propertyLabel"].value, "out")  # "Widget: uses X" reads better than "X: used by Widget"
        if e is None or e.kind in ("person", "role") or e.iri in scored:
            continue
        # "what solver library": of those described so, the ones of the kind or category the question names
        category = engine.class_labels.get(e.category or "", ("", ""))
        named = bool(set(words_of(f"{category[0]} {category[1]}")) & said_words)
        account = f"{e.label} {e.short or ''} {e.description} {category[0]}"  # its names, description, category
        scored[e.iri] = (held(set(terms(account))), named)
        how[e.iri] = (r["propertyLabel"].value, r["direction"].value)
    floor = float(engine.weights["relations"]["described_floor"])
    best = max(scored.values(), default=(0.0, False))
    if best[0] < floor:
        st.rollback(mark)
        return False
    passage = best_passage_for(engine.passages, work.name, asked, engine.synonyms, engine.weights["article"]) \
        if work.has_article else None  # fmt: skip
    told = max(held(set(terms(f"{work.label} {work.description}"))),
               held(engine.passages.passage_terms(passage.passage)) if passage is not None else 0.0)  # fmt: skip
    found = [engine.entities[i] for i, score in scored.items() if score == best]
    # nothing related says more of it than the work's own account or article, unless the article's passage that
    # says it most names the one thing so described ("the solver is the routing library of Widget-Tools")
    naming = best_passage_for(engine.passages, work.name, (*terms(found[0].label), *asked), engine.synonyms,
                              engine.weights["article"]) if work.has_article and len(found) == 1 else None  # fmt: skip
    agreed = naming is not None and fold(found[0].label) in fold(naming.passage.text) and held(
        engine.passages.passage_terms(naming.passage)) >= told  # fmt: skip
    if best[0] <= told and not agreed:
        st.rollback(mark)
        return False
    prop, direction = how[found[0].iri]
    st.plan.route = "relation"
    st.exact = True
    st.listed = [*(e.iri for e in found), work.iri]
    st.subject = work.iri
    said = names([e.label for e in found], 6)
    st.tell(f"relation.{direction}", st.read_query(run, said), thing=work.display, relation=prop, things=said)
    if len(found) == 1:
        st.say_account(found[0])
        if naming is not None and fold(found[0].label) in fold(naming.passage.text):
            st.say(naming.passage.text, st.read_passage(naming))  # how the work uses it, in its own article
    return True
