"""The steps that decline a question before any other is tried (private.yaml, off_topic.yaml): each says whether
its kind of question is asked and, when it is, why it is declined (`st.reason`, said in the trace). The words
are the engine's language (abstain.yaml)."""

from __future__ import annotations

from service.engine import texts
from service.engine.catalog import CONCEPTS
from service.engine.intents import contains
from service.engine.state import State
from service.text import stem


def _decline(st: State, route: str, reason: str) -> bool:
    st.plan.route = route
    st.reason = reason
    return True


def private(st: State) -> bool:
    """A private matter (abstain.yaml private), or a private topic asked about the person."""
    if st.engine.private.found_in(st.q.said):
        found = st.engine.private.first(st.q.said)
        return _decline(st, "private", f"it asks “{' '.join(found)}”, a private matter" if found else
                        "a private matter")  # fmt: skip
    return _private_topic(st) and _decline(st, "private", "a private matter")


def _private_topic(st: State) -> bool:
    """A private topic ("birthplace", "street", "mobile") asked about the person: a word tying the question
    to them, and nothing of her work named that the word could be about ("the street lamp game", "for kids,
    like playgrounds"): only the person or a place."""
    engine, q = st.engine, st.q
    topics = engine.private_topics
    if not topics or not any(w in topics for w in q.said):
        return False
    if any(e.kind not in ("person", "place") for e in q.entities):
        return False
    # "how does she get the kids involved in designing the schoolyards": the topic is one her passages speak of,
    # beside another word of her work, so the question is about the work
    found = [w for w in q.said if w in topics]
    if all(_used(st, w) for w in found) and _of_work(st, set(found)):
        return False
    return any(w in engine.person_words for w in q.said) or any(e.kind == "person" for e in q.entities)


def _used(st: State, word: str) -> bool:
    """Whether the site's passages use the word or a word of its synonym group ("kids": "children")."""
    term, passages = stem(word), st.engine.passages
    return bool(passages.df(term)) or any(passages.df(t) for t in st.engine.synonyms.get(term, ()))


def _of_work(st: State, topics: set[str]) -> bool:
    """Whether the question holds a word of the site's own vocabulary beside the private topic words and the words
    for the person: a content word her passages use that is no everyday word."""
    return any(w not in topics for w in st.q.site_words)


def opinion(st: State) -> bool:
    return st.engine.opinion.found_in(st.q.said) and _decline(st, "off_topic", "it asks for an opinion")


def out_of_scope(st: State) -> bool:
    if not st.q.out_of_scope:
        return False
    unknown = ", ".join(st.q.unknown_words(st.q.words))
    return _decline(st, "off_topic", f"it names nothing the site knows and uses words it never uses ({unknown})")


def unnamed_opinion(st: State) -> bool:
    """ "what does Ada think about remote work": the owner named, and nothing the site knows."""
    return st.engine.unnamed_opinion.found_in(st.q.said) and _decline(
        st, "off_topic", "it asks what the person thinks of something the site does not cover")


def _tied(st: State, own: set[str]) -> bool:
    """A word tying the question to her or her work ("she", "projects"), other than the words of the phrase
    being judged ("created" in "who created")."""
    return any(w in st.engine.intents.topic_words and w not in own for w in st.q.words)


def _thing_words(st: State) -> set[str]:
    return {w for p in st.engine.thing_alone_phrases for w in p}


def thing_alone(st: State) -> bool:
    """A general thing itself ("when was Rust released"), not the person's work with it."""
    engine, q = st.engine, st.q
    general = bool(q.entities) and all(e.kind in CONCEPTS for e in q.entities)
    if not general:
        return False
    about_thing = any(q.has(r) for r in engine.thing_alone) or engine.thing_alone_phrases.found_in(q.said)
    if not about_thing or _tied(st, _thing_words(st)) or texts.held_beyond_names(st):
        return False
    return _decline(st, "off_topic", "it asks about a general thing itself, not about the person's work with it")


def unpublished(st: State) -> bool:
    """A kind of fact the portfolio never publishes (a price, an opening time, instructions, a task), asked with
    nothing tying it to her or her works (abstain.yaml unpublished_kinds)."""
    engine, q = st.engine, st.q
    if any(w in engine.person_words for w in q.words) or any(e.kind in ("work", "role", "person") for e in q.entities):
        return False
    return engine.unpublished.found_in(q.said) and _decline(
        st, "off_topic", "it asks a kind of fact the portfolio never publishes")


def third_party(st: State) -> bool:
    """Only organisations or places named, nothing tying the question to her, and something asked beyond the names
    that no excepted intent covers: a question about the third party (abstain.yaml about_a_third_party_alone)."""
    engine, q = st.engine, st.q
    spec = engine.third_party
    kinds = set(spec.get("kinds") or [])
    if not q.entities or _tied(st, _thing_words(st)) or any(e.kind not in kinds for e in q.entities) \
            or q.kind == "entity":  # fmt: skip
        return False
    if any(q.has(rule) for rule in spec.get("except") or []) or q.authored_key is not None:
        return False
    if q.relations_asked:  # "which university is it part of"
        return False
    if q.absent_named.mentions:
        return False  # "was any of the Acme stuff in Scala": a technology she may lack, asked of her work there
    asked = q.ask
    # "the map showing which Lisbon stops are wheelchair friendly": what is asked describes one of her works
    if not asked or (len(asked) > 1 and texts.describes_a_work(st, asked)):
        return False
    return _decline(st, "off_topic", "it asks about an organisation or place itself, not about the person")


def everyday(st: State) -> bool:
    """A task or an everyday topic, naming at most places and general things ("write me a Python function", "a
    restaurant in Berlin"), with no word tying it to her beyond the phrase itself."""
    q = st.q
    if not st.engine.unnamed_refusals.found_in(q.said):
        return False
    matched = [p for p in st.engine.unnamed_refusals if contains(q.said, p)]
    portfolio = [e for e in q.entities if e.kind != "place" and e.kind not in CONCEPTS]
    # tied to her, and naming something or held by one of her passages ("what pool depth did the paper
    # recommend"): a question about her work
    tied = _tied(st, {w for p in matched for w in p})
    if portfolio or (tied and (q.entities or texts.held_beyond_names(st))):
        return False
    return _decline(st, "off_topic", f"a task or everyday topic (“{' '.join(matched[0])}”)")
