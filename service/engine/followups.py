"""Follow-up questions (main seed, Algorithm 7): one hop around what the answer was about, and only those the
engine itself answers with confidence. A separate call, so planning stays fast and a chip's own plan
never builds chips of its own."""

from __future__ import annotations

from datetime import date

from service.engine.catalog import CONCEPTS, Entity
from service.engine.model import Plan
from service.engine.plan import Planner
from service.text import words


def _candidates(planner: Planner, plan: Plan) -> list[str]:
    engine = planner.engine
    catalog = engine.kb.catalog
    routes = engine.routes["routes"]
    out: list[str] = []
    route = engine.declarations[plan.route]
    if route.name == "pivot":
        skills = next((run for run in plan.sparql if run.name == routes["category_skills"]), None)
        if skills is not None:
            out += [f"{row['skill'].label} projects" for row in skills.rows[:3] if int(row["works"].value) > 0]
    e: Entity | None = engine.entities.get(plan.entity or "")
    if e is None and plan.results:
        e = engine.entities.get(plan.results[0].iri)
        if e is not None and not route.overview:
            out.append(f"Tell me about {e.display}")
    if e is None:
        return out
    if e.kind == "work":
        if e.has_article and plan.operation != "explain":
            out.append(f"How does {e.display} work?")
        stack = catalog.run(routes["stack"], {"work": e.iri})
        tools = [row["skill"].label for row in stack.rows if 2 <= int(row["otherWorks"].value) + 1 <= 20]
        out += [f"{t} projects" for t in tools[:2] if t]
        related = catalog.run(engine.routes["candidates"]["work"]["query"], {"work": e.iri})
        for row in related.rows[:3]:
            other = engine.entities.get(row["other"].value)
            if other is None:
                continue
            if other.type == e.type:
                out.append(f"Compare {e.display} and {other.display}")
            else:
                out.append(f"Tell me about {other.display}")
    elif e.kind in CONCEPTS:
        candidate = engine.routes["candidates"].get(e.kind)
        if candidate:
            works = catalog.run(candidate["query"], {candidate["param"]: e.iri})
            for row in works.rows[:2]:
                work = engine.entities.get(row["work"].value)
                if work is not None:
                    out.append(f"Tell me about {work.display}")
        if e.kind == "skill" and e.category:
            peers = catalog.run(routes["category_skills"], {"category": e.category})
            peer = next((row["skill"].label for row in peers.rows if row["skill"].value != e.iri), None)
            if peer:
                out.append(f"Compare {e.display} and {peer}")
    elif e.kind in ("organisation", "role"):
        org = engine.entities.get(e.organisation or "") if e.kind == "role" else e
        if org is not None:
            out.append(f"What did {engine.voice.pronoun.subject} do at {org.display}?")
        out += [f"Tell me about {r.label}" for r in plan.results[:2] if r.iri != e.iri]
    return out


def next_questions(planner: Planner, plan: Plan, today: date | None = None) -> list[str]:
    """Up to `followups.max` (weights.yaml) questions to ask next, each checked: planning it gives exact or
    strong with an answer."""
    if plan.confidence.level not in ("exact", "strong"):
        return []
    asked = {tuple(words(plan.question)), tuple(words(plan.normalized))}
    kept: list[str] = []
    for candidate in dict.fromkeys(_candidates(planner, plan)):
        if tuple(words(candidate)) in asked:
            continue
        trial = planner.plan(candidate, today=today)
        if trial.confidence.level in ("exact", "strong") and trial.answer is not None:
            kept.append(candidate)
        if len(kept) == int(planner.engine.weights["followups"]["max"]):
            break
    return kept
