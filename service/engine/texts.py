"""Text branches: definitions, how/why passages, the best passage or graph description, general terms."""

from __future__ import annotations

from service.engine import routes
from service.engine.catalog import CONCEPTS, Entity, first_sentence, what_it_is
from service.engine.intents import contains
from service.engine.retrieve import ArticleHit, PassageHit, best_passage_for, holds
from service.engine.state import WORD, State
from service.kb.wiki import Passage
from service.text import stem, terms
from service.text import words as words_of


def define(st: State) -> bool:
    e = next(e for e in st.q.entities if e.kind != "work")
    st.plan.route = "definition"
    st.exact = True
    st.listed = [e.iri]
    expansion = st.engine.expansions.get(e.iri)
    name = st.engine.sentence("definition.expanded", label=e.label, expansion=expansion) if expansion else e.label
    if e.kind in CONCEPTS:
        run = st.run("definition", {"concept": e.iri})
        ref = st.read_query(run, e.description)
        row = run.rows[0] if run.rows else {}
        text = row["description"].value if "description" in row else e.description
        st.tell("definition.is", ref, name=name, text=text)
        n = int(row["works"].value) if "works" in row else 0
        if n:
            st.tell("definition.used", ref, count=n)
    else:
        run = st.run("facts", {"entity": e.iri})
        st.tell("definition.is", st.read_entity(e, run), name=name, text=e.description)
    _as_named(st, e)
    return True


def _as_named(st: State, e: Entity) -> None:
    """ "What's Q15?", a name of a concept that its label does not hold: the passage of its article that uses
    that name, after what the graph says of the concept."""
    label = set(terms(f"{e.label} {e.short or ''}"))
    asked = st.q.name_terms(e) - label
    if not asked or not e.has_article:
        return
    weights = st.engine.weights["article"]
    hit = best_passage_for(st.engine.passages, e.name, tuple(sorted(asked)), st.engine.synonyms, weights)
    if hit is not None and asked <= st.engine.passages.passage_terms(hit.passage):
        st.say(hit.passage.text, st.read_passage(hit))


def explain(st: State) -> bool:
    if _first_of_kind(st):
        return False
    part = _without_article(st)
    joining = (_joining_work(st) or _described_one(st)) if part is None else None
    hit = _own_passage(st, joining) if joining is not None else best_passage(st, part)
    if hit is None:
        return False
    margin = float(st.engine.weights["article"]["other_article_margin"])
    # the work joining the names is what the question is about, whatever else says more; a passage holding more
    # than all but the margin of the question cannot be outdone by it, and the site is not searched for one
    if joining is None and (support := _support(st, hit)) + margin <= 1.0 and st.hits:
        top = st.hits[0].best
        if top.passage.article != hit.passage.article and _support(st, top) >= support + margin:
            hit = top  # "why did Acme switch to OpenSearch": the migration's own article holds more of the question
    about = st.engine.by_name.get(hit.passage.article)
    found = hit  # the passage that holds the question: a section of its article it asks for may say less of it
    if hit.passage.kind == "lead" and not st.q.has("naming"):  # a how or why question is not answered by an
        # overview, when a section says it: how, only in the article of the thing named (not of a part's whole)
        kinds = ("why", "how") if about in st.q.entities or (about is not None and about is joining) else ("why",)
        hit = routes.cued_section(st, hit.passage.article, kinds) or hit  # a section of the same article
    hit = routes.stating_amount(st, hit.passage.article, hit, about.description if about else "") or hit
    if about not in st.q.entities:  # not from the article of what was named: it must hold the question, but for
        st.support = max(_support(st, hit), _support(st, found))  # that of the work joining what was named
        if joining is None and not _enough(st, st.support, "explain_floor"):
            return False
    st.plan.route = "explain"
    st.listed = [about.iri] if about else []
    if part is not None and about is not None and about.iri in part[1]:
        # "how did the Widget canceller work", a part without an article of its own: what the graph says of
        # it, then the passage of the related article (the work it is part of) that holds the question
        e, _ = part
        st.listed.insert(0, e.iri)
        st.say_account(e)
    else:
        routes.account(st, about, hit)
    st.say(hit.passage.text, st.read_passage(hit))
    return True


