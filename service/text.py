"""One tokenizer and one light stemmer for every part: the passage index, linking, spelling and scoring.

Words are lower-cased and stripped of accents ("Protégé" -> "protege"); digits survive ("q3", "2025");
"c++" and "c#" stay whole. The stemmer only strips plural and tense endings, the same way on both sides.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

import yaml

_WORD = re.compile(r"[a-z0-9]+(?:\+\+|#)?")
_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case without accents: what every comparison of words is made on."""
    if text.isascii():  # nothing to decompose (most texts): the same result without reading each character
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ß", "ss")


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@cache
def _irregular() -> dict[str, str]:
    """Irregular verb forms -> their base (language/irregular.yaml), read once, when first needed."""
    path = Path(__file__).parent / "language" / "irregular.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(form): str(base) for base, forms in doc.items() for form in forms or []}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Strip plural and tense endings: projects -> project, libraries -> library, running -> run, went -> go."""
    base = _irregular().get(word)
    if base is not None:
        return stem(base)
    base = _strip(word)
    # the -ise verbs and their nouns meet, in either spelling: "anonymisation", "anonymiser", "anonymized" and
    # "anonymise" at "anonymis"
    for suffix in ("isation", "ization", "iser", "izer"):
        if base.endswith(suffix) and len(base) > len(suffix) + 2:
            base = base[: -len(suffix)] + "ise"
            break
    if base.endswith(("iz", "ize")) and len(base) > 5:
        base = base[:-2] + "is" if base.endswith("iz") else base[:-3] + "ise"
    # a final e goes, so "move", "moved" and "moving" meet at "mov", and "route" meets "routing"
    return base[:-1] if len(base) > 3 and base.endswith("e") and not base.endswith("ee") else base


def _strip(word: str) -> str:
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith(("ship", "ships")) and len(word) > 8:  # internship -> intern, leadership -> leader
        return word[: word.rindex("ship")]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("es") and word[-3] in "sxz" and len(word) > 4:
        return word[:-2]
    if word.endswith(("ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if len(base) >= 3 and _VOWEL.search(base):
                if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                    base = base[:-1]  # running -> run
                return base
    return word


# a sentence ends at . ! or ? followed by a space and a capital, a digit or an opening quote or bracket
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z0-9\"“‘(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def terms(text: str) -> list[str]:
    """Stemmed words of a text, stop words included (the index keeps them; queries drop them)."""
    return list(_terms(text))


@lru_cache(maxsize=8192)
def _terms(text: str) -> tuple[str, ...]:
    """The stemmed words, worked out once per text: a plan reads the same descriptions and passages again."""
    return tuple(stem(w) for w in words(text))


@lru_cache(maxsize=4096)
def query_terms(text: str, stopwords: frozenset[str]) -> tuple[str, ...]:
    """Distinct stemmed content words of a question, in order of first appearance."""
    seen: dict[str, None] = {}
    for w in words(text):
        if w not in stopwords:
            seen.setdefault(stem(w), None)
    return tuple(seen)
