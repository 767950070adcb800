"""c. Graph hops: the names in the question, their neighbours in the knowledge graph (the stored query
entity-neighbours), then the passages that mention them, with the word score plus a bonus per name."""

from __future__ import annotations

from dataclasses import dataclass, field

from service.engine.catalog import Entity
from service.lab.asked import Asked
from service.lab.model import Step, Technique
from service.lab.scoring import formula, plain_weights, ranked, sum_shown
from service.text import query_terms

NEIGHBOURS = "entity-neighbours"  # queries/entity-neighbours.rq


@dataclass
class Hops:
    names: list[Entity] = field(default_factory=list)  # linked in the question, and followed
    neighbours: list[Entity] = field(default_factory=list)  # one hop from a name, each once
    links: list[str] = field(default_factory=list)  # "Atlas —uses→ Rust", as the graph states them
    notes: list[str] = field(default_factory=list)  # names not followed, and why
    said: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a name's IRI -> its search words as written


def hops(asked: Asked) -> Hops:
    """The question's names, through the engine's linker, and their neighbours through the stored query."""
    engine, tuning = asked.engine, asked.tuning
    linked = engine.linker.link(asked.question)
    person = engine.by_name.get(engine.kb.site.person)
    out = Hops()
    for m in linked.ambiguous:
        out.notes.append(f"“{m.text}” names {len(m.iris)} things; the lab follows none of them")
    for iri in linked.entities:
        e = engine.entities.get(iri)
        if e is None:
            continue
        if person is not None and e.iri == person.iri and not tuning.follow_person:
            out.notes.append(f"{e.label} is the portfolio's person, everything's neighbour: neither scored nor "
                             "followed (graph.follow_person)")  # fmt: skip
            continue
        out.names.append(e)
        mention = next(m for m in linked.mentions if m.iris == [iri])
        out.said[iri] = query_terms(mention.text, engine.search_stopwords)
    named = {e.iri for e in out.names} | ({person.iri} if person and not tuning.follow_person else set())
    seen: set[str] = set()
    for e in out.names:
        taken = 0
        for row in engine.kb.catalog.run(NEIGHBOURS, {"entity": e.iri}).rows:
            other = engine.entities.get(row["neighbour"].value)
            if other is None or other.iri in named or taken >= tuning.neighbours:
                continue
            taken += 1
            prop = row["propertyLabel"].value
            out.links.append(f"{e.label} —{prop}→ {other.label}" if row["direction"].value == "out"
                             else f"{other.label} —{prop}→ {e.label}")  # fmt: skip
            if other.iri not in seen:
                seen.add(other.iri)
                out.neighbours.append(other)
    return out


def graph(asked: Asked) -> Technique:
    index, tuning, corpus = asked.corpus.index, asked.tuning, asked.corpus
    name_bonus, hop_bonus = tuning.name_bonus, tuning.neighbour_bonus
    t = Technique(
        "graph",
        "Graph hops",
        "Names in the question are linked to entities of the knowledge graph, and the graph is followed one hop. "
        "A passage gains for every name of the question and every neighbour it mentions, so a passage about a "
        "neighbour can be found though it shares no word with the question.",
        f"score = BM25 + {name_bonus:g} × names of the question mentioned + {hop_bonus:g} × neighbours mentioned; "
        f"{formula(index)}",
        shown=tuning.shown,
    )
    found = hops(asked)
    t.steps.append(Step("Names in the question: " + (", ".join(f"{e.label} ({e.kind})" for e in found.names)
                                                     or "none the graph knows"), found.notes))  # fmt: skip
    if found.names:
        t.steps.append(Step(f"In the graph (stored query {NEIGHBOURS}), {len(found.neighbours)} neighbours, at most "
                            f"{tuning.neighbours} per name:", found.links))  # fmt: skip
    weighted = plain_weights(asked.words)
    scores = dict(index.bm25(weighted))
    names, neighbours = {e.iri for e in found.names}, {e.iri for e in found.neighbours}
    labels = {e.iri: e.label for e in [*found.names, *found.neighbours]}
    bonus: dict[int, tuple[list[str], list[str]]] = {}
    if names:
        for doc, mentioned in enumerate(corpus.mentions):
            own, near = sorted(mentioned & names), sorted(mentioned & neighbours)
            if own or near:
                bonus[doc] = ([labels[i] for i in own], [labels[i] for i in near])
                scores[doc] = scores.get(doc, 0.0) + name_bonus * len(own) + hop_bonus * len(near)
    t.steps += [
        Step(f"{len(bonus)} passages mention a name or a neighbour (the engine's linker finds it in the text, or "
             "the passage belongs to that entity's article)."),
        Step(f"Each passage: its word score, + {name_bonus:g} per name of the question, + {hop_bonus:g} per "
             f"neighbour it mentions. Kept the best {t.shown}."),
    ]  # fmt: skip
    for doc, score in ranked(scores, tuning.depth):
        why = "words: " + sum_shown(index, doc, weighted)
        own, near = bonus.get(doc, ([], []))
        if own:
            why += f"; + {name_bonus:g} × {len(own)} ({', '.join(own)})"
        if near:
            why += f"; + {hop_bonus:g} × {len(near)} ({', '.join(near)})"
        t.ranking.append(asked.passage_hit(doc, score, f"{why}; = {score:.2f}"))
    return t
