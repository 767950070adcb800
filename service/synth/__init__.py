"""`python -m service synth`: a synthetic portfolio N times the size of the demo, for measuring scale.

One unit is the demo's size: 185 works (12 key works, 67 projects, 106 side works), 123 skills, 11 roles at
9 organisations, about a thousand months of activity and 127 articles. N units share one person, one set of
places and a vocabulary whose names are drawn from word lists (words.yaml), so search and entity linking
meet names like real ones. The same scale and seed always give the same files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from service.synth.articles import write_wiki
from service.synth.generate import generate
from service.synth.model import Portfolio
from service.synth.turtle import write_turtle
from service.synth.words import load_words

__all__ = ["Written", "generate", "synthesise"]


@dataclass
class Written:
    portfolio: Portfolio
    data: Path
    wiki: Path
    files: list[Path]


def _site(p: Portfolio) -> str:
    person = p.person
    return (
        f"# A synthetic portfolio, {p.scale} times the demo's size (seed {p.seed}): python -m service synth\n"
        f"name: {person.site}\n"
        f"person: {person.local}\n"
        f"entity_base: {person.base}\n"
        f"contact_email: {person.email}\n"
        f"person_name: {person.label}\n"
        f"short_name: {person.short}\n"
        f"pronoun: {person.pronoun}\n"
    )


def synthesise(scale: int, out: Path, seed: int = 1) -> Written:
    """Write OUT/data (site.yaml and Turtle) and OUT/wiki; OUT must be empty or absent."""
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; synth writes into a new or empty folder")
    words = load_words()
    portfolio = generate(scale, seed, words)
    data, wiki = out / "data", out / "wiki"
    data.mkdir(parents=True, exist_ok=True)
    (data / "site.yaml").write_text(_site(portfolio), encoding="utf-8")
    files = [data / "site.yaml", *write_turtle(portfolio, data), *write_wiki(portfolio, words, wiki)]
    return Written(portfolio, data, wiki, files)