def _joining_work(st: State) -> Entity | None:
    """ "why did Acme move off Widgetsearch": naming an organisation and a technology but no work, the one work
    with an article made at the organisation that uses the technology (the stored queries of the role's works and
    of the technology's, both kept in the plan), of several the one whose article holds the question best. Naming
    no technology, the work made there that the rest of the question describes ("the Acme arrival time thing")."""
    if any(e.kind == "work" for e in st.q.entities):
        return None
    orgs = [e for e in st.q.entities if e.kind in ("organisation", "role")]
    concepts = [e for e in st.q.entities if e.kind in CONCEPTS]
    candidate = st.engine.routes["candidates"].get(concepts[0].kind) if concepts else None
    if len(orgs) != 1 or (candidate is None and (concepts or len(st.q.ask) < 2)):
        return None
    mark = st.checkpoint()
    roles = [orgs[0].iri] if orgs[0].kind == "role" else st.engine.roles_by_org.get(orgs[0].iri, [])
    made = {i for role in roles for i in routes.column_iris(st.run("during_role", {"role": role}), "work")}
    if candidate is None:  # "the harbourline arrival time prediction thing": the work made there so described
        so = [e for e in described_among(st, sorted(made), st.q.ask) if e.has_article]
        if not so:
            st.rollback(mark)
        return so[0] if so else None
    using = routes.column_iris(st.run(candidate["query"], {candidate["param"]: concepts[0].iri}), "work")
    both = {e.name: e for i in using if i in made and (e := st.engine.entities.get(i)) is not None and e.has_article}
    ranked = [both[h.article] for h in st.hits if h.article in both]  # of several, the best article for the words
    if not ranked:
        st.rollback(mark)
        return None
    return ranked[0]


def _described_one(st: State) -> Entity | None:
    """ "how does the tram board show times that are only scheduled", "why did she build her own search library":
    naming nothing, the work with an article whose name and graph description hold the words that describe it
    (described_floor), when the article found first for the question is another's."""
    if any(e.kind != "person" for e in st.q.entities):
        return None
    ranked = described_works(st)
    if not ranked or not ranked[0].has_article or ranked[0].name not in {h.article for h in st.hits[1:]}:
        return None  # found first, its article answers as it is
    content = tuple(t for t in st.q.terms if t not in st.engine.accounted) or st.q.terms
    return ranked[0] if _enough(st, _coverage(st, ranked[0], content), "described_floor") else None


def _own_passage(st: State, e: Entity) -> PassageHit | None:
    """The passage of the thing's own article that answers: the section the kind of question asks for, else the
    one holding the question's words best."""
    weights = st.engine.weights["article"]
    return routes.cued_section(st, e.name, ("why", "how")) or best_passage_for(
        st.engine.passages, e.name, _inner(st, e), st.engine.synonyms, weights)


def _first_of_kind(st: State) -> bool:
    """ "the first thing he designed in Widgetcad": the first (or latest) of the works of a thing named, which the
    list of its works says, not a passage on how one of them was designed."""
    q = st.q
    return q.has("first") != q.has("last") and bool(q.entities) and all(e.kind in CONCEPTS for e in q.entities) \
        and "why" not in q.sections_asked  # "why wouldn't kids use the first ones": a reason


def _naming(st: State, e: Entity) -> PassageHit | None:
    """The first passage of the thing's article that speaks of its name ("The name comes from ...")."""
    index, name = st.engine.passages, stem("name")
    for doc in index.article_docs.get(e.name, ()):
        if name in index.passage_terms(index.docs[doc]):
            return PassageHit(index.docs[doc], 0.0)
    return None


def _asked_of(st: State, e: Entity) -> tuple[str, ...]:
    """The question's words but those naming the thing and the general ones: what is asked of it."""
    own = st.q.name_terms(e)
    return tuple(t for t in st.q.terms if t not in own and t not in st.engine.generic)


def _inner(st: State, e: Entity) -> tuple[str, ...]:
    """What is asked of the thing, or the whole question when it asks nothing more than its name."""
    return _asked_of(st, e) or st.q.terms


