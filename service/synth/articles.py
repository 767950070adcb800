"""The wiki: one Markdown article per chosen entity, written from the same model as the graph, so every date,
count, skill and organisation an article states is in the graph too."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

from service.synth import months
from service.synth.model import Concept, Entity, Organisation, Portfolio, Role, Skill, Work
from service.synth.prose import link, listed, number, period, plural, pronoun, role_period
from service.synth.words import Words

SAMPLE = 8  # works named in an article about a role, skill or technique


class Writer:
    def __init__(self, p: Portfolio, words: Words) -> None:
        self.p, self.words = p, words
        self.index: dict[str, Entity] = p.index()
        self.by_role: dict[str, list[Work]] = defaultdict(list)
        self.by_skill: dict[str, list[Work]] = defaultdict(list)
        self.by_technique: dict[str, list[Work]] = defaultdict(list)
        self.roles_at: dict[str, list[Role]] = defaultdict(list)
        for w in p.works:
            if w.role:
                self.by_role[w.role].append(w)
            for s in w.uses:
                self.by_skill[s].append(w)
            for t in w.implements:
                self.by_technique[t].append(w)
        for r in p.roles:
            self.roles_at[r.org].append(r)

    def _pick(self, rng: random.Random, key: str) -> str:
        return rng.choice(self.words.names(key)).format(noun=rng.choice(self.words.names("purpose_nouns")))

    def article(self, local: str) -> str:
        e = self.index[local]
        rng = random.Random(f"{self.p.seed}:{local}")
        if isinstance(e, Work):
            body = self._work(e, rng)
        elif isinstance(e, Role):
            body = self._role(e)
        elif isinstance(e, Organisation):
            body = self._org(e)
        elif isinstance(e, Skill):
            body = self._uses(
                e, self.by_skill[e.local], f"is {self.words.mapping('category_words')[e.category]}", "use"
            )
        else:
            assert isinstance(e, Concept)
            body = self._uses(e, self.by_technique[e.local], "is a technique", "implement")
        return f"---\nentity: {e.local}\ntitle: {json.dumps(e.label, ensure_ascii=False)}\n---\n{body}"

    def _links(self, names: list[str]) -> str:
        return listed([link(self.index[n]) for n in names])

    def _work(self, w: Work, rng: random.Random) -> str:
        who = self.p.person
        his = pronoun(who, 2)
        if w.role:
            role = self.index[w.role]
            assert isinstance(role, Role)
            context = f"as {role.title.lower()} at {link(self.index[role.org])}, in {his} {link(role, 'role there')},"
        else:
            context = f"in {his} own time"
        lead = f"{w.label} is {w.phrase} that {w.purpose}. {who.label} built it {context} {period(w)}."
        if w.uses:
            lead += f" It is built with {self._links(w.uses[:1])}"
            lead += f", together with {self._links(w.uses[1:])}." if len(w.uses) > 1 else "."
        why = rng.sample(self.words.names("motivations"), 2)
        mechanics = rng.sample(self.words.names("mechanics"), 2)
        noun = rng.choice(self.words.names("purpose_nouns"))
        parts = [lead, "## Why it exists", *(m.format(noun=noun) for m in why), "## How it works", mechanics[0]]
        how = []
        if w.implements:
            how.append(f"It implements {self._links(w.implements)}.")
        if w.component_of:
            how.append(f"It is a component of {link(self.index[w.component_of])}; its code lives in `{w.source_file}`.")
        if len(w.uses) > 1:
            how.append(f"The stack is {self._links(w.uses)}.")
        if how:
            parts.append(" ".join(how))
        design = []
        if w.themes:
            design.append(f"The work sits under {self._links(w.themes)}.")
        if w.datasets:
            design.append(f"It works with the {self._links(w.datasets)} dataset.")
        if w.related:
            design.append(f"In the graph it is related to {self._links(w.related)}.")
        parts += ["## Design decisions", mechanics[1]] + ([" ".join(design)] if design else [])
        parts += ["## Lessons", self._record(w), self._pick(rng, "reflections")]
        return "\n\n".join(parts) + "\n"

    def _record(self, w: Work) -> str:
        if w.kind == "Talk":
            return f"{self.p.person.short} gave the talk at {w.venue} on {months.said_day(w.start)}."
        if w.base == "Paper" and w.published:
            return f"It was published at {w.venue} on {months.said_day(w.published)}."
        n = len(w.months)
        if w.end is None:
            return f"The repository has commits in {plural(n, 'month')} {period(w)}."
        total = months.span(w.start, w.end)
        if total == 1:
            return f"The repository has commits {period(w)}."
        return f"The repository has commits in {number(n)} of the {number(total)} months {period(w)}."

    def _role(self, r: Role) -> str:
        who = self.p.person
        org = self.index[r.org]
        verb = "studied" if r.cls == "Education" else "worked"
        lead = (
            f"{role_period(r)}, {who.label} {verb} at {link(org)} in {link(self.index[r.place])} as {r.title.lower()}."
        )
        works = sorted(self.by_role[r.local], key=lambda w: (w.start, w.label))
        n = len(works)
        if n:
            lead += (
                f" {plural(n, 'work')[0].upper()}{plural(n, 'work')[1:]} in the graph {'was' if n == 1 else 'were'}"
                " made during this role."
            )
        else:
            lead += " No works in the graph were made during this role."
        parts = [lead]
        if works:
            shown = works[:SAMPLE]
            first = shown[0]
            parts += [
                "## Works made during the role",
                f"The first was {link(first)}, started in {months.said(first.start)}. "
                + (f"Among the others are {self._links([w.local for w in shown[1:]])}." if n > 1 else ""),
            ]
        return "\n\n".join(parts) + "\n"

    def _org(self, o: Organisation) -> str:
        who = self.p.person
        roles = sorted(self.roles_at[o.local], key=lambda r: r.start)
        lead = f"{o.label} is {o.what} in {link(self.index[o.place])}."
        if roles:
            held = [f"{link(r, r.title.lower())} ({role_period(r).lower()})" for r in roles]
            lead += f" {who.short} held {plural(len(roles), 'role')} there: {listed(held)}."
        return lead + "\n"

    def _uses(self, e: Entity, works: list[Work], what: str, verb: str) -> str:
        who = self.p.person
        works = sorted(works, key=lambda w: (w.start, w.label))
        n = len(works)
        lead = f"{e.label} {what}. In {who.label}'s portfolio, {plural(n, 'work')} {verb + ('s' if n == 1 else '')} it"
        if not works:
            return lead + ".\n"
        lead += f", the first {link(works[0])}, started in {months.said(works[0].start)}."
        parts = [lead]
        if n > 1:
            parts += [f"## Works that {verb} it", f"Among them are {self._links([w.local for w in works[1:SAMPLE]])}."]
        return "\n\n".join(parts) + "\n"


def write_wiki(p: Portfolio, words: Words, wiki: Path) -> list[Path]:
    writer = Writer(p, words)
    written = []
    width = len(str(len(p.articles)))
    for n, unit in enumerate(p.articles, start=1):
        folder = wiki / f"unit-{n:0{width}d}"
        folder.mkdir(parents=True, exist_ok=True)
        for local in unit:
            path = folder / f"{local}.md"
            path.write_text(writer.article(local), encoding="utf-8")
            written.append(path)
    return written
