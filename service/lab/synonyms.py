"""The synonym table as phrases (the lexicon's synonym groups, data/lexicon/synonyms.yaml over the engine's), and
where a question's search words hold one of them."""

from __future__ import annotations

from dataclasses import dataclass

from service.text import terms

Table = dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]]  # phrase's stems -> (other phrase, its stems)


@dataclass(frozen=True)
class Match:
    start: int  # position in the search words
    found: tuple[str, ...]  # the search words it covers
    others: list[tuple[str, tuple[str, ...]]]  # the other phrases of its group: as written, and their stems


def table(groups: list[list[str]]) -> Table:
    out: Table = {}
    for group in groups:
        stemmed = [(phrase, tuple(terms(phrase))) for phrase in group]
        for key in {k for _, k in stemmed if k}:
            kept = out.setdefault(key, [])
            kept.extend(o for o in stemmed if o[1] and o[1] != key and o not in kept)
    return out


def matches(words: tuple[str, ...], synonyms: Table) -> list[Match]:
    """The phrases of the table among the search words, longest first, each word used once; in question order."""
    longest = max((len(k) for k in synonyms), default=0)
    used = [False] * len(words)
    found = []
    for length in range(min(longest, len(words)), 0, -1):
        for start in range(len(words) - length + 1):
            key = words[start : start + length]
            if key in synonyms and not any(used[start : start + length]):
                used[start : start + length] = [True] * length
                found.append(Match(start, key, synonyms[key]))
    return sorted(found, key=lambda m: m.start)


def replaced(words: tuple[str, ...], match: Match, other: tuple[str, ...]) -> tuple[str, ...]:
    """The search words with one matched phrase swapped for another."""
    return words[: match.start] + other + words[match.start + len(match.found) :]
