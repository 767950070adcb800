"""Entity linking (main seed, Algorithm 1): find the names a question mentions.

Every label, short label, alternative label, lexicon alias and resource address is a name. Addresses are
protected first; then names are matched as whole-word sequences, longest first, each character used once.
A name that is also an ordinary word ("Go", "Make") links only when written capitalised, after a cue word
("written in go"), before one ("python projects"), or when it is the whole question. A name shared by
several entities is reported as ambiguous, never silently resolved; graph names win over alias-table names.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise, product

from rapidfuzz.distance import DamerauLevenshtein

from service.text import fold, stem

_TOKEN = re.compile(r"[^\W_]+(?:\+\+|#)?", re.UNICODE)
_URL = re.compile(r"https?://[^\s<>\"']+", re.IGNORECASE)


@dataclass(frozen=True)
class Token:
    word: str  # folded
    start: int
    end: int
    original: str


@dataclass
class Mention:
    text: str  # as written in the question
    start: int
    end: int
    iris: list[str]  # one: linked; several: ambiguous


@dataclass
class Linked:
    mentions: list[Mention] = field(default_factory=list)
    unknown_urls: list[str] = field(default_factory=list)
    rest: str = ""  # the question without the names it links
    skipped: list[str] = field(default_factory=list)  # names read as ordinary words ("go" in "go to the page")

    @property
    def entities(self) -> list[str]:
        """Linked entities in order of position, each once."""
        seen: dict[str, None] = {}
        for m in self.mentions:
            if len(m.iris) == 1:
                seen.setdefault(m.iris[0], None)
        return list(seen)

    @property
    def ambiguous(self) -> list[Mention]:
        return [m for m in self.mentions if len(m.iris) > 1]


def tokenize(text: str) -> list[Token]:
    return list(_tokens(text))


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[Token, ...]:
    """The tokens of a text, made once: a question's text is read by several steps of its analysis."""
    return tuple(Token(fold(m.group()), m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text))


def other_number(word: str) -> str:
    """The word in the other number, as far as a regular ending shows it ("aids" -> "aid", "filter" ->
    "filters", "libraries" -> "library"); a word that ends otherwise, unchanged ("glass", "dsp" -> "dsps")."""
    if not word.isalpha() or len(word) < 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s"):
        return word if word.endswith(("ss", "us", "is")) else word[:-1]
    if word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("x", "ch", "sh")) else "s")


def _norm_url(url: str) -> str:
    return re.sub(r"^https?://(www\.)?", "", url.lower()).rstrip("/")


def _written_alike(key: tuple[str, ...], alike: dict[str, list[tuple[str, ...]]],
                   most: int = 64) -> list[tuple[str, ...]]:  # fmt: skip
    """The other ways of writing a name of several words, each word or the words alike it (at most `most`)."""
    out: list[tuple[str, ...]] = [()]
    for w in key:
        out = [(*k, *a) for k in out for a in ((w,), *alike.get(w, ()))][:most]
    return out[1:]


