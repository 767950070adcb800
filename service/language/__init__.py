"""The engine's language: what it needs to understand English questions about anyone's portfolio.

It ships with the package, in this folder, and is versioned and tested with the code:

  routes/<route>.yaml  one declaration per route: its ways, queries, checks, sentences (declarations.py,
                       docs/ROUTES.md); an owner's data/lexicon/routes/<route>.yaml changes or adds one
  routes.yaml          the stored queries the routes' steps share by name; kinds too broad to narrow a list
  intents.yaml         cue words of each kind of question, their order, name cues, reference words
  weights.yaml         fusion weights, tier factors, BM25 and article scoring, confidence, spelling limits
  abstain.yaml         private topics, opinions, unpublished kinds of fact: what is never answered
  answers.yaml         questions with one answer each, and the graph routes that make those answers
  dates.yaml           month names, parts of a year, number words
  stopwords.yaml       words dropped before passage search
  query-examples.yaml  example parameters of the stored queries (by kind, for any portfolio)
  messages.yaml        the sentences the engine writes around its answers
  technologies.yaml    well-known technologies and their skill categories, for the pivot
  shorthand.yaml       chat shorthand read as the word it stands for ("wat" -> "what")
  quantities.yaml      questions asking an amount ("how long", "how many stops") and the units answers state it in
  equivalents.yaml     words of ordinary English that mean the same in a question ("repo", "repository"); the
                       owner's synonyms.yaml adds the groups of their own field
  irregular.yaml       irregular verb forms, for the stemmer ("went" -> "go"); the same at build and question
                       time, so it is the engine's alone (an owner cannot override it)

An owner's data/lexicon/NAME.yaml with one of these names changes the engine's file for that portfolio:

  key: value     replaces the engine's value; a mapping is merged key by key, a list of items with a `key`
                 item by item
  key+: [...]    adds to the engine's list (or mapping)
  key-: [...]    takes items out of the engine's list

Every override is checked against the engine's file (known keys, same kinds of value) by `validate`.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

from service import yamlfile
from service.errors import Problem

DIR = Path(__file__).parent
STEMS = ("routes", "intents", "weights", "abstain", "answers", "dates", "stopwords", "query-examples", "messages",
         "technologies", "shorthand", "equivalents", "quantities")  # fmt: skip
# Mappings an owner may add keys to (their keys are names the owner chooses), by file and path (* for any key).
_OPEN: dict[str, set[tuple[str, ...]]] = {
    "answers": {("about",), ("canned",), ("canned", "*"), ("shortcuts",)},
    "weights": {("fusion", "weights"), ("fusion", "kinds"), ("fusion", "tier_factor"), ("spelling", "max_edits")},
    "dates": {("months",), ("parts",), ("numbers",)},
    "abstain": {("unpublished_kinds",)},
    "query-examples": {(), ("*",)},  # an owner's example may give any parameter of a query, optional ones too
    "intents": {("references", "ordinals")},
    "shorthand": {()},
    "route": {("say",), ("queries",), ("cue",), ()},
}
# Keys an owner may add to a mapping beside those the engine's has, by file and path (* for any key).
_ALSO: dict[tuple[str, ...], set[str]] = {("intents", "*"): {"starts_with", "mentions", "ends_with", "unless"}}
Lines = dict[yamlfile.Path, int]
# Keys of earlier versions, still read: (file, old key) -> new key.
_RENAMED = {("abstain", "her_words"): "person_words"}


@cache
def _engine(stem: str) -> Any:
    return yamlfile.load((DIR / f"{stem}.yaml").read_text(encoding="utf-8"))


def engine_doc(stem: str) -> Any:
    """The engine's own file, as shipped (a copy: callers may change it)."""
    return copy.deepcopy(_engine(stem))


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "text"


