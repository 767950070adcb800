"""The planning branches (main seed, Algorithm 4). Each returns True when it answered the question.

Every graph fact in an answer comes from a stored query the branch ran through `State.run`, so the plan
carries the exact SPARQL; every sentence cites what it was read from.
"""

from __future__ import annotations

from datetime import date, timedelta

from service.engine.catalog import CONCEPTS, Entity
from service.engine.intents import contains
from service.engine.link import tokenize
from service.engine.retrieve import PassageHit, best_passage_for
from service.engine.state import State
from service.queries import QueryRun
from service.text import terms

_VERB = {"skill": "use", "theme": "sit under", "technique": "implement", "dataset": "use"}


def names(labels: list[str], limit: int, joiner: str = "and") -> str:
    """'A', 'A and B', 'A, B and C', or 'A, B, C and 4 more'."""
    if not labels:
        return ""
    if len(labels) > limit:
        return ", ".join(labels[:limit]) + f" and {len(labels) - limit} more"
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" {joiner} " + labels[-1]


def _labels(st: State, iris: list[str]) -> list[str]:
    return [st.engine.entities[i].display for i in iris if i in st.engine.entities]


def _column_iris(run: QueryRun, column: str) -> list[str]:
    return [row[column].value for row in run.rows if column in row and row[column].kind == "iri"]


def _limit(st: State) -> int:
    return int(st.engine.weights["results"]["answer_list"])


def _key_first(st: State, iris: list[str]) -> str:
    """'Key work: A, B and C.' for the tier-1 works among the IRIs, if any."""
    keys = [i for i in iris if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
    return f"Key work first: {names(_labels(st, keys), _limit(st))}." if keys else ""


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# ---------------------------------------------------------------------------- ambiguous


def ambiguous(st: State) -> bool:
    """A name shared by several entities: list them, and let the visitor choose."""
    mention = st.linked.ambiguous[0]
    st.plan.route = "ambiguous"
    options = [st.engine.entities[i] for i in mention.iris if i in st.engine.entities]
    refs = [st.read_entity(e, st.run("facts", {"entity": e.iri})) for e in options]
    st.listed = [e.iri for e in options]
    st.say(f"“{mention.text}” can mean {names([e.label for e in options], 5, 'or')}. Which one do you mean?", *refs)
    return True


# -------------------------------------------------------------------------------- pivot


def pivot(st: State) -> bool:
    """A technology the graph lacks: say the graph lists no such work, and show what is used instead."""
    if st.kind == "define" or any(k in ("skill", "technique") for k in st.linked_kinds()):
        return False
    found = st.engine.absent_linker.link(st.plan.normalized).entities
    if not found:
        return False
    absent = st.engine.absent[found[0]]
    category = st.engine.pf(absent.category)
    _, plural = st.engine.category_label(category)
    evidence = st.run("absent_evidence", {"name": absent.label})
    skills = st.run("category_skills", {"category": category})
    works = st.run("category_works", {"category": category})
    used = [r for r in skills.rows if int(r["works"].value) > 0][:3]
    all_works = _column_iris(works, "work")
    keys = [i for i in all_works if st.engine.entities.get(i) and st.engine.entities[i].tier == 1]
    st.listed = keys or all_works
    st.plan.route = "pivot"
    st.exact = True
    st.say(
        f"The graph lists no {absent.label} work: no work uses a skill named {absent.label}.",
        st.read_query(evidence, f"{len(evidence.rows)} rows"),
    )
    if used:
        counts = ", ".join(r["works"].value for r in used)
        st.say(
            f"The {plural} she does use most are {names([r['skill'].label or '' for r in used], 3)} "
            f"({counts} works{' each' if len(used) > 1 else ''}).",
            st.read_query(skills, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used)),
        )
    if st.listed:
        lead = "Key work in them" if keys else "Work in them"
        st.say(
            f"{lead}: {names(_labels(st, st.listed), 4)}.",
            st.read_query(works, ", ".join(_labels(st, st.listed[:8]))),
        )
    return True


# --------------------------------------------------------------------------- comparison


def comparison(st: State) -> bool:
    ents = st.entities
    if not st.has("compare") or len(ents) < 2:
        return False
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
    return True


