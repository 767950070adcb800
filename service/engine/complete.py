"""Completing an answer with the sentence that states what was asked.

A route answers with what it found for the question's names: a work's overview, a passage, a list. When the
question also asks something its names do not ("how were the recordings split", "what did the talk argue"),
the answer may leave that unsaid while a sentence of a nearby article states it. Nearby: the articles of the
answer's first results and, except where the graph already followed a relation, the articles the question's
words find. A sentence is added, cited like any passage, when it holds clearly more of what was asked
(`State.ask`, IDF-weighted, synonyms counted) than the answer already says, at least two of the asked words,
and, with its heading, most of the question (weights.yaml, `complete`). It adds to an answer and never
replaces one: the route's own reading stays first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from service.engine.retrieve import PassageHit, holds
from service.engine.state import State
from service.text import terms


def complete(st: State, how: str) -> None:
    """`how`: the route's `complete` ("all", or "own": the results' own articles only; "": never)."""
    engine = st.engine
    cfg = engine.weights["complete"]
    if not how or not st.draft.sentences:
        return
    asked = [t for t in st.q.ask if t not in engine.search_stopwords]
    if not asked:
        return
    index = engine.passages
    share = index.coverage_of(asked, engine.synonyms)
    whole = index.coverage_of(st.q.terms, engine.synonyms)
    said = " ".join(text for text, _ in st.draft.sentences)
    before = share(set(terms(said)))
    floor = max(float(cfg["min_share"]), before + float(cfg["margin"]))
    least = min(len(asked), int(cfg["min_terms"]))
    whole_floor = float(cfg["whole"])
    # a sentence's words are among its passage's: the passages whose words could pass, found from the postings,
    # before any article is searched
    possible = _possible(st, asked, share, whole, floor, least, whole_floor)
    if not possible:
        return
    best: tuple[float, str, int] | None = None
    for article in _nearby(st, int(cfg["articles"]), how == "own"):
        for doc in index.article_docs.get(article, []):
            if doc not in possible:
                continue
            for sentence, found in index.said(doc):
                got = share(found)
                if got < floor or (best is not None and got <= best[0]) or sentence in said:
                    continue
                if sum(holds(found, t, engine.synonyms) for t in asked) < least:
                    continue
                if whole(found | index.heading_terms[doc]) >= whole_floor:
                    best = (got, sentence, doc)
    if best is None:
        return
    got, sentence, doc = best
    passage = index.docs[doc]
    st.draft.say(sentence, st.read_passage(PassageHit(passage, got)))
    if st.trace is not None:
        st.trace.add("complete", f"added a sentence of {passage.heading}: it holds {got:.2f} of what was asked "
                     f"({', '.join(asked)}), the answer {before:.2f}", asked=asked, share=round(got, 3),
                     before=round(before, 3), passage=passage.id)  # fmt: skip


def _possible(
    st: State,
    asked: list[str],
    share: Callable[[AbstractSet[str]], float],
    whole: Callable[[AbstractSet[str]], float],
    floor: float,
    least: int,
    whole_floor: float,
) -> set[int]:
    """The passages whose own words (a sentence holds no word its passage lacks) reach the floors that a sentence
    must reach to be added: the words asked and the question's, with their synonyms, looked up in the postings."""
    engine = st.engine
    index, synonyms = engine.passages, engine.synonyms
    holding: Counter[int] = Counter()  # a passage -> how many of the words asked it holds (or a synonym of each)
    for word in asked:
        holding.update(set().union(*(index.postings.get(t, {}).keys() for t in (word, *synonyms.get(word, ())))))
    candidates = [doc for doc, n in holding.items() if n >= least]
    if not candidates:
        return set()
    looked = [(t, index.postings.get(t, {})) for w in {*asked, *st.q.terms} for t in (w, *synonyms.get(w, ()))]
    out = set()
    for doc in candidates:
        found = {t for t, docs in looked if doc in docs}
        if share(found) >= floor and whole(found | index.heading_terms[doc]) >= whole_floor:
            out.add(doc)
    return out


def _nearby(st: State, limit: int, own_only: bool) -> list[str]:
    """The articles of the first results, then (unless `own_only`: the route followed a relation in the graph)
    the first of those the question's words find (the plan's own search, read once), without repeats."""
    entities = st.engine.entities
    own = [e.name for e in (entities.get(r.iri) for r in st.plan.results[:limit]) if e and e.has_article]
    found = [] if own_only else [h.article for h in st.hits[:limit]]
    return list(dict.fromkeys([*own, *found]))