def _without_article(st: State) -> tuple[Entity, set[str]] | None:
    """The first work named that has no article of its own but a description, and the IRIs of the works one
    hop from it in the graph that have one (the work it is part of, the one that replaced it)."""
    if any(e.has_article and e.kind == "work" for e in st.q.entities):
        return None
    for e in st.q.entities:
        if e.description and e.kind == "work":
            run = st.run("neighbours", {"entity": e.iri})
            near = {r["neighbour"].value for r in run.rows}
            ents = st.engine.entities
            return e, {i for i in near if i in ents and ents[i].has_article and ents[i].kind == "work"}
    return None


def best_passage(st: State, part: tuple[Entity, set[str]] | None = None) -> PassageHit | None:
    """The passage answering the question: in the article of what is named (of a work it is related to, for a
    `part` without an article of its own), else the best article's."""
    weights = st.engine.weights["article"]
    prefer = _prefer(st)
    if part is not None and part[1]:  # a part without an article: the related article holding the question best
        inner = _inner(st, part[0])
        found = [hit for iri in sorted(part[1]) if (hit := best_passage_for(
            st.engine.passages, st.engine.entities[iri].name, inner, st.engine.synonyms, weights, prefer))]
        if found:
            return max(found, key=lambda h: (h.score, h.passage.id))
    for e in _specific_first(st):  # in its own article a name says nothing: the rest of the question picks the
        if e.has_article:  # section
            cued = routes.cued_section(st, e.name)  # "how accurate did Widgeteer get": its results, whatever the words
            if cued is not None:
                return cued
            named = _naming(st, e) if st.q.has("naming") else None
            if named is not None:  # "why is it called Widgeteer": where its article says what the name is
                return named
            if not _asked_of(st, e):  # "why did she build X": the kind of question is all it asks
                cued = routes.cued_section(st, e.name, ("why",))
                if cued is not None:
                    return cued
            hit = best_passage_for(st.engine.passages, e.name, _inner(st, e), st.engine.synonyms, weights, prefer)
            if hit is not None and (hit.score > 0 or not st.hits):
                return hit
    return _past_lead(st, st.hits[0]) if st.hits else None


def _prefer(st: State) -> dict[str, float]:
    """The words of the headings the kind of question prefers (intents.yaml sections), with their weights: the
    question's own word in a heading counts fully, the other cue words half."""
    sections = st.engine.intents.sections
    prefer: dict[str, float] = {}
    for word in st.engine.intents.sections_asked(st.q.words):
        for i, w in enumerate(sections.get(word, ())):
            prefer[stem(w)] = max(prefer.get(stem(w), 0.0), 1.0 if i == 0 else 0.5)
    return prefer


def _past_lead(st: State, top: ArticleHit, asked: bool = False) -> PassageHit:
    """The article's best passage; when that is its lead, first for its title's words ("the lage land street"),
    the section the rest of the question picks, as a name's would. When `asked`, only for a section holding what
    is asked that the lead does not ("dordrecht masterplan - the allotment people got upset?")."""
    title = set(terms(top.best.passage.title))
    rest = tuple(t for t in st.q.terms if t not in title)
    if top.best.passage.kind == "lead" and rest and len(rest) < len(st.q.terms):
        if asked and _holds_asked(st, top.best.passage):
            return top.best
        weights = st.engine.weights["article"]
        hit = best_passage_for(st.engine.passages, top.article, rest, st.engine.synonyms, weights, _prefer(st))
        if hit is not None and hit.score > 0 and (not asked or _holds_asked(st, hit.passage)):
            return hit
    return top.best


def _specific_first(st: State) -> list[Entity]:
    """The things named, one whose name holds another's before it ("widgeteer's entity resolver": the Widgeteer
    entity resolver before Widgeteer), else in the question's order."""
    names = [set(terms(e.label)) for e in st.q.entities]
    inside = [sum(other < own for other in names) for own in names]
    return [e for _, e in sorted(zip(inside, st.q.entities, strict=True), key=lambda p: -p[0])]


def described_works(st: State, among: set[str] | None = None) -> list[Entity]:
    """Works whose graph description (with their names) best matches the question, best first (ranked once per
    question: Question.works_described); only those `among` the given IRIs when given."""
    return [e for e in st.q.works_described if among is None or e.iri in among]