class _Merge:
    def __init__(self, stem: str, shown: str, lines: Lines) -> None:
        self.stem, self.shown, self.lines = stem, shown, lines
        self.problems: list[Problem] = []

    def bad(self, path: yamlfile.Path, message: str) -> None:
        line = self.lines.get(path, 0)
        self.problems.append(Problem(self.shown, line, "lexicon", message))

    def value(self, base: Any, new: Any, path: yamlfile.Path, where: tuple[str, ...]) -> Any:
        if new is None:
            return [] if isinstance(base, list) else base
        if isinstance(base, dict) and isinstance(new, dict):
            return self.mapping(base, new, path, where)
        if _keyed(base) and _keyed(new):
            return self.keyed(base, new, path, where)
        if base is not None and _kind(base) != _kind(new):
            self.bad(path, f"{'.'.join(where) or self.stem}: expected {_kind(base)} as in the engine's "
                           f"{self.stem}.yaml, got {_kind(new)}")  # fmt: skip
            return base
        return new

    def mapping(self, base: dict[str, Any], new: dict[str, Any], path: yamlfile.Path, where: tuple[str, ...]) -> Any:
        out = dict(base)
        opens = _OPEN.get(self.stem, set())
        open_ = where in opens or (*where[:-1], "*") in opens
        for raw, value in new.items():
            key = str(raw)
            op = key[-1] if key[-1:] in "+-" and len(key) > 1 else ""
            name = key[:-1] if op else key
            name = _RENAMED.get((self.stem, name), name) if not where else name
            at, here = (*path, key), (*where, name)
            also = _ALSO.get((self.stem, *where), set()) | _ALSO.get((self.stem, *where[:-1], "*"), set())
            if name not in base and not open_ and name not in also:
                known = ", ".join(sorted(str(k) for k in base)[:12])
                self.bad(at, f"`{'.'.join(here)}` is not a setting of the engine's {self.stem}.yaml (it has: {known})")
                continue
            current = out.get(name)  # several operations on one key apply in turn
            if op == "+":
                out[name] = self.extend(current, value, at, here)
            elif op == "-":
                out[name] = self.remove(current, value, at, here)
            else:
                out[name] = self.value(current, value, at, here)
        return out

    def keyed(self, base: list[Any], new: list[Any], path: yamlfile.Path, where: tuple[str, ...]) -> list[Any]:
        """Lists of items with a `key` (authored answers): an item with a known key changes that item."""
        out = [dict(item) for item in base]
        for n, item in enumerate(new):
            old = next((o for o in out if o.get("key") == item.get("key")), None)
            if old is None:
                out.append(item)
            else:
                old.update(self.mapping(old, item, (*path, n), where))
        return out

    def extend(self, current: Any, value: Any, path: yamlfile.Path, where: tuple[str, ...]) -> Any:
        if isinstance(current, list) and isinstance(value, list):
            return current + [v for v in value if v not in current]
        if isinstance(current, dict) and isinstance(value, dict):
            return current | value
        if current is None:
            return value
        self.bad(path, f"`{'.'.join(where)}+` adds to a list or mapping; the engine's is {_kind(current)}")
        return current

    def remove(self, current: Any, value: Any, path: yamlfile.Path, where: tuple[str, ...]) -> Any:
        if not isinstance(current, list | dict) or not isinstance(value, list):
            self.bad(path, f"`{'.'.join(where)}-` takes a list of items out of a list or mapping")
            return current
        missing = [v for v in value if v not in current]
        if missing:
            self.bad(path, f"`{'.'.join(where)}-`: not in the engine's list: {', '.join(map(str, missing))}")
        if isinstance(current, dict):
            return {k: v for k, v in current.items() if k not in value}
        return [v for v in current if v not in value]


def _keyed(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "key" in v for v in value)


def merge(stem: str, override: Any, lines: Lines, shown: str) -> tuple[Any, list[Problem]]:
    """The engine's file for `stem` with an owner's override applied, and what was wrong with the override."""
    base = engine_doc(stem)
    if override is None:
        return base, []
    m = _Merge(stem, shown, lines)
    if stem == "stopwords" and isinstance(override, list):
        return {"words": [str(w) for w in override]}, []  # a whole list of one's own, as before
    if stem == "technologies":
        if not isinstance(override, list):
            m.bad((), "technologies.yaml is a list of {label, category, aliases, ordinary}")
            return base, m.problems
        return base + override, []
    return m.value(base, override, (), ()), m.problems


def merge_route(base: Any, override: Any, lines: Lines, shown: str) -> tuple[Any, list[Problem]]:
    """A route declaration (routes/<route>.yaml) with an owner's override applied: `say`, `queries` and `cue` take
    keys of the owner's own; `ways` (or `ways+`), `examples` and `not` are lists."""
    if base is None:
        return override, []
    m = _Merge("route", shown, lines)
    return m.value(copy.deepcopy(base), override, (), ()), m.problems


def engine_language() -> dict[str, Any]:
    """Every engine file as shipped, by stem."""
    return {stem: engine_doc(stem) for stem in STEMS}
