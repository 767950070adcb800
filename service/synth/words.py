"""The tunable word lists (words.yaml next to this module), read into typed fields."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

WORDS_FILE = Path(__file__).with_name("words.yaml")


@dataclass(frozen=True)
class Kind:
    base: str  # Project, SideWork, Paper, Component
    kind: str  # Library, Game, ... or ""
    per_unit: int  # how many of the 185 works of one unit
    phrase: str  # "a library"


@dataclass(frozen=True)
class Words:
    raw: dict[str, Any]

    def names(self, key: str) -> list[str]:
        return [str(x) for x in self.raw[key]]

    def rows(self, key: str) -> list[list[str]]:
        return [[str(x) for x in row] for row in self.raw[key]]

    def mapping(self, key: str) -> dict[str, Any]:
        value: dict[str, Any] = self.raw[key]
        return value

    @property
    def kinds(self) -> list[Kind]:
        return [Kind(str(b), str(k), int(n), str(p)) for b, k, n, p in self.raw["kinds"]]


def load_words(path: Path = WORDS_FILE) -> Words:
    return Words(yaml.safe_load(path.read_text(encoding="utf-8")))