def described_among(st: State, among: list[str], words: tuple[str, ...]) -> list[Entity]:
    """The works `among` those given whose graph description (with their names) holds at least the answer floor
    of `words`, best first: "his talk at Widgetconf" among the talks."""
    if not words:
        return []
    ranked = described_works(st, set(among))
    return [e for e in ranked if _enough(st, _coverage(st, e, words))]


def _is_so(st: State, content: tuple[str, ...], e: Entity) -> bool:
    """Whether the work is what the words describe: each word in what the work is, the last (the kind of thing)
    or a synonym of it ("bat detectors": a bat sensor, a bat logger, where the lexicon makes them one)."""
    own = what_it_is(e)
    *rest, head = content
    return set(rest) <= own and holds(own, head, st.engine.synonyms)


def _a_kind_of(st: State, content: tuple[str, ...], e: Entity) -> bool:
    """Whether the work is one of the things counted: the last word asked (or a synonym) is the last word of one
    of its names or of the noun its description opens with ("The prototype bat detector of ...": detector), not
    only a word said of it ("a book on designing parks and schoolyards" is no schoolyard)."""
    ends = set(st.engine.routes.get("head_ends") or [])
    first = first_sentence(e)
    if e.label and first.startswith(e.label):
        first = first[len(e.label) :]  # "Widgeteer is a ...": what follows the name
    nouns = []
    for part in first.split(":")[:2]:  # "The successor to Widgeteer: a smaller split keyboard with ..."
        opening = words_of(part)
        nouns.append(" ".join(opening[: next((i for i, w in enumerate(opening) if i and w in ends), len(opening))]))
    heads = {t[-1] for t in (terms(e.label), terms(e.short or ""), *map(terms, nouns)) if t}
    return holds(heads, content[-1], st.engine.synonyms)


def _in_order(st: State, so: list[str], support: float, content: tuple[str, ...]) -> bool:
    """Every work so described that has a start, earliest first, citing the facts of each; how many first
    when the question asks, in its own words for them."""
    counted = ""
    if st.q.has("count"):  # "how many bat detectors": how many, in the question's words for them
        counted = " ".join(t.original for t in st.q.tokens if stem(t.word) in content)
    dated = [i for i in so if st.engine.entities[i].start][:8]
    if len(dated) < 2:
        return False
    refs = [st.read_entity(e, st.run("facts", {"entity": e.iri})) for e in (st.engine.entities[i] for i in dated)]
    st.listed = routes.say_in_order(st, dated, *refs, counted=counted)
    st.plan.route = "described"
    st.support = support
    st.subject = st.listed[0]
    return True


def _other_kind(st: State, e: Entity) -> bool:
    """Whether the work is of a kind that is about other things (routes.yaml about_kinds): a talk about building
    keyboards is no keyboard."""
    return any(c in e.classes for c in st.engine.routes.get("about_kinds") or [])


def _coverage(st: State, e: Entity, query: tuple[str, ...] | None = None) -> float:
    found = set(terms(f"{e.label} {e.short or ''} {e.description}"))
    return st.engine.passages.coverage(query or _topic_terms(st), found, st.engine.synonyms)


def describes_a_work(st: State, words: tuple[str, ...]) -> bool:
    """Whether the words are, at least by the floor of a paraphrase (described_floor), what the graph says of one
    work (its name and description): "map", "stops" and "wheelchair" of a map of accessible stops."""
    ranked = described_works(st)
    return bool(ranked) and _enough(st, _coverage(st, ranked[0], words), "described_floor")


def described_skills(st: State) -> bool:
    """ "which 3D modelling programs does she use": a question naming no skill, asking of what she uses with words
    beyond the kinds the engine knows, is answered by the skills whose own description holds it (Rhino, "the 3D
    modelling program in which she shapes terrain"), each with its account, as weak; the best alone unless others
    hold it as well."""
    if not st.q.ask:
        return False
    ranked = st.q.skills_described[: int(st.engine.weights["results"]["described_skills"])]
    scored = [(e, _coverage(st, e)) for e in ranked]
    best = max((c for _, c in scored), default=0.0)
    fit = [e for e, c in scored if c == best and _enough(st, c, "described_floor")]
    work = described(st)
    if not fit or (work is not None and work[1] >= best):  # "what batteries does the bat sensor run on": a work
        return False
    for e in fit:
        st.say_account(e)
    st.listed = [e.iri for e in fit]
    st.plan.route = "described"
    st.support = best
    st.near = True  # a paraphrase of what the skill is: weak, never High
    return True


