"""Skills and concepts (techniques, themes, datasets) of one unit: real names first, generated ones after."""

from __future__ import annotations

import random

from service.synth.model import Concept, Skill
from service.synth.names import Namer
from service.synth.words import Words

# Skills of each category in one unit, as in the demo portfolio (123 in all).
SKILLS_PER_UNIT = {
    "ProgrammingLanguage": 14,
    "QueryLanguage": 4,
    "Framework": 14,
    "LibraryCategory": 35,
    "Database": 11,
    "Tool": 21,
    "Platform": 9,
    "Hardware": 3,
    "Standard": 12,
}
TECHNIQUES, THEMES, DATASETS = 52, 16, 12


class Vocabulary:
    """Hands out real names until they run out, then generated ones; every name once."""

    def __init__(self, rng: random.Random, words: Words, namer: Namer) -> None:
        self.rng, self.words, self.namer = rng, words, namer
        real = words.mapping("skills")
        self.real_skills = {c: [str(x) for x in real.get(c, [])] for c in SKILLS_PER_UNIT}
        for names in self.real_skills.values():
            rng.shuffle(names)
        self.real_techniques = words.names("techniques")
        self.real_themes = words.names("themes")

    def skills(self) -> list[Skill]:
        out: list[Skill] = []
        for category, n in SKILLS_PER_UNIT.items():
            for _ in range(n):
                label = self._real(self.real_skills[category]) or self._generated_skill(category)
                if label is None:
                    continue
                what = self.words.mapping("category_words")[category]
                out.append(
                    Skill(
                        local=self.namer.take(label), label=label, category=category, description=f"{label} is {what}."
                    )
                )
        languages = [s for s in out if s.category == "ProgrammingLanguage"]
        for s in out:
            if s.category in ("LibraryCategory", "Framework") and languages and self.rng.random() < 0.5:
                s.broader = self.rng.choice(languages).local
        return out

    def _real(self, names: list[str]) -> str | None:
        while names:
            label = names.pop()
            if self.namer.free(label):
                return label
        return None

    def _generated_skill(self, category: str) -> str | None:
        stems = self.words.names("skill_stems")
        suffixes = [str(x) for x in self.words.mapping("skill_suffixes")[category]]

        syllables = self.words.names("skill_syllables")

        def make() -> str:
            suffix = self.rng.choice(suffixes)
            stem = self.rng.choice(stems) + (self.rng.choice(syllables) if self.rng.random() < 0.5 else "")
            return f"{stem} {suffix[1:]}" if suffix.startswith("_") else stem + suffix

        return self.namer.first_free(make)

    def techniques(self) -> list[Concept]:
        mods, objs, methods = (
            self.words.names(k) for k in ("technique_modifiers", "technique_objects", "technique_methods")
        )
        out = []
        for _ in range(TECHNIQUES):
            label = self._real(self.real_techniques) or self.namer.first_free(
                lambda: f"{self.rng.choice(mods)} {self.rng.choice(objs)} {self.rng.choice(methods)}"
            )
            if label is not None:
                out.append(
                    Concept(
                        local=self.namer.take(label),
                        label=label,
                        cls="Technique",
                        description=f"{label} is a technique that some of the works implement.",
                    )
                )
        return out

    def themes(self) -> list[Concept]:
        qualifiers, base = self.words.names("theme_qualifiers"), self.words.names("themes")
        out = []
        for _ in range(THEMES):
            label = self._real(self.real_themes) or self.namer.first_free(
                lambda: f"{self.rng.choice(qualifiers)} {self.rng.choice(base).lower()}", tries=40
            )
            if label is not None:
                out.append(
                    Concept(
                        local=self.namer.take(label),
                        label=label,
                        cls="Theme",
                        description=f"{label} is a subject some of the works sit under.",
                    )
                )
        return out

    def datasets(self, cities: list[str]) -> list[Concept]:
        owners, nouns = self.words.names("dataset_owners"), self.words.names("dataset_nouns")
        out = []
        for _ in range(DATASETS):
            label = self.namer.first_free(
                lambda: f"{self.rng.choice(cities)} {self.rng.choice(owners).lower()} {self.rng.choice(nouns)}"
            )
            if label is not None:
                out.append(
                    Concept(
                        local=self.namer.take(label),
                        label=label,
                        cls="Dataset",
                        description=f"{label}: a dataset some of the works use.",
                    )
                )
        return out
