"""The lab's tunable numbers, read from tuning.yaml beside this file (never Python literals)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from service import yamlfile

TUNING = Path(__file__).with_name("tuning.yaml")


@dataclass(frozen=True)
class Tuning:
    shown: int
    depth: int
    added_weight: float
    name_bonus: float
    neighbour_bonus: float
    neighbours: int
    follow_person: bool
    rrf_k: int
    synonym_rewrites: int
    graph_rewrites: int
    child_sentences: int
    children: int
    chunk_sizes: tuple[int, ...]
    meaning_setting: str

    @classmethod
    def of(cls, doc: dict[str, Any]) -> Tuning:
        graph, multi, parent = doc["graph"], doc["multi_query"], doc["parent"]
        return cls(
            shown=int(doc["shown"]),
            depth=int(doc["depth"]),
            added_weight=float(doc["rewrite"]["added_weight"]),
            name_bonus=float(graph["name_bonus"]),
            neighbour_bonus=float(graph["neighbour_bonus"]),
            neighbours=int(graph["neighbours"]),
            follow_person=bool(graph["follow_person"]),
            rrf_k=int(multi["rrf_k"]),
            synonym_rewrites=int(multi["synonym_rewrites"]),
            graph_rewrites=int(multi["graph_rewrites"]),
            child_sentences=int(parent["child_sentences"]),
            children=int(parent["children"]),
            chunk_sizes=tuple(int(n) for n in doc["chunks"]["sizes"]),
            meaning_setting=str(doc["meaning"]["setting"]),
        )


@lru_cache(maxsize=1)
def tuning() -> Tuning:
    return Tuning.of(yamlfile.load(TUNING.read_text(encoding="utf-8")))
