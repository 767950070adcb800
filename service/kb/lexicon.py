"""The lexicon: the site's vocabulary as YAML files an editor owns (data/lexicon/*.yaml).

aliases.yaml         alias text -> entity name            ("golang": Go)
ordinary-words.yaml  names that are also ordinary words   (Go, Make, Rust: link only when capitalised)
absent.yaml          technologies the person does not use, with their skill category (the pivot)
synonyms.yaml        groups of words that mean the same thing in a question (query rewriting)
definitions.yaml     short definitions of general terms, each with an encyclopedia link

Any other *.yaml file is loaded as-is under its stem, so later parts (cue words, weights) add files
without changing this loader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from service import yamlfile
from service.errors import Problem, display_path

_URL = re.compile(r"^https?://[^/@\s]+(/\S*)?$")


@dataclass(frozen=True)
class Absent:
    label: str
    category: str
    aliases: tuple[str, ...] = ()


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

    def counts(self) -> dict[str, int]:
        return {
            "aliases": len(self.aliases),
            "ordinary_words": len(self.ordinary_words),
            "absent": len(self.absent),
            "synonym_groups": len(self.synonyms),
            "definitions": len(self.definitions),
        }


def _line_of(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return 0


@dataclass(frozen=True)
class Refs:
    """What lexicon entries may refer to: entity local names, lower-cased names, skill categories."""

    entities: set[str]
    names: set[str]
    categories: set[str]


def load_lexicon(paths: list[Path], refs: Refs | None = None) -> tuple[Lexicon, list[Problem]]:
    """Read every lexicon file; with `refs`, also check what the entries refer to."""
    lex = Lexicon()
    problems: list[Problem] = []
    for path in paths:
        shown = display_path(path)
        text = path.read_text(encoding="utf-8")
        try:
            doc = yamlfile.load(text)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            problems.append(Problem(shown, (mark.line + 1) if mark else 0, "yaml", str(e).splitlines()[0]))
            continue

        def bad(needle: str, message: str, _shown: str = shown, _text: str = text) -> None:
            problems.append(Problem(_shown, _line_of(_text, needle), "lexicon", message))

        stem = path.stem
        if stem == "aliases":
            if not isinstance(doc, dict):
                bad("", "aliases.yaml is a mapping `alias: EntityName`")
                continue
            for alias, target in doc.items():
                if not isinstance(target, str):
                    bad(str(alias), f"alias {alias!r} must map to an entity name")
                elif refs is not None and target not in refs.entities:
                    bad(str(alias), f"alias {alias!r} points at {target}, which is not an entity")
                else:
                    lex.aliases[str(alias).lower()] = target
        elif stem == "ordinary-words":
            if not isinstance(doc, list) or not all(isinstance(w, str) for w in doc):
                bad("", "ordinary-words.yaml is a list of names")
                continue
            lex.ordinary_words = [str(w) for w in doc]
        elif stem == "absent":
            for item in doc if isinstance(doc, list) else [None]:
                if not isinstance(item, dict) or not isinstance(item.get("label"), str):
                    bad("", "absent.yaml is a list of {label, category, aliases}")
                    continue
                label, category = item["label"], str(item.get("category", ""))
                if refs is not None and category not in refs.categories:
                    bad(label, f"{label}: category {category!r} is not a pf:SkillCategory")
                    continue
                names = {label.lower(), *(str(a).lower() for a in item.get("aliases") or [])}
                if refs is not None and names & refs.names:
                    bad(label, f"{label} is listed as absent but the graph names it")
                    continue
                lex.absent.append(Absent(label, category, tuple(str(a) for a in item.get("aliases") or [])))
        elif stem == "synonyms":
            if not isinstance(doc, list) or not all(isinstance(g, list) and len(g) >= 2 for g in doc):
                bad("", "synonyms.yaml is a list of groups, each a list of two or more words")
                continue
            lex.synonyms = [[str(w).lower() for w in g] for g in doc]
        elif stem == "definitions":
            for item in doc if isinstance(doc, list) else [None]:
                if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("term", "text", "url")):
                    bad("", "definitions.yaml is a list of {term, aliases, text, url}")
                    continue
                if not _URL.match(item["url"]):
                    bad(item["url"], f"{item['term']}: url must be http(s) without credentials")
                    continue
                lex.definitions.append(
                    Definition(item["term"], item["text"].strip(), item["url"], tuple(item.get("aliases") or []))
                )
        else:
            lex.extra[stem] = doc
    return lex, problems