# -------------------------------------------------------------------------------- count


def count(st: State) -> bool:
    if not st.has("count"):
        return False
    ents = st.entities
    if ents and all(e.kind in CONCEPTS for e in ents):
        e = ents[0]
        run = st.run("count", {"concept": e.iri})
        n = int(run.rows[0]["works"].value) if run.rows else 0
        st.plan.route = "count"
        st.exact = True
        candidate = st.engine.routes["candidates"].get(e.kind)
        if candidate:
            listing = st.run(candidate["query"], {candidate["param"]: e.iri})
            st.listed = _column_iris(listing, "work")
        verb = _VERB.get(e.kind, "use")
        st.say(f"{_plural(n, 'work', 'works')} {verb + 's' if n == 1 else verb} {e.display}.",
               st.read_query(run, str(n)))  # fmt: skip
        return True
    if not ents:
        found = _class_named(st)
        if found:
            return class_list(st, found, counting=True)
    return False


# ------------------------------------------------------------------------------- period


def period(st: State) -> bool:
    if st.kind in ("define", "explain", "contact", "navigate", "source", "stack"):
        return False
    role = _role_named(st)
    if role is not None and st.period is None and (st.has("during") or st.kind in ("fact", "search", "list")):
        return during_role(st, role)
    if st.period is None:
        return False
    outside = [t.word for t in tokenize(st.plan.normalized.lower().replace(st.period.text, " "))]
    if not st.about_her() and any(w not in st.engine.stopwords and w not in st.engine.intents.filler for w in outside):
        return False  # "who won the world cup in 2018?" names a year, not her work
    start, end = st.period.iso()
    works = st.run("period", {"start": start, "end": end})
    roles = st.run("period_roles", {"start": start, "end": end})
    iris = _column_iris(works, "work")
    st.listed = iris
    st.plan.route = "works_in_period"
    st.exact = True
    when = _when(st.period.start, st.period.end)
    if iris:
        st.say(
            f"{_plural(len(iris), 'work was', 'works were')} active {when}. {_key_first(st, iris)}".strip(),
            st.read_query(works, ", ".join(_labels(st, iris[:10]))),
        )
        if not _key_first(st, iris):
            st.say(f"Among them: {names(_labels(st, iris), _limit(st))}.", st.read_query(works, ""))
    else:
        st.say(f"No work in the graph was active {when}.", st.read_query(works, "0 rows"))
    held = [r["role"].label or r["role"].value for r in roles.rows]
    if held:
        st.say(f"Her roles then: {names(held, 4)}.", st.read_query(roles, ", ".join(held)))
    return True


def _when(start: date, end: date) -> str:
    if start == end:
        return f"on {start:%-d %B %Y}"
    return f"between {start:%-d %B %Y} and {end:%-d %B %Y}"


def _role_named(st: State) -> Entity | None:
    for e in st.entities:
        if e.kind == "role":
            return e
        if e.kind == "organisation" and st.engine.roles_by_org.get(e.iri):
            return st.engine.entities[st.engine.roles_by_org[e.iri][0]]
    return None


def during_role(st: State, role: Entity) -> bool:
    run = st.run("during_role", {"role": role.iri})
    iris = _column_iris(run, "work")
    made = [row["work"].value for row in run.rows if row["how"].value.startswith("made")]
    st.listed = made + [i for i in iris if i not in made]
    st.plan.route = "works_during_role"
    st.exact = True
    ref = st.read_query(run, ", ".join(_labels(st, st.listed[:10])))
    when = f"{(role.start or '?')[:7]} to {role.end[:7] if role.end else 'now'}"
    if made:
        st.say(
            f"As {role.label} ({when}) she made {_plural(len(made), 'work', 'works')}: "
            f"{names(_labels(st, made), _limit(st))}.",
            ref,
        )
    else:
        st.say(f"The graph attaches no work to her role as {role.label} ({when}).", ref)
    side = len(iris) - len(made)
    if side > 0:
        st.say(f"{_plural(side, 'other work was', 'other works were')} active in that time.", ref)
    return True


# --------------------------------------------------------------------------- class list


