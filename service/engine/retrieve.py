"""Passage retrieval: BM25 over the Whoosh passage index, and articles scored from their passages.

A Whoosh search costs several milliseconds per query on this machine (LIBRARY-FACTS.md); planning has a
budget of about three. So the postings Whoosh built are read once, when the engine starts, into plain
dicts, and BM25 is computed over them (docs/PERFORMANCE.md has the measurements; a test checks the
ranking against Whoosh's own BM25F on the same index).

An article scores by its best passage, plus a share of the rest, plus a bonus per query term in its title,
plus a bonus for the share of the query's information it holds anywhere (coverage). Coverage is weighted
by IDF, and a query word found in no passage weighs the most, so words the site never uses drag it down.
Heading words count as coverage; a lead passage loses a tie to a specific section.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import overload

import numpy as np
from whoosh.index import Index

from service.engine.bounds import ArticleBounds
from service.kb.wiki import Passage
from service.text import sentences, terms


@dataclass
class PassageHit:
    passage: Passage
    score: float


@dataclass
class ArticleHit:
    article: str
    entity: str
    title: str
    score: float
    coverage: float  # IDF-weighted share of the query found in the article (body or headings)
    best: PassageHit
    passages: Sequence[PassageHit] = ()


class _Ranked(Sequence[PassageHit]):
    """An article's passages as found, best first, made into hits only when read: most searches read one."""

    __slots__ = ("_docs", "_order", "_scores")

    def __init__(self, docs: Sequence[Passage], order: list[int], scores: Mapping[int, float]) -> None:
        self._docs, self._order, self._scores = docs, order, scores

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, i: int) -> PassageHit: ...
    @overload
    def __getitem__(self, i: slice) -> list[PassageHit]: ...
    def __getitem__(self, i: int | slice) -> PassageHit | list[PassageHit]:
        if isinstance(i, slice):
            return [PassageHit(self._docs[d], self._scores[d]) for d in self._order[i]]
        doc = self._order[i]
        return PassageHit(self._docs[doc], self._scores[doc])


class Bm25:
    """BM25 over postings held in dicts: term -> {document number: term frequency}."""

    def __init__(self, postings: dict[str, dict[int, int]], lengths: list[int], *, k1: float, b: float) -> None:
        self.postings, self.lengths, self.k1, self.b = postings, lengths, k1, b
        self.n = len(lengths)
        self.avg = sum(lengths) / max(1, self.n)
        self._norm = [k1 * (1 - b + b * length / self.avg) for length in lengths]  # each document's, once
        self._idf: dict[str, float] = {}
        self._term_scores: dict[str, dict[int, float]] = {}
        self.max_idf = self.idf("\0unseen")

    @classmethod
    def of_texts(cls, texts: Sequence[str], *, k1: float, b: float) -> Bm25:
        postings: dict[str, dict[int, int]] = defaultdict(dict)
        lengths = []
        for doc, text in enumerate(texts):
            doc_terms = terms(text)
            lengths.append(len(doc_terms))
            for term in doc_terms:
                postings[term][doc] = postings[term].get(doc, 0) + 1
        return cls(dict(postings), lengths, k1=k1, b=b)

    def df(self, term: str) -> int:
        return len(self.postings.get(term, ()))

    def idf(self, term: str) -> float:
        cached = self._idf.get(term)
        if cached is None:
            n = self.df(term)
            cached = self._idf[term] = math.log(1 + (self.n - n + 0.5) / (n + 0.5))
        return cached

    def bm25(self, weighted: Mapping[str, float], among: Sequence[int] | None = None) -> dict[int, float]:
        """Document number -> BM25 score for terms with query weights (1 for a word, less for a synonym);
        `among`: only these documents (one article's passages), without walking every posting."""
        scores: dict[int, float] = defaultdict(float)
        k1, norms = self.k1, self._norm
        for term, weight in weighted.items():
            docs = self.postings.get(term)
            if not docs:
                continue
            if weight == 1.0 and among is None:  # a word of the question over every passage: its scores, once
                made = self._scores(term, docs)
                if not scores:
                    scores.update(made)
                    continue
                for doc, score in made.items():
                    scores[doc] += score
                continue
            idf = self.idf(term) * weight
            found = docs.items() if among is None else [(d, docs[d]) for d in among if d in docs]
            for doc, tf in found:
                scores[doc] += idf * tf * (k1 + 1) / (tf + norms[doc])
        return scores

    def _scores(self, term: str, docs: dict[int, int]) -> dict[int, float]:
        """Each document's BM25 score for one term, computed on the term's first search and kept."""
        made = self._term_scores.get(term)
        if made is None:
            idf, k1, norms = self.idf(term), self.k1, self._norm
            made = self._term_scores[term] = {doc: idf * tf * (k1 + 1) / (tf + norms[doc]) for doc, tf in docs.items()}
        return made

    def weight(self, term: str) -> float:
        """A query word's weight in coverage: its IDF, and the most for a word found in no passage."""
        return self.idf(term) if self.df(term) else self.max_idf

    def coverage(self, query: Sequence[str], found: set[str], synonyms: Mapping[str, set[str]]) -> float:
        """IDF-weighted share of the query words (or a synonym of each) in `found`; unknown words weigh most."""
        return self.coverage_of(query, synonyms)(found)

    def coverage_of(
        self, query: Sequence[str], synonyms: Mapping[str, set[str]]
    ) -> Callable[[AbstractSet[str]], float]:
        """`coverage` for one query over many `found` sets: the weights are looked up once."""
        weighed = [(t, self.weight(t), synonyms.get(t, set())) for t in query]

        def share(found: AbstractSet[str]) -> float:
            total = covered = 0.0
            for term, weight, syns in weighed:
                total += weight
                if term in found or syns & found:
                    covered += weight
            return covered / total if total else 0.0

        return share


