"""The whole synthetic portfolio: `scale` units, each the size of the demo portfolio, from one seed."""

from __future__ import annotations

import random

from service.synth.career import make_career, make_places
from service.synth.model import Person, Portfolio, Role, Skill, Work
from service.synth.names import Namer
from service.synth.prose import work_description
from service.synth.vocabulary import Vocabulary
from service.synth.words import Words, load_words
from service.synth.works import UnitInputs, WorkMaker

ARTICLE_SKILLS, ARTICLE_TECHNIQUES, ARTICLE_SIDE_WORKS = 10, 8, 10


def generate(scale: int, seed: int = 1, words: Words | None = None) -> Portfolio:
    if scale < 1:
        raise ValueError("the scale is a whole number, 1 or more")
    words = words or load_words()
    rng = random.Random(seed)
    namer = Namer()
    who = words.mapping("person")
    person = Person(
        local=str(who["local"]),
        label=str(who["name"]),
        short=str(who["short"]),
        pronoun=str(who["pronoun"]),
        email=str(who["email"]),
        base=str(who["base"]),
        site=str(who["site"]),
    )
    namer.take(person.label, person.local)
    namer.labels.add(person.short.lower())
    p = Portfolio(person=person, scale=scale, seed=seed)
    p.places = make_places(words, namer)
    vocabulary = Vocabulary(rng, words, namer)
    maker = WorkMaker(rng, words, namer, person.short)
    cities = [c.label for c in p.places if c.located_in and not any(q.located_in == c.local for q in p.places)]
    shared: list[Skill] = []
    for unit in range(scale):
        roles = make_career(rng, words, namer, p, unit)
        skills = vocabulary.skills()
        shared = shared or skills
        techniques, themes, datasets = vocabulary.techniques(), vocabulary.themes(), vocabulary.datasets(cities)
        p.skills += skills
        p.concepts += techniques + themes + datasets
        inputs = UnitInputs(unit, roles, {o.local: o for o in p.orgs}, skills, shared, techniques, themes, datasets)
        works = maker.unit(inputs)
        p.works += works
        p.units.append([w.local for w in works])
        p.articles.append(_articles(rng, works, roles, inputs))
    index = p.index()
    for w in p.works:
        w.description = work_description(p, w, index)
    person.description = (
        f"A software engineer who builds search, data and infrastructure tools. {person.short} has "
        f"{len(p.works)} works in this portfolio, made over {len(p.roles)} roles at {len(p.orgs)} organisations."
    )
    return p


def _articles(rng: random.Random, works: list[Work], roles: list[Role], inputs: UnitInputs) -> list[str]:
    """127 articles a unit, as in the demo: every key work and project, every role and organisation of the
    unit, and a few skills, techniques and side works."""
    chosen = [w.local for w in works if w.tier < 3] + [r.local for r in roles]
    chosen += sorted({r.org for r in roles})
    chosen += [s.local for s in rng.sample(inputs.skills, min(ARTICLE_SKILLS, len(inputs.skills)))]
    chosen += [t.local for t in rng.sample(inputs.techniques, min(ARTICLE_TECHNIQUES, len(inputs.techniques)))]
    side = [w.local for w in works if w.tier == 3]
    chosen += rng.sample(side, min(ARTICLE_SIDE_WORKS, len(side)))
    return chosen