def _class_named(st: State) -> tuple[str, str] | None:
    words = st.cue
    for key, value in sorted(st.engine.classes.items(), key=lambda kv: -len(kv[0])):
        if contains(words, key):
            return value
    return None


def class_list(st: State, found: tuple[str, str] | None = None, *, counting: bool = False) -> bool:
    if found is None:
        if st.entities:
            return False
        found = _class_named(st)
        if found is None or found[0].endswith(("#Work", "#Project", "#Software")):
            return False
    iri, kind = found
    label, plural = st.engine.class_labels[iri]
    st.exact = True
    if kind == "class":
        run = st.run("class_list", {"class": iri})
        iris = _column_iris(run, "work")
        st.listed = iris
        st.plan.route = "class_list"
        ref = st.read_query(run, ", ".join(_labels(st, iris[:10])))
        st.say(f"The graph lists {_plural(len(iris), label.lower(), plural)}.", ref)
        if iris:
            st.say(f"Key work first: {names(_labels(st, iris), _limit(st))}.", ref)
    else:
        run = st.run("category_skills", {"category": iri})
        used = [r for r in run.rows if int(r["works"].value) > 0]
        st.listed = [r["skill"].value for r in used]
        st.plan.route = "category_list"
        ref = st.read_query(run, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in used[:10]))
        st.say(
            f"She has used {_plural(len(used), label, plural)}, most used first: "
            + names([f"{r['skill'].label} ({r['works'].value})" for r in used], 8)
            + ".",
            ref,
        )
    if counting:
        st.plan.route = "count"
    return True


# ------------------------------------------------------------------- authored and canned


def authored(st: State, key: str) -> bool:
    item = next(a for a in st.engine.authored if a.key == key)
    st.exact = True
    if item.route:
        return canned_route(st, item.route)
    st.plan.route = "about" if item.group == "about" else item.key
    refs = []
    for name in item.cite:
        e = st.engine.by_name.get(name)
        if e is not None:
            refs.append(st.read_entity(e, st.run("facts", {"entity": e.iri})))
            st.listed.append(e.iri)
    text = (item.text or "").replace("{email}", st.engine.kb.site.contact_email)
    st.say(text.strip(), *refs)
    return True


def canned_route(st: State, route: str) -> bool:
    st.plan.route = route
    if route == "recent":
        since = (st.today - timedelta(days=365)).isoformat()
        run = st.run("recent", {"since": since})
        st.listed = _column_iris(run, "work")
        ref = st.read_query(run, ", ".join(_labels(st, st.listed)))
        st.say(f"Most recent work first: {names(_labels(st, st.listed), _limit(st))}.", ref)
        latest = run.rows[0]["last"].value[:7] if run.rows else ""
        if latest:
            st.say(f"The latest activity in the graph is from {latest}.", ref)
    elif route == "career":
        person = st.engine.by_name.get(st.engine.kb.site.person)
        run = st.run("career", {"person": person.iri if person else ""})
        st.listed = _column_iris(run, "role")
        ref = st.read_query(run, "; ".join(r["role"].label or "" for r in run.rows))
        steps = [f"{r['role'].label} ({r['roleStart'].value[:4]}–{r['roleEnd'].value[:4] if 'roleEnd' in r else 'now'})"
                 for r in run.rows]  # fmt: skip
        st.say(f"Her roles, most recent first: {'; '.join(steps)}.", ref)
    elif route == "skills":
        run = st.run("skills")
        st.listed = _column_iris(run, "skill")
        ref = st.read_query(run, ", ".join(f"{r['skill'].label}: {r['works'].value}" for r in run.rows))
        st.say(
            "The skills her works use most: "
            + names([f"{r['skill'].label} ({r['works'].value})" for r in run.rows], 10)
            + ".",
            ref,
        )
    else:
        return False
    return True


# --------------------------------------------------------------------- define and explain