class PassageIndex(Bm25):
    def __init__(self, index: Index, passages: Sequence[Passage], *, k1: float, b: float) -> None:
        by_id = {p.id: p for p in passages}
        postings: dict[str, dict[int, int]] = {}
        with index.reader() as reader:
            self.docs: list[Passage] = [by_id[f["id"]] for _, f in sorted(reader.iter_docs())]
            lengths = [reader.doc_field_length(n, "body", 0) or 0 for n in range(len(self.docs))]
            for term in reader.field_terms("body"):
                postings[term] = _postings(reader, term)
        super().__init__(postings, lengths, k1=k1, b=b)
        self.heading_terms = [frozenset(terms(p.heading)) for p in self.docs]
        # a section's own heading, without the article's title before it ("Why she went independent")
        self.section_terms = [frozenset(terms(p.heading.split(" › ")[-1])) if p.kind != "lead" else frozenset()
                              for p in self.docs]  # fmt: skip
        self.section_docs: dict[str, set[int]] = defaultdict(set)  # a word of a section heading -> its passages
        for doc, heading in enumerate(self.section_terms):
            for term in heading:
                self.section_docs[term].add(doc)
        self.article_terms: dict[str, set[str]] = defaultdict(set)
        self.article_docs: dict[str, list[int]] = defaultdict(list)
        for doc, p in enumerate(self.docs):
            self.article_terms[p.article] |= self.heading_terms[doc]
            self.article_docs[p.article].append(doc)
        for term, docs in self.postings.items():
            for doc in docs:
                self.article_terms[self.docs[doc].article].add(term)
        self.title_terms = {p.article: frozenset(terms(p.title)) for p in self.docs}
        self.title_articles: dict[str, list[str]] = defaultdict(list)  # a word of a title -> its articles
        for name, title in self.title_terms.items():
            for term in title:
                self.title_articles[term].append(name)
        self.term_articles: dict[str, set[str]] = defaultdict(set)  # a word -> the articles holding it anywhere
        for name, held in self.article_terms.items():
            for term in held:
                self.term_articles[term].add(name)
        self.article_of = [p.article for p in self.docs]
        # a passage's place among all when scores tie: an article's sections before its lead, then by position
        by_place = sorted(range(len(self.docs)), key=lambda d: (self.docs[d].kind == "lead", self.docs[d].position, d))
        self.order = [0] * len(self.docs)
        for place, doc in enumerate(by_place):
            self.order[doc] = place
        self.leads = {p.article: p for p in self.docs if p.kind == "lead"}
        self.doc_of = {p.id: doc for doc, p in enumerate(self.docs)}  # a passage's id -> its document number
        self.bigrams = [frozenset(itertools.pairwise(seq)) for seq in (terms(p.text) for p in self.docs)]
        self.bounds = ArticleBounds(self.article_of, self.term_articles, self.section_docs,
                                    lambda term: self._scores(term, self.postings.get(term, {})))  # fmt: skip
        self._said: dict[int, list[tuple[str, frozenset[str]]]] = {}

    def speaks_of(self, text: str) -> bool:
        """Whether some passage holds the words of `text` in their order ("Cortex-M": "cortex" then "m")."""
        seq = terms(text)
        if not seq:
            return False
        pairs = list(itertools.pairwise(seq))
        return any(all(p in self.bigrams[doc] for p in pairs) for doc in self.postings.get(seq[0], {}))

    def passage_terms(self, passage: Passage) -> set[str]:
        return set(terms(passage.text)) | set(terms(passage.heading))

    def said(self, doc: int) -> list[tuple[str, frozenset[str]]]:
        """A passage's sentences, each with its stemmed words; cut once, on first use."""
        made = self._said.get(doc)
        if made is None:
            made = self._said[doc] = [(s, frozenset(terms(s))) for s in sentences(self.docs[doc].text)]
        return made

    def articles_covering(self, query: Sequence[str], synonyms: Mapping[str, set[str]]) -> Callable[[str], float]:
        """`coverage_of` an article by its name: the articles holding each word or a synonym of it, looked up per
        article asked about (a common word's articles are thousands; the articles asked about, a few dozen)."""
        empty: set[str] = set()
        weighed = [(self.weight(term), [self.term_articles.get(w, empty) for w in (term, *synonyms.get(term, ()))])
                   for term in query]  # fmt: skip
        total = 0.0
        for weight, _ in weighed:
            total += weight

        def share(name: str) -> float:
            covered = 0.0
            for weight, held in weighed:
                if any(name in h for h in held):
                    covered += weight
            return covered / total if total else 0.0

        return share


