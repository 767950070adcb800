"""The lexicon: the owner's vocabulary (data/lexicon/*.yaml) over the engine's language (service/language/).

aliases.yaml         alias text -> entity name            ("golang": Go)
ordinary-words.yaml  names that are also ordinary words   (Go, Make, Rust: link only when capitalised)
absent.yaml          technologies the person does not use, with their skill category (the pivot); the
                     engine's technologies.yaml already lists hundreds, this file only adds
synonyms.yaml        groups of words of the owner's field that mean the same thing in a question (query
                     rewriting), beside the engine's groups of ordinary English (equivalents.yaml)
definitions.yaml     short definitions of general terms, each with an encyclopedia link
answers.yaml         authored answers that win over the ones the engine makes from the graph

A file named like one of the engine's (intents.yaml, weights.yaml, ...: service/language/__init__.py) overrides
or extends it; every lexicon file is optional and may be empty.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from service import language, yamlfile
from service.errors import Problem, display_path
from service.language import declarations
from service.language.declarations import Route
from service.voice import PRONOUNS, Voice

_URL = re.compile(r"^https?://[^/@\s]+(/\S*)?$")


@dataclass(frozen=True)
class Absent:
    label: str
    category: str
    aliases: tuple[str, ...] = ()
    listed: bool = True  # by the owner (absent.yaml), not only in the engine's catalogue of technologies


@dataclass(frozen=True)
class Definition:
    term: str
    text: str
    url: str
    aliases: tuple[str, ...] = ()


@dataclass
class Lexicon:
    aliases: dict[str, str] = field(default_factory=dict)
    ordinary_words: list[str] = field(default_factory=list)
    absent: list[Absent] = field(default_factory=list)
    synonyms: list[list[str]] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    routes: dict[str, Route] = field(default_factory=dict)  # the route declarations, the owner's applied

    def synonym_groups(self) -> list[list[str]]:
        """The engine's groups of ordinary English (equivalents.yaml), then the owner's (synonyms.yaml)."""
        general = (self.extra.get("equivalents") or {}).get("groups") or []
        return [[str(w).lower() for w in group] for group in general] + self.synonyms

    def counts(self) -> dict[str, int]:
        return {
            "aliases": len(self.aliases),
            "ordinary_words": len(self.ordinary_words),
            "absent": len(self.absent),
            "synonym_groups": len(self.synonyms),
            "definitions": len(self.definitions),
        }


@dataclass(frozen=True)
class Refs:
    """What lexicon entries may refer to: entity local names, lower-cased names, skill categories."""

    entities: set[str]
    names: set[str]
    categories: set[str]


def load_lexicon(paths: list[Path], refs: Refs | None = None) -> tuple[Lexicon, list[Problem]]:
    """Read every owner lexicon file over the engine's language; with `refs`, also check what entries refer to."""
    lex = Lexicon()
    problems: list[Problem] = []
    owner: dict[str, tuple[Any, Lines, str]] = {}
    owner_routes: dict[str, tuple[Any, Lines, str]] = {}
    for path in paths:
        shown = display_path(path)
        try:
            doc, lines = yamlfile.load_with_lines(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            problems.append(Problem(shown, yamlfile.error_line(e), "yaml", yamlfile.error_message(e)))
            continue
        except UnicodeDecodeError:
            problems.append(Problem(shown, 0, "yaml", "not UTF-8 text"))
            continue
        (owner_routes if path.parent.name == "routes" else owner)[path.stem] = (doc, lines, shown)
    lex.routes, found = declarations.load(owner_routes)
    problems += found
    for stem in language.STEMS:
        doc, lines, shown = owner.pop(stem, (None, {}, ""))
        merged, found = language.merge(stem, doc, lines, shown)
        lex.extra[stem] = merged
        problems += found
        if stem == "answers" and doc is not None:
            problems += _check_answers(merged, _Where(shown, lines), refs)
    for stem, reader in _READERS.items():  # aliases before absent: an absent name may not be an alias
        doc, lines, shown = owner.pop(stem, (None, {}, ""))
        if doc is not None:
            problems += reader(lex, doc, _Where(shown, lines), refs)
    for stem, (doc, _lines, shown) in owner.items():
        near = difflib.get_close_matches(stem, [*language.STEMS, *_READERS], n=1, cutoff=0.75)
        if near:
            problems.append(Problem(shown, 0, "lexicon", f"no lexicon file is called {stem}.yaml: did you mean "
                                                         f"{near[0]}.yaml?"))  # fmt: skip
        lex.extra[stem] = doc
    return lex, problems


Lines = dict[yamlfile.Path, int]


@dataclass(frozen=True)
class _Where:
    shown: str
    lines: Lines

    def problem(self, path: yamlfile.Path, message: str) -> Problem:
        return Problem(self.shown, self.lines.get(path, self.lines.get(path[:1], 0)), "lexicon", message)


def _aliases(lex: Lexicon, doc: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    if not isinstance(doc, dict):
        return [at.problem((), "aliases.yaml is a mapping `alias: EntityName`")]
    problems = []
    for alias, target in doc.items():
        if not isinstance(target, str):
            problems.append(at.problem((alias,), f"alias {alias!r} must map to an entity name"))
        elif refs is not None and target not in refs.entities:
            problems.append(at.problem((alias,), f"alias {alias!r} points at {target}, which is not an entity"))
        else:
            lex.aliases[str(alias).lower()] = target
    return problems


def _ordinary(lex: Lexicon, doc: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    if not isinstance(doc, list) or not all(isinstance(w, str) for w in doc):
        return [at.problem((), "ordinary-words.yaml is a list of names")]
    lex.ordinary_words = [str(w) for w in doc]
    return []


def _absent(lex: Lexicon, doc: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    problems = []
    for n, item in enumerate(doc if isinstance(doc, list) else [None]):
        if not isinstance(item, dict) or not isinstance(item.get("label"), str):
            problems.append(at.problem((n,), "absent.yaml is a list of {label, category, aliases}"))
            continue
        label, category = item["label"], str(item.get("category", ""))
        if refs is not None and category not in refs.categories:
            known = ", ".join(sorted(refs.categories))
            problems.append(at.problem((n, "category"), f"{label}: category {category!r} is not a pf:SkillCategory "
                                                        f"(one of {known})"))  # fmt: skip
            continue
        aliases = tuple(str(a) for a in item.get("aliases") or [])
        names = {label.lower(), *(a.lower() for a in aliases)}
        if refs is not None and names & refs.names:
            problems.append(at.problem((n,), f"{label} is listed as absent but the graph names it"))
            continue
        taken = sorted(names & set(lex.aliases))
        if taken:
            problems.append(at.problem((n,), f"{label} is listed as absent but aliases.yaml makes {taken[0]!r} a "
                                             f"name of {lex.aliases[taken[0]]}"))  # fmt: skip
            continue
        lex.absent.append(Absent(label, category, aliases))
    return problems


def _synonyms(lex: Lexicon, doc: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    if not isinstance(doc, list):
        return [at.problem((), "synonyms.yaml is a list of groups, each a list of two or more words")]
    problems = []
    for n, group in enumerate(doc):
        if not isinstance(group, list) or len(group) < 2:
            problems.append(at.problem((n,), "each synonym group is a list of two or more words"))
        else:
            lex.synonyms.append([str(w).lower() for w in group])
    return problems


def _definitions(lex: Lexicon, doc: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    problems = []
    for n, item in enumerate(doc if isinstance(doc, list) else [None]):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("term", "text", "url")):
            problems.append(at.problem((n,), "definitions.yaml is a list of {term, aliases, text, url}"))
            continue
        if not _URL.match(item["url"]):
            problems.append(at.problem((n, "url"), f"{item['term']}: url must be http(s) without credentials"))
            continue
        lex.definitions.append(
            Definition(item["term"], item["text"].strip(), item["url"], tuple(item.get("aliases") or []))
        )
    return problems


_READERS = {
    "aliases": _aliases,
    "ordinary-words": _ordinary,
    "absent": _absent,
    "synonyms": _synonyms,
    "definitions": _definitions,
}


ANSWER_ROUTES = ("person", "based", "education", "contact", "recent", "key_works", "career", "skills")
_FIELD = re.compile(r"{(\w*)}")


def _check_answers(merged: Any, at: _Where, refs: Refs | None) -> list[Problem]:
    """Every answer (the engine's, with the owner's texts) has questions and a text or a known route; a text
    names only the placeholders the engine fills; `cite` names entities."""
    allowed = set(Voice("", "", PRONOUNS["they"], ()).fields())
    problems = []
    for group in ("about", "canned"):
        items = merged.get(group) or []
        pairs = items.items() if isinstance(items, dict) else enumerate(items)
        for key, item in pairs:
            if not isinstance(item, dict):
                problems.append(at.problem((group, key), f"{group}: each answer is a mapping"))
                continue
            name = item.get("key", key)
            if not item.get("questions"):
                problems.append(at.problem((group, key), f"answer {name!r} has no `questions`"))
            if not item.get("text") and item.get("route") not in ANSWER_ROUTES:
                problems.append(at.problem((group, key), f"answer {name!r} needs a `text`, or a `route` among "
                                                         f"{', '.join(ANSWER_ROUTES)}"))  # fmt: skip
            for field_name in _FIELD.findall(str(item.get("text") or "")):
                if field_name not in allowed:
                    problems.append(at.problem((group, key, "text"), f"answer {name!r}: {{{field_name}}} is not "
                                               f"filled in (use {{email}}, {{short}}, {{name}}, {{they}} ...)"))
            for cited in item.get("cite") or []:
                if refs is not None and cited not in refs.entities:
                    problems.append(at.problem((group, key, "cite"), f"answer {name!r} cites {cited}, which is not "
                                                                     "an entity"))  # fmt: skip
    return problems