def define(st: State) -> bool:
    ents = [e for e in st.entities if e.kind != "work"]
    if st.kind != "define" or not ents or st.unknown_rest():
        return False
    e = ents[0]
    st.plan.route = "definition"
    st.exact = True
    st.listed = [e.iri]
    if e.kind in CONCEPTS:
        run = st.run("definition", {"concept": e.iri})
        ref = st.read_query(run, e.description)
        row = run.rows[0] if run.rows else {}
        text = row["description"].value if "description" in row else e.description
        st.say(f"{e.label}: {text}", ref)
        n = int(row["works"].value) if "works" in row else 0
        if n:
            st.say(f"{_plural(n, 'work', 'works')} in the portfolio {'uses' if n == 1 else 'use'} it.", ref)
    else:
        run = st.run("facts", {"entity": e.iri})
        st.say(f"{e.label}: {e.description}", st.read_entity(e, run))
    return True


def explain(st: State) -> bool:
    if st.kind != "explain":
        return False
    hit = _best_passage(st)
    if hit is None:
        return False
    about = st.engine.by_name.get(hit.passage.article)
    if about not in st.entities:  # not from the article of what was named: it must hold the question
        st.support = _support(st, hit)
        if not _enough(st, st.support, "explain_floor"):
            return False
    st.plan.route = "explain"
    about = st.engine.by_name.get(hit.passage.article)
    st.listed = [about.iri] if about else []
    st.say(hit.passage.text, st.read_passage(hit))
    return True


def _best_passage(st: State) -> PassageHit | None:
    """The passage answering the question: in the article of what is named, else the best article's."""
    weights = st.engine.weights["article"]
    for e in st.entities:
        if e.has_article:
            hit = best_passage_for(st.engine.passages, e.name, st.terms, st.engine.synonyms, weights)
            if hit is not None and (hit.score > 0 or not st.hits):
                return hit
    return st.hits[0].best if st.hits else None


# -------------------------------------------------------------------------- works with all


def with_all(st: State) -> bool:
    concepts = [e for e in st.entities if e.kind in CONCEPTS]
    if len(concepts) < 2:
        return False
    if len(concepts) == 2:
        run = st.run("with_two", {"first": concepts[0].iri, "second": concepts[1].iri})
    else:
        run = st.run("with_three", {"first": concepts[0].iri, "second": concepts[1].iri, "third": concepts[2].iri})
        concepts = concepts[:3]
    iris = _column_iris(run, "work")
    st.listed = iris
    st.plan.route = "works_with_all"
    st.exact = True
    together = names([c.display for c in concepts], 3)
    ref = st.read_query(run, ", ".join(_labels(st, iris[:10])))
    if iris:
        st.say(f"{_plural(len(iris), 'work combines', 'works combine')} {together}: "
               f"{names(_labels(st, iris), _limit(st))}.", ref)  # fmt: skip
    else:
        st.say(f"No work in the graph combines {together}.", ref)
    return True


# -------------------------------------------------------------- concept, entity, passage


def concept_works(st: State) -> bool:
    ents = st.entities
    if not ents or ents[0].kind not in CONCEPTS or st.unknown_rest():
        return False
    e = ents[0]
    candidate = st.engine.routes["candidates"].get(e.kind)
    if not candidate:
        return False
    run = st.run(candidate["query"], {candidate["param"]: e.iri})
    iris = _column_iris(run, "work")
    if not iris:
        return False
    st.listed = iris
    st.plan.route = "concept_works"
    st.exact = True
    verb = _VERB.get(e.kind, "use")
    ref = st.read_query(run, ", ".join(_labels(st, iris[:10])))
    st.say(f"{_plural(len(iris), 'work', 'works')} {verb + 's' if len(iris) == 1 else verb} {e.display}. "
           f"{_key_first(st, iris) or 'Among them: ' + names(_labels(st, iris), _limit(st)) + '.'}", ref)  # fmt: skip
    if e.has_article and st.kind in ("explain", "search", "entity"):
        hit = best_passage_for(st.engine.passages, e.name, st.terms, st.engine.synonyms, st.engine.weights["article"])
        if hit is not None:
            st.say(hit.passage.text, st.read_passage(hit))
    return True