def described(st: State) -> tuple[Entity, float] | None:
    """The work whose graph description best matches the question, and how much of the question it holds."""
    ranked = described_works(st)
    return (ranked[0], _coverage(st, ranked[0])) if ranked else None


def described_work(st: State) -> bool:
    """ "the routing thing she made for the delivery company": a question that describes a work instead of
    naming it is answered from the work whose description holds it best (of the kind named, if any)."""
    # "the routing software she wrote in the Netherlands": a place or organisation named is where it was made
    ordinal = st.q.has("first") != st.q.has("last")  # "her first weather station": the earliest work so described
    in_order = st.q.has("in_order")  # "list his bat detectors in order"
    # the person named ("Ada's first weather station") says whose it is, as "her" would
    things = [e for e in st.q.entities if e.kind != "person"]
    kind = st.q.class_named
    if not st.q.has("describes") and (kind is not None or things):
        return False  # "his first paper", "the first thing at Acme": the lists of a kind and of a role say it
    among = None
    if kind is not None and kind[1] == "class":
        _, among = routes.class_members(st, kind[0])
    ranked = described_works(st, among)
    # what describes the work, without the words that say a work is described ("thing", "made", "game") and
    # the names of where it was made
    named = {t for e in st.q.entities for t in st.q.name_terms(e)}
    cued = {stem(w) for w in st.q.cue}  # without the phrases that ask nothing ("over the years")
    content = tuple(t for t in st.q.terms if t not in st.engine.accounted and t not in named and t in cued) \
        or st.q.terms  # fmt: skip
    if not ranked or not _enough(st, support := _coverage(st, ranked[0], content)):
        return False
    listed = [w.iri for w in ranked[:5]]
    if kind is None and _other_kind(st, ranked[0]):  # "the mechanical keyboard thing she made": the keyboard so
        # described, not the talk about building it
        made = next((w for w in ranked[1:5] if not _other_kind(st, w) and _is_so(st, content, w)), None)
        if made is not None:
            listed = [made.iri, *(i for i in listed if i != made.iri)]
            support = _coverage(st, made, content)
    whether = not (ordinal or in_order or st.q.has("describes"))  # "does she make keyboards": the plural asked
    if ordinal or in_order or whether:  # of the works so described, the first (or latest) to begin, said first
        so = [w.iri for w in ranked if _is_so(st, content, w) and not _other_kind(st, w)]
        if whether:  # every one so described, when the thing is asked in the plural and there are several: the
            # ones that are that thing ("does she make keyboards": not the keyboard-layout analyser)
            so = [i for i in so if _a_kind_of(st, content, st.engine.entities[i])]
            plural = any(t.word != stem(t.word) and stem(t.word) == content[-1] for t in st.q.tokens)
            return plural and len(so) > 1 and _in_order(st, so, support, content)
        if not so:
            return False
        if in_order:  # "list his bat detectors in order": every one, by when it began
            return _in_order(st, so, support, content)
        pick = routes.ordinal_pick(st, so)  # cited by the facts (its start) of the one picked
        ref = st.read_entity(pick, st.run("facts", {"entity": pick.iri})) if pick is not None else ""
        listed = routes.say_ordinal(st, so, ref)[:5]
    e = st.engine.entities[listed[0]]
    st.plan.route = "described"
    st.support = support
    st.listed = listed
    st.subject = e.iri  # not the person the question names ("Ada's first weather station")
    st.say_account(e)
    routes.say_dated(st, e, None, "described")  # "that bat detector workshop he ran, when and where was it?"
    return True


def _support(st: State, hit: PassageHit) -> float:
    """How much of the question the one passage quoted holds (seed 003), not the whole article; a passage
    speaks of its article's subject, so the article's title counts as said ("the Salgado audit's first
    validation": the passage says only "the first full validation")."""
    return _held(st, hit.passage, _topic_terms(st))


