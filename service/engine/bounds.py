"""Which articles could be among the first k of a search across the site.

A common word of the question ("work", "data", and its synonyms) scores thousands of passages in a large wiki,
and ranking articles in Python walked every one of them. Here every passage's score (its words' BM25 scores,
each word's kept as an array on its first search, plus its bonuses) and every article's (its best passage, a
share of the rest, its title's words and its coverage of the question) are computed at once with numpy, summed
in another order than the exact ranking sums them. The articles within a rounding margin of the k-th best are
the ones the exact ranking then scores passage by passage: an article left out scores below k others, so the
first k are exactly those of scoring every passage in Python (tests/engine/test_bounds.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Indices = npt.NDArray[np.intp]

_SLACK = 1e-6  # far above the rounding of sums taken in another order, far below any difference of scores


class ArticleBounds:
    def __init__(
        self,
        article_of: Sequence[str],
        term_articles: Mapping[str, set[str]],
        section_docs: Mapping[str, set[int]],
        scores: Callable[[str], Mapping[int, float]],
    ) -> None:
        """`article_of`: each passage's article; `term_articles`: a word -> the articles holding it anywhere (the
        coverage's sets); `section_docs`: a word -> the passages whose own section heading holds it;
        `scores(word)`: the word's BM25 score in each passage holding it, at weight 1."""
        self.names = sorted(set(article_of))
        self._index = {name: i for i, name in enumerate(self.names)}
        articles = np.array([self._index[a] for a in article_of], dtype=np.intp)
        self._by_article: Indices = np.argsort(articles, kind="stable")  # the passages, article by article
        self._starts: Indices = np.searchsorted(articles[self._by_article], np.arange(len(self.names)))
        self._passages = len(article_of)
        self._term_articles = term_articles
        self._section_docs = section_docs
        self._sections: dict[str, Indices] = {}
        self._scores = scores
        self._per_word: dict[str, tuple[Indices, Floats]] = {}
        self._holding: dict[str, Indices] = {}

    def _word(self, word: str) -> tuple[Indices, Floats]:
        """The passages holding the word and its score in each, at weight 1."""
        made = self._per_word.get(word)
        if made is None:
            scores = self._scores(word)
            n = len(scores)
            made = self._per_word[word] = (np.fromiter(scores.keys(), dtype=np.intp, count=n),
                                           np.fromiter(scores.values(), dtype=np.float64, count=n))  # fmt: skip
        return made

    def _holders(self, word: str) -> Indices:
        made = self._holding.get(word)
        if made is None:
            held = self._term_articles.get(word, ())
            made = self._holding[word] = np.fromiter((self._index[a] for a in held), dtype=np.intp, count=len(held))
        return made

    def headings_holding(self, positions: Sequence[Sequence[str]]) -> tuple[Indices, npt.NDArray[np.int64]]:
        """The passages whose own section heading holds two or more of the query's words (a word or one of its
        synonyms: one position each), and how many; counted over every passage at once."""
        counts = np.zeros(self._passages, dtype=np.int64)
        for words in positions:
            held = np.zeros(self._passages, dtype=bool)
            for word in words:
                docs = self._sections.get(word)
                if docs is None:
                    found = self._section_docs.get(word, ())
                    docs = self._sections[word] = np.fromiter(found, dtype=np.intp, count=len(found))
                held[docs] = True
            counts += held
        docs = np.nonzero(counts >= 2)[0]
        return docs, counts[docs]

    def contenders(
        self,
        weighted: Mapping[str, float],
        query: Sequence[str],
        synonyms: Mapping[str, set[str]],
        word_weight: Callable[[str], float],
        bonus: Mapping[int, float],
        headed: tuple[Indices, npt.NDArray[np.int64]],
        in_title: Mapping[str, int],
        weights: Mapping[str, float],
        limit: int,
    ) -> list[str] | None:
        """The articles that could be among the first `limit`, or None when no more than `limit` are scored.
        `weighted`: the BM25 words with their weights; `bonus`: what a passage gains beyond its words' scores for
        words side by side, `headed`: the passages whose heading holds two or more of the query's words, and how
        many (`headings_holding`); `word_weight`: a query word's weight in the coverage."""
        passage = np.zeros(self._passages)
        for word, weight in weighted.items():
            docs, values = self._word(word)
            if len(docs):
                passage[docs] += weight * values
        if bonus:
            docs = np.fromiter(bonus.keys(), dtype=np.intp, count=len(bonus))
            passage[docs] += np.fromiter(bonus.values(), dtype=np.float64, count=len(bonus))
        passage[headed[0]] += float(weights.get("section_heading_bonus", 0.0)) * headed[1]
        in_order = passage[self._by_article]
        best = np.maximum.reduceat(in_order, self._starts)
        total = np.add.reduceat(in_order, self._starts)
        scored = total > 0
        count = int(np.count_nonzero(scored))
        if count <= limit:
            return None
        n = len(self.names)
        coverage, all_weight = np.zeros(n), 0.0
        for word in query:
            held_by = np.zeros(n, dtype=bool)
            for w in (word, *synonyms.get(word, ())):
                held_by[self._holders(w)] = True
            weight = word_weight(word)
            all_weight += weight
            coverage += weight * held_by
        if all_weight:
            coverage /= all_weight
        title = np.zeros(n)
        for name, times in in_title.items():
            title[self._index[name]] = times
        rest_share = float(weights["rest_share"])
        score = (1 - rest_share) * best + rest_share * total + float(weights["title_bonus"]) * title
        score += float(weights["coverage_bonus"]) * coverage
        among = score[scored]
        bar = np.partition(among, count - limit)[count - limit] - _SLACK
        return [self.names[i] for i in np.nonzero(scored & (score >= bar))[0]]