def entity_answer(st: State) -> bool:
    ents = st.entities
    if not ents or st.unknown_rest():
        return False
    asks_more = any(w not in st.engine.stopwords and w not in st.engine.intents.filler for w in st.cue)
    if st.kind == "search" and asks_more and ents[0].kind in ("place", "organisation"):
        return False  # "the best restaurant in Berlin" is not a question about Berlin's place in her work
    e = ents[0]
    if e.kind == "person":
        return authored(st, "who")
    role = _role_named(st) if e.kind in ("role", "organisation") else None
    if role is not None and not e.has_article:
        return during_role(st, role)
    st.listed = [e.iri]
    st.exact = True
    if st.kind == "stack" and e.kind == "work":
        run = st.run("stack", {"work": e.iri})
        st.plan.route = "stack"
        skills = [f"{r['skill'].label} ({r['categoryLabel'].value})" for r in run.rows]
        st.listed += _column_iris(run, "skill")
        st.say(f"{e.display} is built with {names(skills, 12)}.", st.read_query(run, ", ".join(skills)))
        return True
    facts = st.run("facts", {"entity": e.iri})
    st.plan.route = "entity"
    if role is not None:  # an organisation's overview lists what she made there
        made = st.run("during_role", {"role": role.iri})
        st.listed += [row["work"].value for row in made.rows if row["how"].value.startswith("made")]
    if e.has_article:
        lead = next((p for p in st.engine.passages.docs if p.article == e.name and p.kind == "lead"), None)
        if lead is not None:
            st.say(lead.text, st.read_passage(PassageHit(lead, 0.0)))
            st.exact = False
            return True
    st.say(f"{e.label}: {e.description}" if e.description else e.label, st.read_entity(e, facts))
    return True


def described(st: State) -> tuple[Entity, float] | None:
    """The entity whose graph description best matches the question, and how much of it that holds."""
    index = st.engine.descriptions
    if index is None or not st.terms:
        return None
    scores = {d: v for d, v in index.bm25({t: 1.0 for t in st.terms}).items()
              if st.engine.entities[st.engine.described[d]].kind == "work"}  # concepts are found by name  # fmt: skip
    if not scores:
        return None
    doc = max(scores, key=lambda d: (scores[d], -d))
    e = st.engine.entities[st.engine.described[doc]]
    found = set(terms(f"{e.label} {e.short or ''} {e.description}"))
    return e, st.engine.passages.coverage(st.terms, found, st.engine.synonyms)


def _support(st: State, hit: PassageHit) -> float:
    """How much of the question the one passage quoted holds (seed 003), not the whole article."""
    found = st.engine.passages.passage_terms(hit.passage)
    return st.engine.passages.coverage(st.terms, found, st.engine.synonyms)


def _enough(st: State, support: float, floor: str = "answer_floor") -> bool:
    """Enough support to answer: the passage holds at least the floor share of the question's information."""
    return support >= float(st.engine.weights["confidence"][floor])


def top_passage(st: State) -> bool:
    """The best passage, or the best graph description when it holds more of the question."""
    hit = st.hits[0] if st.hits else None
    support = _support(st, hit.best) if hit is not None else 0.0
    graph = described(st) if not st.entities else None
    if graph is not None and graph[1] > support and _enough(st, graph[1]):
        e, st.support = graph
        st.plan.route = "described"
        st.listed = [e.iri]
        st.say(f"{e.label}: {e.description}", st.read_entity(e, st.run("facts", {"entity": e.iri})))
        return True
    if hit is None:
        return False
    about_linked = st.engine.by_name.get(hit.article) in st.entities
    if not about_linked and not _enough(st, support):
        return False
    st.plan.route = "passage"
    st.support = support
    st.listed = [st.engine.by_name[hit.article].iri] if hit.article in st.engine.by_name else []
    st.say(hit.best.passage.text, st.read_passage(hit.best))
    return True


def lexicon_definition(st: State) -> bool:
    """A general term the lexicon defines, when the question asks what it is (or is only the term)."""
    if st.entities:
        return False  # a name of the graph is answered from the graph
    words = st.words
    content = [w for w in words if w not in st.engine.stopwords]
    for key, d in sorted(st.engine.definitions.items(), key=lambda kv: -len(kv[0])):
        if set(key) <= st.engine.stopwords or not contains(words, key):
            continue
        if st.engine.intents.has("define", words) or set(content) <= set(key):
            st.plan.route = "lexicon_definition"
            st.exact = True
            st.say(d.text, st.read_definition(d.term, d.text, d.url))
            return True
    return False