def _bridged_support(st: State, hit: PassageHit) -> float:
    """The passage's support with each question word it lacks counted as held when the meaning model bridges it
    to a word of the passage (weights.yaml meaning.passage_word): "kids" to "children", "lose" to "lost"."""
    meaning = st.engine.meaning
    if meaning is None:
        return 0.0
    query = _topic_terms(st)
    found = st.engine.passages.passage_terms(hit.passage) | set(terms(hit.passage.title))
    lacking = [t for t in query if not holds(found, t, st.engine.synonyms)]
    said = {stem(w): w for w in st.q.said}
    passage_words = [w for w in dict.fromkeys(WORD.findall(hit.passage.text.lower()))
                     if w not in st.engine.search_stopwords]  # fmt: skip
    floor = float(st.engine.weights["meaning"]["passage_word"])
    for term in lacking:
        near = meaning.nearest_word(said.get(term, term), passage_words)
        if near is not None and near[1] >= floor:
            found.add(term)
            if st.trace is not None:
                st.trace.add("meaning", f"“{said.get(term, term)}” bridged to “{near[0]}” of the passage "
                             f"({near[1]:.2f})", word=term, to=near[0], cosine=round(near[1], 3))  # fmt: skip
    return st.engine.passages.coverage(query, found, st.engine.synonyms)


def _held(st: State, passage: Passage, query: tuple[str, ...]) -> float:
    """The share of the query a passage holds, its article's title counting as said."""
    found = st.engine.passages.passage_terms(passage) | set(terms(passage.title))
    return st.engine.passages.coverage(query, found, st.engine.synonyms)


def _topic_terms(st: State) -> tuple[str, ...]:
    """The question's search terms less the words that ask for an amount: "share" in "what share of queries
    failed" asks for a percent, which a text states without the word."""
    amount = st.q.amount
    asked = (amount.form_words if amount is not None else frozenset()) | st.q.unasked
    return tuple(t for t in st.q.terms if t not in asked) or st.q.terms


def held_beyond_names(st: State) -> bool:
    """Whether one passage of the site holds nearly all the question says beyond the general things it names,
    and that is more than a word or two ("how long does full materialisation of the largest graph take with
    the Rust reasoner"): a question about her work, not about the thing alone ("when was Rust released")."""
    named = {t for e in st.q.entities for t in st.q.name_terms(e)}
    rest = tuple(t for t in _topic_terms(st) if t not in named)
    if len(rest) < int(st.engine.weights["confidence"]["held_min_terms"]) or not st.hits:
        return False
    return _held(st, st.hits[0].best.passage, rest) >= float(st.engine.weights["confidence"]["strong_support"])


def _below_strong(st: State, support: float) -> float:
    """The support, kept under the strong floor: an answer that may only point at what was asked is never High."""
    return min(support, float(st.engine.weights["confidence"]["strong_support"]) - 0.01)


def _enough(st: State, support: float, floor: str = "answer_floor") -> bool:
    """Enough support to answer: the passage holds at least the floor share of the question's information."""
    return support >= float(st.engine.weights["confidence"][floor])


def top_passage(st: State) -> bool:
    """The best passage, or the best graph description when it holds more of the question; of articles that hold
    the question nearly as well as the best, the article of a thing the question names first."""
    hit = _named_first(st)
    support = _support(st, hit.best) if hit is not None else 0.0
    # a work described by what the question says of a theme it names ("how did he stop the hearing aids from
    # whistling": the feedback canceller that "stops hearing aids from whistling"), not of a thing named itself
    graph = described(st) if all(e.kind in CONCEPTS for e in st.q.entities) else None
    # on a tie, the work whose own name holds the question's words ("his thesis": the "MSc thesis")
    own = set(terms(f"{graph[0].label} {graph[0].short or ''}")) if graph is not None else set()
    titled = set(terms(hit.best.passage.title)) if hit is not None else set()
    named = bool(set(st.q.terms) & own - titled)
    if graph is not None and (graph[1] > support or (graph[1] == support and named)) and _enough(st, graph[1]):
        e, st.support = graph
        if st.q.entities:  # found past the thing it names: a description may only point at the answer, never High
            st.support = _below_strong(st, st.support)
        st.plan.route = "described"
        st.listed = [e.iri]
        st.say_account(e)
        return True
    if hit is None:
        return False
    owner = st.engine.by_name.get(hit.article)
    about_linked = owner in st.q.entities
    # an amount asked is judged on the passage that states one ("how many violations did the first validation
    # find": not the article's overview)
    said_of = owner.description if owner else ""
    best = routes.stating_amount(st, hit.article, hit.best, said_of) or _past_lead(st, hit, asked=True)
    support = max(support, _support(st, best))
    if not about_linked and not _enough(st, support):
        bridged = _bridged_support(st, best)
        if not _enough(st, bridged):
            return False
        # held only by the meaning model's words: never strong
        support = _below_strong(st, bridged)
    st.plan.route = "passage"
    st.support = support
    st.listed = [owner.iri] if owner else []
    # the things the question names, after the article's owner: the passage answers about them
    st.listed += [e.iri for e in st.q.entities if e.kind != "person" and e.iri not in st.listed]
    if about_linked:
        routes.account(st, owner, best)
    st.say(best.passage.text, st.read_passage(best))
    return True