class Linker:
    def __init__(
        self,
        graph_names: dict[str, set[str]],
        alias_names: dict[str, set[str]],
        urls: dict[str, set[str]],
        ordinary: set[str],
        cues: list[str],
        cues_after: list[str] | None = None,
        *,
        stopwords: frozenset[str] = frozenset(),
        verb_markers: list[str] | None = None,
        verb_phrases: list[str] | None = None,
        frames: list[str] | None = None,
        joining: list[str] | None = None,
        same: Sequence[Sequence[str]] = (),
    ) -> None:
        # name as a tuple of folded words -> owners; graph names first
        self._names: dict[tuple[str, ...], list[str]] = {}
        # names whose first word is a stopword only with a mark the tokenizer drops ("A* search" is "a search"):
        # they link only where the question writes the mark too
        self._marked: dict[tuple[str, ...], str] = {}
        for table in (graph_names, alias_names):
            for name, owners in table.items():
                key = tuple(t.word for t in tokenize(name))
                if set(key) <= stopwords:
                    continue  # "A*" is just "a" to the tokenizer: it would link everywhere
                if key[0] in stopwords and (mark := re.match(r"\w+([^\w\s])", name)) is not None:
                    self._marked.setdefault(key, mark.group(1))
                if key not in self._names:
                    self._names[key] = sorted(owners)
        self._ordinary = {tuple(t.word for t in tokenize(w)) for w in ordinary}
        # a name of several words is also written with its last word in the other number: "hearing aid" names
        # what is called "hearing aids", "kalman filters" what is called "Kalman filter"
        for key, holders in list(self._names.items()):
            other = (*key[:-1], other_number(key[-1])) if len(key) > 1 else key
            if other != key and other not in self._names:
                self._names[other] = holders
                if key in self._ordinary:
                    self._ordinary.add(other)
        # a name with a possessive is also written without its apostrophe: "master's thesis" as "masters thesis"
        for key, holders in list(self._names.items()):
            if "s" in key[1:]:
                joined: list[str] = []
                for w in key:
                    if w == "s" and joined:
                        joined[-1] += "s"
                    else:
                        joined.append(w)
                other = tuple(joined)
                if other != key and other not in self._names:
                    self._names[other] = holders
                    if key in self._ordinary:
                        self._ordinary.add(other)
        # a name of several words is also written with a word of the same meaning (`same`, the groups of
        # equivalents.yaml and the owner's synonyms, one word each): "MSc dissertation" names what is asked as
        # "masters thesis"
        written = dict(self._names)  # as the data writes them: the words of names, the completions
        alike: dict[str, list[tuple[str, ...]]] = {}
        for group in same:
            forms = [f for f in (tuple(t.word for t in tokenize(g)) for g in group) if f and not set(f) <= stopwords]
            # each form also with a possessive when a word of its own ("master's thesis", "MSc thesis")
            forms += [(*f, "s") for f in forms if len(f) == 1 and not f[0].endswith("s")]
            for w, *more in forms:
                if not more:
                    alike.setdefault(w, []).extend(f for f in forms if f != (w,))
        for key, holders in list(self._names.items()):
            if len(key) < 2 or not any(w in alike for w in key):
                continue
            for other in _written_alike(key, alike):
                if other not in self._names:
                    self._names[other] = holders
                    if key in self._ordinary:
                        self._ordinary.add(other)
        # a name of three words or more beside its small words is also written with some of them left out:
        # "Build a Rain Garden in a Day" as "build-a-rain-garden day"
        for key, holders in list(written.items()):
            small = [i for i, w in enumerate(key) if w in stopwords and 0 < i < len(key) - 1]
            if len(key) - len(small) < 3 or not 0 < len(small) <= 3:
                continue
            for dropped in product((False, True), repeat=len(small)):
                gone = {i for i, d in zip(small, dropped, strict=True) if d}
                other = tuple(w for i, w in enumerate(key) if i not in gone)
                if other not in self._names:
                    self._names[other] = holders
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        for key in sorted(self._names, key=len, reverse=True):
            self._by_first.setdefault(key[0], []).append(key)
        self._urls = {_norm_url(u): sorted(o) for u, o in urls.items()}
        self._cues = [tuple(t.word for t in tokenize(c)) for c in cues]
        self._cues_after = [tuple(stem(t.word) for t in tokenize(c)) for c in cues_after or []]
        self._verb_markers = {fold(w) for w in verb_markers or []}
        self._verb_phrases = [tuple(t.word for t in tokenize(p)) for p in verb_phrases or []]
        self._joining = {(fold(w),) for w in joining or []}  # as cues of one word
        self._stopwords = stopwords
        # whole questions around one name ("what is *", "how does * work"): the name is what is asked about
        self._frames: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        for frame in frames or []:
            before, _, after = frame.partition("*")
            self._frames.add((tuple(t.word for t in tokenize(before)), tuple(t.word for t in tokenize(after))))
        self.vocabulary = {w for key in written for w in key}
        # each word of a name of several words -> the words beside it in some name: (word, 0) the words after it,
        # (word, 1) the words before it
        self._beside: dict[tuple[str, int], set[str]] = {}
        for key in written:
            for a, b in pairwise(key):
                self._beside.setdefault((a, 0), set()).add(b)
                self._beside.setdefault((b, 1), set()).add(a)
        self.naming: dict[str, set[str]] = {}  # IRI -> the stems of every name it has ("BSc dissertation")
        for key, named in written.items():
            for iri in named:
                self.naming.setdefault(iri, set()).update(stem(w) for w in key)
        self._sorted = sorted((" ".join(key), owners) for key, owners in written.items())
        self._sorted_keys = [name for name, _ in self._sorted]

    def names_alone(self, word: str) -> bool:
        """Whether the word (folded) is by itself a name of something ("tessera", "go")."""
        return (word,) in self._names

    def near_name(self, words: Sequence[str]) -> list[tuple[int, str]]:
        """Real words one letter from a word of a name, written beside that name's neighbouring word: "the
        Lindenhof price" means the Lindenhof Prize. Each as (its position, the name's word); only where exactly
        one word of the names is that near, not a word of any name itself, and not another form of the same word
        ("engines")."""
        out: list[tuple[int, str]] = []
        stop = self._stopwords
        for i, (a, b) in enumerate(pairwise(words)):
            for at, word, other, side in ((i + 1, b, a, 0), (i, a, b, 1)):
                if len(word) < 4 or not word.isalpha() or word in self.vocabulary or word in stop or other in stop:
                    continue  # a word of some name is no misspelling of another
                beside = self._beside.get((other, side), set())
                if word in beside:
                    continue
                near = [w for w in beside if len(w) >= 4 and stem(w) != stem(word)
                        and DamerauLevenshtein.distance(word, w, score_cutoff=1) == 1]  # fmt: skip
                if len(near) == 1:
                    out.append((at, near[0]))
        return out

    def complete(self, fragment: str, limit: int = 5) -> list[str]:
        """Owners of the names that start with the fragment (folded), shortest name first: typing "lant"."""
        prefix = " ".join(t.word for t in tokenize(fragment))
        if len(prefix) < 3:
            return []
        start = bisect.bisect_left(self._sorted_keys, prefix)
        found: list[tuple[int, str]] = []
        for name, owners in self._sorted[start : start + 50]:
            if not name.startswith(prefix):
                break
            found += [(len(name), iri) for iri in owners]
        return list(dict.fromkeys(iri for _, iri in sorted(found)))[:limit]

    def link(self, question: str, *, strict: bool = True) -> Linked:
        out = Linked()
        taken = [False] * len(question)
        for m in _URL.finditer(question):
            owners = self._urls.get(_norm_url(m.group()))
            for i in range(m.start(), m.end()):
                taken[i] = True
            if owners:
                out.mentions.append(Mention(m.group(), m.start(), m.end(), owners))
            else:
                out.unknown_urls.append(m.group())
        tokens = [t for t in tokenize(question) if not taken[t.start]]
        words = [t.word for t in tokens]
        candidates: list[tuple[int, int, tuple[str, ...]]] = []  # (length, position, key)
        for i, w in enumerate(words):
            for key in self._by_first.get(w, ()):
                if tuple(words[i : i + len(key)]) == key:
                    candidates.append((len(key), i, key))
        used = [False] * len(tokens)
        for length, i, key in sorted(candidates, key=lambda c: (-c[0], c[1])):
            if any(used[i : i + length]):
                continue
            start, end = tokens[i].start, tokens[i + length - 1].end
            if key in self._marked and self._marked[key] not in question[start:end]:
                continue  # "a search library" does not name "A* search"
            if strict and key in self._ordinary and not self._meant_as_name(tokens, i, length):
                out.skipped.append(question[tokens[i].start : tokens[i + length - 1].end])
                continue
            for j in range(i, i + length):
                used[j] = True
            out.mentions.append(Mention(question[start:end], start, end, self._names[key]))
        out.mentions.sort(key=lambda m: m.start)
        spans = [(m.start, m.end) for m in out.mentions]
        out.rest = " ".join(t.original for t in tokens if not any(s <= t.start < e for s, e in spans))
        return out

    def _meant_as_name(self, tokens: list[Token], i: int, length: int) -> bool:
        if tokens[i].original[:1].isupper() or length == len(tokens):  # capitalised, or the whole question
            return True
        before = tuple(t.word for t in tokens[:i])
        if (before, tuple(t.word for t in tokens[i + length :])) in self._frames:
            return True
        if any(tuple(t.word for t in tokens[i : i + len(p)]) == p for p in self._verb_phrases):
            return False  # "what did go wrong": the name and the words after it are a verb
        if any(len(cue) > 1 and before[-len(cue) :] == cue for cue in self._cues):
            return True  # "related to widgeteer": a cue of several words outweighs the "to" that marks a verb
        if before and before[-1] in self._verb_markers:
            return False  # "does she make games": a verb
        after = tuple(stem(t.word) for t in tokens[i + length :])
        if any(after[: len(cue)] == cue for cue in self._cues_after):
            return True
        cued = [cue for cue in self._cues if len(before) >= len(cue) and before[-len(cue) :] == cue]
        if cued and all(cue in self._joining for cue in cued):
            # "rust and go", "rust and go in production", but "leave game audio and go independent": after a
            # joining word, a name is one only before a stop word or the end
            return i + length == len(tokens) or tokens[i + length].word in self._stopwords
        return bool(cued)
