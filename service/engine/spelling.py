"""Spelling: a word the site does not know is corrected against the site's own vocabulary.

Candidates are found by Damerau-Levenshtein distance (transpositions count once: "pyhton" -> "python"),
scanned with rapidfuzz's C++ implementation. Among candidates at the same distance a word of an entity's
name goes first, then character-bigram Sorensen-Dice similarity (the second signal), then how often the site
uses the word. A word that is ordinary, common English ("election", "pizza") is never "corrected" into a site
word: it is a real word the site does not cover.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein
from spellchecker import SpellChecker

from service.text import stem


def bigrams(word: str) -> set[str]:
    padded = f" {word} "
    return {padded[i : i + 2] for i in range(len(padded) - 1)}


def dice(a: str, b: str) -> float:
    x, y = bigrams(a), bigrams(b)
    return 2 * len(x & y) / (len(x) + len(y)) if x or y else 0.0


class Speller:
    def __init__(
        self,
        vocabulary: Iterable[str],
        protected: Iterable[str],
        *,
        min_length: int,
        max_edits: dict[int, int],
        min_dice: float,
        english_guard: int,
        settled: int = 5,
        rare_factor: int = 20,
        names: Iterable[str] = (),
        english: Any = None,
        british: Iterable[tuple[str, str]] = (),
    ) -> None:
        self.counts = Counter(w for w in vocabulary if any(c.isalpha() for c in w))
        # A word the wiki uses rarely may itself be a typo quoted as an example ("pyhton"): it stays open to
        # correction, but only towards a word the site uses far more often.
        self.known = {w for w, n in self.counts.items() if n >= settled} | set(protected)
        # Visitors misspell the names of the portfolio (works, technologies, techniques) far more often than
        # everyday words: among candidates at the same distance, a word of a name goes first ("fitler" -> filter).
        self._names = set(names)
        self._rare_factor = rare_factor
        self._choices = sorted(self.counts)
        # another form of a word the site uses ("precomputed" beside "Precompute") is no misspelling
        self._stems = {stem(w) for w in self.counts}
        self._min_length = min_length
        self._max_edits = sorted(max_edits.items())
        self._min_dice = min_dice
        self._guard = english_guard
        self._english = english if english is not None else SpellChecker().word_frequency
        # the dictionary spells the American way: "organise" is as common as "organize" (longest ending first)
        self._british = sorted(((b, a) for b, a in british), key=lambda pair: -len(pair[0]))
        self._numbered = sorted(w for w in self._names if w.isalnum() and not w.isalpha() and not w.isdigit())
        self.correct = lru_cache(maxsize=8192)(self._correct)
        self.english = lru_cache(maxsize=16384)(self._english_count)

    def _english_count(self, word: str) -> int:
        """How common the word is in English (pyspellchecker's counts), in either spelling ("organise")."""
        count = int(self._english[word])
        for ending, american in self._british:
            if word.endswith(ending) and len(word) > len(ending) + 1:
                return max(count, int(self._english[word[: -len(ending)] + american]))
        return count

    def _edits_allowed(self, word: str) -> int:
        allowed = 0
        for length, edits in self._max_edits:
            if len(word) >= length:
                allowed = edits
        return allowed

    def _correct(self, word: str) -> str | None:
        """The site's word this one is a misspelling of, or None."""
        if word in self.known:
            return None
        if not word.isalpha():
            return self._name_with_digits(word)
        if len(word) < self._min_length or self._inflected(word):
            return None
        # a real English word is no misspelling, unless it is a far more common word of the site with one letter
        # doubled ("programing", common enough to be in the dictionary, for "programming")
        guarded = self.english(word) >= self._guard
        if guarded:  # only the site's form of it with a letter doubled or made single can be meant
            found: list[tuple[str, float]] = [(c, 1) for c in _doublings(word) if c in self.counts]
        else:
            found = [(c, d) for c, d, _ in process.extract(word, self._choices, scorer=DamerauLevenshtein.distance,
                                                          score_cutoff=self._edits_allowed(word), limit=20)]
        best: tuple[float, bool, bool, float, int, str] | None = None
        for candidate, distance in found:
            similarity = dice(word, candidate)
            if similarity < self._min_dice or candidate == word:
                continue
            if self.counts[word] and self.counts[candidate] < self._rare_factor * self.counts[word]:
                continue
            common = self.english(candidate) >= self._rare_factor * self.english(word)
            if guarded and not (_doubled(word, candidate) and common):
                continue
            # on a tie, the candidate that keeps the word's ending (a plural stays plural) goes first
            key = (-distance, candidate in self._names, candidate[-1:] == word[-1:], similarity,
                   self.counts[candidate], candidate)  # fmt: skip
            if best is None or key > best:
                best = key
        return best[-1] if best else None


    def _inflected(self, word: str) -> bool:
        """ "precomputed" where the site writes "Precompute", "repos" where it writes "repo": a tense or a plural
        of a word the site uses is no misspelling, unless the site writes it with a letter doubled ("programing"
        for "programming")."""
        if word in self.counts:
            return False
        single = word[:-1]  # the plural of a word the site uses, where English adds only an "s"
        if word.endswith("s") and single in self.counts and not single.endswith(("s", "x", "z", "ch", "sh", "y")):
            return True
        if not word.endswith(("ed", "ing")) or stem(word) not in self._stems:
            return False
        return not any(word[:i] + word[i] + word[i:] in self.counts for i in range(1, len(word)))

    def _name_with_digits(self, word: str) -> str | None:
        """ "stm23" for STM32, "esp23" for ESP32: a word of letters and digits, one edit from one name's word."""
        if not word.isalnum() or word.isdigit() or word.isalpha() or len(word) < self._min_length:
            return None
        found = process.extract(word, self._numbered, scorer=DamerauLevenshtein.distance, score_cutoff=1, limit=3)
        near = [candidate for candidate, _, _ in found]
        return near[0] if len(near) == 1 else None

def _doublings(word: str) -> set[str]:
    """The word with one of its letters doubled, and with one of its doubled letters single."""
    out = {word[: i + 1] + word[i:] for i in range(len(word))}
    out |= {word[:i] + word[i + 1 :] for i in range(len(word) - 1) if word[i] == word[i + 1]}
    return out


def _doubled(word: str, candidate: str) -> bool:
    """The candidate is the word with one of its letters doubled, or the word with a doubled letter single."""
    short, long_ = sorted((word, candidate), key=len)
    if len(long_) != len(short) + 1:
        return False
    return any(long_[i] == long_[i + 1] and long_[:i] + long_[i + 1 :] == short for i in range(len(long_) - 1))