def named_work_passage(st: State) -> bool:
    """The passage of the one work the question names that best holds the question's words, when no branch
    answered: the work's own article speaks of what was asked, though not in the question's words (kept as
    weak, plan.py)."""
    works = [e for e in st.q.entities if e.kind == "work" and e.iri not in st.q.excluded]
    if len(works) != 1 or not works[0].has_article:
        return False  # "which came first, X or Y": a passage of one is no answer about both
    work = works[0]
    hit = best_passage_for(st.engine.passages, work.name, st.q.terms, st.engine.synonyms, st.engine.weights["article"])
    if hit is None:
        return False
    best = routes.stating_amount(st, work.name, hit, work.description or "") or hit
    st.plan.route = "passage"
    st.support = _support(st, best)
    st.listed = [work.iri, *(e.iri for e in st.q.entities if e.kind != "person" and e.iri != work.iri)]
    routes.account(st, work, best)
    st.say(best.passage.text, st.read_passage(best))
    return True


def _named_first(st: State) -> ArticleHit | None:
    """The best article hit, or one nearly as good (weights.yaml article.named_share) that is the article of a
    thing the question names ("how long does a Widgeteer last on its batteries": Widgeteer's, not the article on
    battery life)."""
    if not st.hits:
        return None
    share = float(st.engine.weights["article"]["named_share"])
    near = [h for h in st.hits if h.score >= share * st.hits[0].score]
    # of those, the ones whose passage holds what is asked beyond the names and names a thing named ("what does
    # Widgeteer get benchmarked against": the talk's passage on Widgeteer's benchmark, not its overview), if any
    near = [h for h in near if _holds_asked(st, h.best.passage) and _names_linked(st, h.best.passage)] or near
    linked = set(st.q.linked.entities)
    for h in near:
        owner = st.engine.by_name.get(h.article)
        if owner is not None and owner.iri in linked and owner.kind not in CONCEPTS:
            return h
    return near[0]


def _names_linked(st: State, passage: Passage) -> bool:
    """Whether the passage speaks of a thing the question names, by its name."""
    found = st.engine.passages.passage_terms(passage)
    return any(e.kind not in CONCEPTS and (own := st.q.name_terms(e)) and own <= found for e in st.q.entities)


def _holds_asked(st: State, passage: Passage) -> bool:
    """Whether the passage holds a word the question asks beyond its names, or a synonym of one."""
    found = st.engine.passages.passage_terms(passage)
    return any(holds(found, a, st.engine.synonyms) for a in st.q.ask)


def lexicon_definition(st: State) -> bool:
    """A general term the lexicon defines, when the question asks what it is (or is only the term)."""
    words = st.q.words
    content = [w for w in words if w not in st.engine.stopwords]
    for key, d in st.engine.definitions_longest_first:
        if set(key) <= st.engine.stopwords or not contains(words, key):
            continue
        about_them = any(w in st.engine.person_words for w in words)  # "what did he do with dsp": not what it is
        if st.engine.intents.has("define", words) or (set(content) <= set(key) and not about_them):
            st.plan.route = "lexicon_definition"
            st.exact = True
            st.say(d.text, st.read_definition(d.term, d.text, d.url))
            return True
    return False
