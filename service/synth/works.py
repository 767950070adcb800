"""The 185 works of one unit, as in the demo portfolio: 12 key works, 67 projects, 106 side works, each with
dates inside its role's, a few months of activity, a stack drawn mostly from the unit's own skills, and a
name made of the word lists."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from service.synth import months
from service.synth.model import Concept, Organisation, Role, Skill, Work
from service.synth.names import Namer
from service.synth.words import Kind, Words

KEY_WORKS = 12
TIER2_COMPONENTS = 8
DURATION = {1: (14, 40), 2: (4, 18), 3: (1, 6)}  # months
ACTIVE = {1: 0.85, 2: 0.85, 3: 0.95}  # chance that a month inside the dates has commits
REPOSITORIES = "https://code.example/eliasvarenne/"


@dataclass
class UnitInputs:
    unit: int
    roles: list[Role]
    orgs: dict[str, Organisation]
    skills: list[Skill]
    shared: list[Skill]  # skills of the first unit, used now and then by every unit
    techniques: list[Concept]
    themes: list[Concept]
    datasets: list[Concept]


class WorkMaker:
    def __init__(self, rng: random.Random, words: Words, namer: Namer, short: str) -> None:
        self.rng, self.words, self.namer, self.short = rng, words, namer, short
        self.rank = 0

    # -- names ----------------------------------------------------------------------------------

    def _coined(self) -> str:
        return self.rng.choice(self.words.names("work_prefixes")) + self.rng.choice(self.words.names("work_suffixes"))

    def _thing(self) -> str:
        return self.rng.choice(self.words.names("work_things"))

    def _label(self, kind: Kind, role: Role | None, inputs: UnitInputs, parent: Work | None, about: Work | None) -> str:
        rng, w = self.rng, self.words
        org = inputs.orgs[role.org] if role else None
        pattern: list[str] = []
        if kind.base == "Paper":
            pattern = [f"{rng.choice(w.names('paper_topics'))} for {rng.choice(w.names('paper_objects'))}"]
        elif kind.kind == "Talk" and about is not None:
            pattern = [f"{rng.choice(w.names('talk_openers'))} {about.name}"]
        elif parent is not None:
            pattern = [f"{parent.name} {self._thing()}"]
        elif kind.kind in ("Game", "Writing", "Visualisation") and rng.random() < 0.6:
            pattern = [f"{rng.choice(w.names('work_adjectives'))} {rng.choice(w.names('work_nouns'))}"]
        elif org is not None and org.short and org.cls == "Organisation" and rng.random() < 0.4:
            pattern = [f"{org.short} {self._thing()}"]
        elif rng.random() < 0.6:
            pattern = [self._coined()]
        first = pattern[0] if pattern else ""
        label = self.namer.first_free(lambda: first, tries=1) if first else None
        label = label or self.namer.first_free(self._coined, tries=20)
        label = label or self.namer.first_free(lambda: f"{self._coined()} {self._thing()}")
        return label or f"{self._coined()} {self._thing()} {inputs.unit + 1}"

    # -- dates ----------------------------------------------------------------------------------

    def _dates(self, tier: int, role: Role | None, unit: int) -> tuple[date, date | None]:
        lo = role.start if role else date(2003 + unit % 5, 1, 1)
        hi = min(months.first(role.end), months.LAST) if role and role.end else months.LAST
        start = months.add(lo, self.rng.randint(0, max(0, months.span(lo, hi) - 1)))
        length = self.rng.randint(*DURATION[tier])
        end = min(months.add(start, length - 1), hi)
        ongoing = tier == 1 and (role is None or role.end is None) and self.rng.random() < 0.3
        return start, None if ongoing else months.month_end(end)

    def _months(self, tier: int, start: date, end: date | None) -> list[date]:
        last = months.first(end) if end else months.LAST
        out = [start]
        for n in range(1, months.span(start, last)):
            if self.rng.random() < ACTIVE[tier]:
                out.append(months.add(start, n))
        return out

    # -- stacks ---------------------------------------------------------------------------------

    def _pick(self, pool: list[Skill] | list[Concept], k: int) -> list[str]:
        if not pool or k <= 0:
            return []
        weights = [1.0 / (i + 1) for i in range(len(pool))]  # a few are used a lot, most a few times
        chosen: list[str] = []
        for item in self.rng.choices(pool, weights=weights, k=k * 2):
            if item.local not in chosen:
                chosen.append(item.local)
        return chosen[:k]

    def _stack(self, inputs: UnitInputs) -> list[str]:
        languages = [s for s in inputs.skills if s.category == "ProgrammingLanguage"]
        rest = [s for s in inputs.skills if s.category != "ProgrammingLanguage"]
        uses = self._pick(languages, 1) + self._pick(rest, self.rng.randint(1, 4))
        if inputs.shared is not inputs.skills and self.rng.random() < 0.3:
            uses += [x for x in self._pick(inputs.shared, 1) if x not in uses]
        return uses

    # -- one unit -------------------------------------------------------------------------------

    def unit(self, inputs: UnitInputs) -> list[Work]:
        kinds = [k for k in self.words.kinds for _ in range(k.per_unit)]
        self.rng.shuffle(kinds)
        kinds.sort(key=lambda k: (k.base == "Component", k.kind == "Talk"))  # last: they need earlier works
        promote = set(self.rng.sample([i for i, k in enumerate(kinds) if k.base == "Project"], KEY_WORKS))
        works: list[Work] = []
        components = 0
        for i, kind in enumerate(kinds):
            if kind.base == "Component":
                components += 1
            tier = 1 if i in promote else 2 if kind.base in ("Project", "Paper") else 3
            if kind.base == "Component":
                tier = 2 if components <= TIER2_COMPONENTS else 3
            works.append(self._work(kind, tier, inputs, works))
        self._cover(works, inputs)
        return works

    def _role_for(self, kind: Kind, tier: int, roles: list[Role]) -> Role | None:
        rng = self.rng
        by_title = {r.title: r for r in roles}
        if kind.base == "Paper":
            return by_title.get("Research assistant")
        if kind.kind == "Talk":
            return by_title.get("Co-organiser") if rng.random() < 0.5 else None
        jobs = [r for r in roles if r.cls == "Role" and r.title not in ("Volunteer maintainer", "Co-organiser")]
        chance = 0.75 if tier < 3 else 0.2
        if rng.random() < chance and jobs:
            return rng.choice(jobs)
        if rng.random() < 0.1:
            return by_title.get("Volunteer maintainer")
        return None

    def _work(self, kind: Kind, tier: int, inputs: UnitInputs, earlier: list[Work]) -> Work:
        rng = self.rng
        parent = None
        if kind.base == "Component":
            parents = [w for w in earlier if w.base == "Project" and w.tier < 3 and w.kind != "Talk"]
            parent = rng.choice(parents) if parents else None
        about = None
        if kind.kind == "Talk":
            candidates = [w for w in earlier if w.kind != "Talk" and w.base != "Component"]
            about = rng.choice(candidates) if candidates else None
        role = (
            self._role_for(kind, tier, inputs.roles)
            if parent is None
            else (next((r for r in inputs.roles if r.local == parent.role), None))
        )
        label = self._label(kind, role, inputs, parent, about)
        local = self.namer.take(label)
        if parent is not None:
            start = parent.start
            end = parent.end
            tier_months = self._months(tier, start, end)[: rng.randint(1, 6)]
        else:
            start, end = self._dates(tier, role, inputs.unit)
            tier_months = self._months(tier, start, end)
        if about is not None and kind.kind == "Talk":
            after = max(about.start, role.start if role else about.start)
            start = min(months.add(after, rng.randint(1, 12)), months.LAST)
            start = date(start.year, start.month, rng.randint(5, 25))
            end = start
            tier_months = [months.first(start)]
        work = Work(
            local=local,
            label=label,
            base=kind.base,
            kind=kind.kind,
            phrase=kind.phrase,
            tier=tier,
            start=start,
            end=end,
            months=tier_months,
            role=role.local if role else None,
        )
        if role is not None and role.end is not None and work.start > role.end:
            work.role = None  # a talk given after the role ended
        if tier == 1:
            self.rank += 1
            work.rank = self.rank
        work.uses = self._stack(inputs)
        work.implements = self._pick(inputs.techniques, rng.randint(0, 3))
        work.themes = self._pick(inputs.themes, rng.randint(1, 2))
        work.datasets = self._pick(inputs.datasets, 1) if rng.random() < 0.4 else []
        if about is not None:
            work.related = [about.local]
        elif earlier and rng.random() < 0.25:
            other = rng.choice(earlier)
            if other.local != (parent.local if parent else None):
                work.related = [other.local]
        before = [w for w in earlier if w.start < work.start and w.base == work.base and w.base != "Component"]
        if before and rng.random() < 0.08:
            work.succeeds = rng.choice(before).local
        if parent is not None:
            work.component_of = parent.local
            work.source_file = f"src/{label.split()[-1].lower()}.py"
        if kind.base == "Paper":
            assert end is not None
            work.published = date(end.year, end.month, min(end.day, 10 + rng.randint(0, 15)))
            work.published = max(work.published, start)
            work.venue = f"{rng.choice(self.words.names('paper_topics'))} Workshop {work.published.year}"
        if kind.kind == "Talk":
            work.published = start
            org = inputs.orgs[role.org] if role and work.role else None
            work.venue = (
                f"{org.label} {start.year}"
                if org
                else f"{rng.choice(self.words.names('work_nouns'))} Conference {start.year}"
            )
        if kind.kind not in ("Talk", "Writing") and kind.base != "Paper":
            slug = "-".join(label.lower().replace(".", "").split())
            work.repository = REPOSITORIES + (slug if parent is None else "-".join(parent.label.lower().split()))
        work.purpose = rng.choice(self.words.names("purposes")).format(
            noun=rng.choice(self.words.names("purpose_nouns"))
        )
        return work

    def _cover(self, works: list[Work], inputs: UnitInputs) -> None:
        """Every skill and concept of the unit is used by at least one work."""
        hosts = [w for w in works if w.kind != "Talk"]
        used = {x for w in works for x in (*w.uses, *w.implements, *w.themes, *w.datasets)}
        for pool, attr in (
            (inputs.skills, "uses"),
            (inputs.techniques, "implements"),
            (inputs.themes, "themes"),
            (inputs.datasets, "datasets"),
        ):
            for item in pool:
                if item.local not in used:
                    getattr(self.rng.choice(hosts), attr).append(item.local)