def holds(found: AbstractSet[str], term: str, synonyms: Mapping[str, set[str]]) -> bool:
    """Whether the terms `found` hold the term or a synonym of it."""
    return term in found or not synonyms.get(term, set()).isdisjoint(found)


def _postings(reader: object, term: str) -> dict[int, int]:
    """A word's passages with how often it occurs in each, read in one pass over its postings."""
    matcher = reader.postings("body", term)  # type: ignore[attr-defined]
    out = {}
    while matcher.is_active():
        out[matcher.id()] = int(matcher.weight())
        matcher.next()
    return out


_NONE_HEADED = (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64))
# a search across the site whose words are in more passages than this scores only the passages of the articles
# that could be among the first (service/engine/bounds.py); below it, every passage holding a word
_BOUNDED_FROM = 200


def search_articles(
    index: PassageIndex,
    query: Sequence[str],
    synonyms: Mapping[str, set[str]],
    weights: Mapping[str, float],
    *,
    article: str | None = None,
    limit: int = 30,
    prefer: Mapping[str, float] | None = None,
) -> list[ArticleHit]:
    """Articles ranked for the stemmed query words; `synonyms` maps a word to its stemmed synonyms.

    Coverage (at most `coverage_bonus` of an article's score) is computed only for articles that could still
    reach the first `limit` with it, so the ranking of those is exact and the rest is skipped.
    """
    weighted: dict[str, float] = {t: 1.0 for t in query}
    for term in query:
        for syn in synonyms.get(term, ()):
            weighted.setdefault(syn, weights["synonym_weight"])
    own = index.article_docs.get(article or "", []) if article is not None else None
    side_by_side = []  # words side by side in a passage ("weather station") count extra
    for a, b in itertools.pairwise(query):
        with_a, with_b = index.postings.get(a, {}), index.postings.get(b, {})
        together = with_a.keys() & with_b.keys() if own is None else [d for d in own if d in with_a and d in with_b]
        side_by_side.append([doc for doc in together if (a, b) in index.bigrams[doc]])
    # across articles, the sections whose heading holds two or more of the query's words, and how many
    headed = _NONE_HEADED
    if article is None and len(query) > 1:
        headed = index.bounds.headings_holding([(t, *synonyms.get(t, ())) for t in query])
    in_title: Counter[str] = Counter()
    for term, n in Counter(query).items():
        for name in index.title_articles.get(term, ()):
            in_title[name] += n
    heading_share = float(weights.get("section_heading_bonus", 0.0))
    among = own
    if own is None and sum(len(index.postings.get(t, ())) for t in weighted) > _BOUNDED_FROM:
        gained: dict[int, float] = defaultdict(float)
        for pair in side_by_side:
            for doc in pair:
                gained[doc] += weights["phrase_bonus"]
        names = index.bounds.contenders(weighted, query, synonyms, index.weight, gained, headed, in_title, weights,
                                        limit)  # fmt: skip
        if names is not None:  # only the passages of the articles that could be among the first `limit`
            among = [doc for name in names for doc in index.article_docs[name]]
    scores = index.bm25(weighted, among)
    for pair in side_by_side:
        for doc in pair:
            if doc in scores:
                scores[doc] += weights["phrase_bonus"]
    if article is not None:  # inside one article, a section whose heading holds a query word is about it
        top_score = max(scores.values(), default=0.0)
        cue_bonus = float(weights.get("section_cue_bonus", weights["heading_bonus"]))
        cue_share = float(weights.get("section_cue_share", 0.0))
        docs = index.article_docs.get(article, ())
        held = {d: sum(1 for t in query if any(d in index.postings.get(w, {}) for w in (t, *synonyms.get(t, ()))))
                for d in docs} if prefer else {}  # fmt: skip
        most = max(held.values(), default=0)
        if any(t in index.section_terms[d] for d in docs for t in query):  # a heading naming what is asked
            held = {}  # ("Deletions") outranks the kind of question
        # the share of the question's information a section holds, its heading included: the section with the
        # rare word asked ("precomputed") beats one whose heading repeats a common one ("Why spectrograms")
        held_share = float(weights.get("section_coverage_share", 0.0)) * top_score
        share_of = index.coverage_of(query, synonyms) if held_share else None
        for doc in docs:
            if share_of is not None:
                present = {t for t in query if doc in index.postings.get(t, {})} | index.section_terms[doc]
                present |= {s for t in query for s in synonyms.get(t, ()) if doc in index.postings.get(s, {})}
                scores[doc] = scores.get(doc, 0.0) + held_share * share_of(present)
            heading = index.heading_terms[doc]
            found = sum(1 for t in query if holds(heading, t, synonyms))
            bonus = weights["heading_bonus"] * found
            # "Why it exists" for a why question, "Design decisions" less so: the kind of question against the
            # heading. Among the sections holding as many of the question's words as any, and when no heading
            # names a word of the question, in proportion to the best word score, so that it outweighs a word
            # shared by chance ("build" in "The companion crates")
            cue = max((prefer.get(t, 0.0) for t in index.section_terms[doc]), default=0.0) if prefer else 0.0
            bonus += cue * (cue_bonus + (cue_share * top_score if held.get(doc) == most else 0.0))
            if bonus:
                scores[doc] = scores.get(doc, 0.0) + bonus
    elif len(headed[0]):  # across articles, a section headed with the question's words ("Why she went independent")
        held_by = dict(zip(headed[0].tolist(), headed[1].tolist(), strict=True))
        for doc in held_by.keys() & set(among) if among is not None else held_by:
            scores[doc] = scores.get(doc, 0.0) + heading_share * held_by[doc]
    article_of = index.article_of
    rest_share, title_bonus = weights["rest_share"], weights["title_bonus"]
    # each article's passages best first (leads after sections on a tie, then by position): one sort for all
    ranked_docs = sorted(scores, key=index.order.__getitem__)
    ranked_docs.sort(key=scores.__getitem__, reverse=True)  # stable: ties keep the order above
    by_article: dict[str, list[int]] = defaultdict(list)
    for doc in ranked_docs:
        by_article[article_of[doc]].append(doc)
    partial = []
    for name, ranked in by_article.items():
        rest = sum(map(scores.__getitem__, ranked[1:]))
        score = scores[ranked[0]] + rest_share * rest + title_bonus * in_title[name]
        partial.append((score, name, ranked))
    partial.sort(key=lambda x: (-x[0], x[1]))
    if len(partial) > limit:
        cutoff = partial[limit - 1][0] - weights["coverage_bonus"]
        partial = [x for x in partial if x[0] >= cutoff]
    hits = []
    covering = index.articles_covering(query, synonyms)
    docs_of, bonus = index.docs, weights["coverage_bonus"]
    for score, name, ranked in partial:  # the passages' hits made only for the articles kept
        coverage = covering(name)
        best = PassageHit(docs_of[ranked[0]], scores[ranked[0]])
        passages = _Ranked(docs_of, ranked, scores)
        hits.append(ArticleHit(name, best.passage.entity, best.passage.title, score + bonus * coverage, coverage, best,
                               passages))  # fmt: skip
    hits.sort(key=lambda h: (-h.score, h.article))
    return hits[:limit]


def best_passage_for(
    index: PassageIndex,
    article: str,
    query: Sequence[str],
    synonyms: Mapping[str, set[str]],
    weights: Mapping[str, float],
    prefer: Mapping[str, float] | None = None,
) -> PassageHit | None:
    """The passage of one article that best answers the query (its lead when nothing matches); a section whose
    heading holds a word of `prefer` gains a bonus in proportion to the word's weight there."""
    for hit in search_articles(index, query, synonyms, weights, article=article, prefer=prefer):
        return hit.best
    lead = index.leads.get(article)
    return PassageHit(lead, 0.0) if lead else None
