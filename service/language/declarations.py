"""Route declarations (service/language/routes/<route>.yaml, docs/ROUTES.md): read and checked as data.

One file per route, named as the route appears in the Plan JSON. It says which stored queries the route runs and
how their parameters come from the analysed question, when the route applies and when it does not, its
precedence among every route's ways, the sentences of its answers, and the questions that must and must not reach
it. An owner's data/lexicon/routes/<route>.yaml changes any of it for their portfolio (as the other language
files are changed: `key`, `key+`, `key-`) or declares a route of their own.

This module knows the shape of a declaration only; service/engine/ evaluates the conditions and runs the steps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from service import yamlfile
from service.errors import Problem
from service.text import stem

DIR = Path(__file__).parent / "routes"

# The named steps a way may run (service/engine/steps.py registers one function for each).
STEPS = frozenset({
    "refuse.private", "refuse.opinion", "refuse.out_of_scope", "refuse.unnamed_opinion", "refuse.thing_alone",
    "refuse.unpublished", "refuse.third_party", "refuse.everyday", "routes.ambiguous",
    "lists.pivot", "lists.comparison", "career.place_of", "career.events_in_place", "career.career",
    "relations.dates", "lists.count", "relations.relation", "relations.fact", "relations.of_kind", "lists.ongoing",
    "lists.role_named", "lists.period", "texts.described_work", "texts.described_skills", "lists.class_list",
    "about.authored_answer",
    "about.contact_or_recent", "about.answer_of_route", "texts.define", "texts.lexicon_definition", "texts.explain",
    "lists.with_all",
    "lists.concept_works", "about.person_named", "relations.described_neighbour", "routes.entity_answer",
    "lists.all_works", "texts.top_passage", "texts.named_work_passage", "lists.works_filtered", "graph.list",
})  # fmt: skip

KINDS = frozenset({"work", "skill", "technique", "theme", "dataset", "role", "organisation", "place", "person",
                   "award", "coverage", "occurrence",
                   "concept"})  # concept: a skill, technique, theme or dataset  # fmt: skip
FILTERS = frozenset({"technology", "kind", "period", "place", "role"})

# condition key -> the kind of value it takes
CONDITIONS: dict[str, str] = {
    "kind": "words",  # the kind of question is one of these (intents.yaml order)
    "cue": "words",  # every one of these cue concepts is in the question (an intent rule or a route's own cue)
    "any_cue": "words",  # at least one of them
    "without": "words",  # none of them
    "period": "bool",  # the question names a period
    "names": "bool",  # it names something the graph knows (not only ambiguous names)
    "named": "kinds",  # it names something of one of these kinds
    "named_only": "kinds",  # everything it names is of these kinds (true when it names nothing)
    "first_named": "kinds",  # the first thing it names is of one of these kinds
    "named_count": "count",  # {kinds: [...] or not: [...], min: N, max: N}: how many things of those kinds
    "ambiguous_only": "bool",  # it names only names shared by several things
    "kind_of_work": "bool",  # it names a kind of work narrow enough to narrow a list by ("talks", not "projects")
    "class_named": "bool",  # it names a kind of work or a category, outside its names
    "broad_kind": "bool",  # ...and that one is too broad to narrow a list by (routes.yaml broad_kinds)
    "role": "bool",  # it names a role, or an organisation where the person held one
    "own_practice": "bool",  # what it names beyond the person is the person's own practice ("her studio")
    "authored": "bool",  # it is one of the questions with one answer (answers.yaml)
    "amount": "bool",  # it asks for an amount ("how long", "how many stops")
    "sections": "bool",  # it asks for a kind of section ("why", "what went wrong", the results)
    "section": "words",  # it asks for one of these kinds of section (intents.yaml sections: how, why, wrong, ...)
    "unknown_rest": "bool",  # outside its names, it uses a word the site never uses
    "asks_more": "bool",  # it asks something beyond its names, its cue words and filler
    "filters": "filters",  # {at_least: N, of: [technology, kind, period, place, role]}: how many filters it names
}
ROUTE_KEYS = frozenset({"about", "ways", "queries", "checks", "answer", "subject", "task", "complete", "whole",
                        "follow_ups", "declines", "refuses", "overview", "names_in_passages", "cue", "say",
                        "examples", "not", "confidence", "meaning", "speaks_to"})  # fmt: skip
WAY_KEYS = frozenset({"step", "precedence", "when", "unless", "also", "hedged"})
CHECKS = frozenset({"addresses", "stated"})
READERS = frozenset({"person", "entity", "work", "skill", "concept", "place", "award", "organisation", "role", "kind",
                     "category", "skill_kind", "period.start", "period.end", "today", "year_ago", "outside",
                     "latest"})  # fmt: skip
_FIELD = re.compile(r"{([A-Za-z_][\w.]*)")


@dataclass(frozen=True)
class Condition:
    """Tests on the analysed question, all of which must hold."""

    tests: tuple[tuple[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return dict(self.tests)


@dataclass(frozen=True)
class Way:
    """One way a plan reaches a route: a step, tried at its precedence when its conditions hold."""

    route: str
    step: str
    precedence: float
    when: tuple[Condition, ...] = ()  # any one of them holds (none: always)
    unless: tuple[Condition, ...] = ()  # none of them holds
    also: tuple[str, ...] = ()  # the other routes the step may answer as
    hedged: bool = False  # an answer kept as weak (a passage that lacks the question's words)

    @property
    def routes(self) -> tuple[str, ...]:
        return (self.route, *self.also)


@dataclass(frozen=True)
class QueryUse:
    """A stored query a route runs, and where each parameter's value comes from (a reader of the question, or
    `step`: the step fills it)."""

    query: str
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Route:
    name: str
    about: str = ""
    ways: tuple[Way, ...] = ()
    queries: dict[str, QueryUse] = field(default_factory=dict)
    checks: frozenset[str] = CHECKS  # what a kept answer must do: speak to the question's words, state a fact asked
    answer: str = "graph"  # "text": confidence from how much of the question the passage quoted holds
    subject: str = ""  # "listed": with nothing named, the answer is about the first thing listed
    task: str = ""  # the interpretation's task and operation when they are the route's own ("compare")
    complete: str = ""  # "all" or "own": a sentence of a nearby article may complete the answer (complete.py)
    whole: bool = False  # it answers two questions asked in one itself ("when and where was the talk")
    follow_ups: str = ""  # what a follow-up asks of: "role" (the one role found), "related", "first" (first listed),
    # "narrowed" (the list itself, narrowed further: "just the ones in Germany")
    declines: bool = False  # no answer and no results (private, off_topic, empty)
    refuses: bool = False  # declined by design: no model is asked either
    overview: bool = False  # the answer is the named thing's own overview
    names_in_passages: bool = False  # things the quoted passages name that the question names are results too
    confidence: str = ""  # "ambiguous": the answer offers a choice
    cue: dict[str, list[str]] = field(default_factory=dict)  # the route's own cue words, a cue concept of its name
    say: dict[str, str] = field(default_factory=dict)  # the sentences of its answers, by name
    examples: tuple[str, ...] = ()
    not_: tuple[str, ...] = ()
    owner_examples: bool = False  # the examples are the owner's (their portfolio's), not the engine's demo
    # questions of the route in general words: the meaning model's labelled data, to choose this route for a
    # question no route's rules answered (matcher.py); a route without them is never chosen by meaning
    meaning: tuple[str, ...] = ()
    # words its answer speaks to though it need not say them: "won" in "which awards has she won" (the awards
    # are what she won); a question's word among them is no word the answer leaves unanswered
    speaks_to: frozenset[str] = frozenset()


@cache
def engine_docs() -> dict[str, tuple[Any, dict[yamlfile.Path, int], str]]:
    """The engine's declarations as shipped: route name -> (document, line of each key, file shown); read once (a
    declaration is never changed in place: an owner's file is merged into a copy)."""
    out = {}
    for path in sorted(DIR.glob("*.yaml")):
        doc, lines = yamlfile.load_with_lines(path.read_text(encoding="utf-8"))
        out[path.stem] = (doc, lines, f"service/language/routes/{path.name}")
    return out


def parse(name: str, doc: Any, lines: Mapping[yamlfile.Path, int], shown: str, *,
          owner_examples: bool = False) -> tuple[Route | None, list[Problem]]:  # fmt: skip
    """A route from its (merged) document, and what is wrong with it."""
    problems: list[Problem] = []

    def bad(path: yamlfile.Path, message: str) -> None:
        at = next((lines[path[:n]] for n in range(len(path), -1, -1) if path[:n] in lines), 0)
        problems.append(Problem(shown, at, "route", f"{name}: {message}"))

    if not isinstance(doc, dict):
        bad((), "a route declaration is a mapping (about, ways, queries, say, examples ...)")
        return None, problems
    for key in doc:
        if key not in ROUTE_KEYS:
            bad((key,), f"`{key}` is not a key of a route declaration (known: {', '.join(sorted(ROUTE_KEYS))})")
    ways = tuple(w for n, item in enumerate(_list(doc.get("ways")))
                 if (w := _way(name, item, ("ways", n), bad)) is not None)  # fmt: skip
    queries = {}
    for key, use in (doc.get("queries") or {}).items():
        if not isinstance(use, dict) or not isinstance(use.get("query"), str):
            bad(("queries", key), f"query {key}: {{query: NAME, params: {{param: reader}}}}")
            continue
        params = {str(k): str(v) for k, v in (use.get("params") or {}).items()}
        for pname, reader in params.items():
            if reader not in READERS and reader != "step":
                bad(("queries", key), f"query {key}: ${pname} from {reader!r}, which is not a reader of the question "
                                      f"(known: {', '.join(sorted(READERS))}, or step)")  # fmt: skip
        queries[str(key)] = QueryUse(use["query"], params)
    checks = doc.get("checks", sorted(CHECKS))
    if not isinstance(checks, list) or any(c not in CHECKS for c in checks):
        bad(("checks",), f"checks: a list among {', '.join(sorted(CHECKS))}")
        checks = sorted(CHECKS)
    say = {str(k): str(v) for k, v in (doc.get("say") or {}).items()}
    cue = {str(k): [str(p) for p in v or []] for k, v in (doc.get("cue") or {}).items()}
    for key in cue:
        if key not in ("starts_with", "mentions", "ends_with", "unless"):
            bad(("cue", key), "cue: starts_with, mentions, ends_with or unless, each a list of phrases")
    route = Route(
        name=name,
        about=str(doc.get("about") or ""),
        ways=ways,
        queries=queries,
        checks=frozenset(checks),
        answer=str(doc.get("answer") or "graph"),
        subject=str(doc.get("subject") or ""),
        task=str(doc.get("task") or ""),
        complete=str(doc.get("complete") or ""),
        whole=bool(doc.get("whole")),
        follow_ups=str(doc.get("follow_ups") or ""),
        declines=bool(doc.get("declines")),
        refuses=bool(doc.get("refuses")),
        overview=bool(doc.get("overview")),
        names_in_passages=bool(doc.get("names_in_passages")),
        confidence=str(doc.get("confidence") or ""),
        cue=cue,
        say=say,
        examples=tuple(str(q) for q in _list(doc.get("examples"))),
        not_=tuple(str(q) for q in _list(doc.get("not"))),
        owner_examples=owner_examples,
        meaning=tuple(str(q) for q in _list(doc.get("meaning"))),
        speaks_to=frozenset(stem(str(w).lower()) for w in _list(doc.get("speaks_to"))),
    )
    return route, problems


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _way(route: str, item: Any, at: yamlfile.Path, bad: Any) -> Way | None:
    if not isinstance(item, dict) or "step" not in item:
        bad(at, "each way is a mapping with a `step` and a `precedence`")
        return None
    for key in item:
        if key not in WAY_KEYS:
            bad((*at, key), f"`{key}` is not a key of a way (known: {', '.join(sorted(WAY_KEYS))})")
    step = str(item["step"])
    if step not in STEPS:
        bad((*at, "step"), f"no step is called {step!r} (known: {', '.join(sorted(STEPS))})")
        return None
    try:
        precedence = float(item.get("precedence", 500))
    except (TypeError, ValueError):
        bad((*at, "precedence"), "precedence is a number: lower ways are tried first")
        return None
    when, unless = (tuple(c for path, d in _each(item.get(key), (*at, key)) if (c := _condition(d, path, bad)))
                    for key in ("when", "unless"))
    return Way(route, step, precedence, when, unless, tuple(str(r) for r in _list(item.get("also"))),
               bool(item.get("hedged")))  # fmt: skip


def _each(value: Any, at: yamlfile.Path) -> list[tuple[yamlfile.Path, Any]]:
    """The conditions of a `when` or `unless`: one mapping, or a list of them (any one of which)."""
    if isinstance(value, list):
        return [((*at, n), item) for n, item in enumerate(value)]
    return [] if value is None else [(at, value)]


def _condition(doc: Any, at: yamlfile.Path, bad: Any) -> Condition | None:
    if not isinstance(doc, dict) or not doc:
        bad(at, "a condition is a mapping of tests (kind, cue, period, named ...)")
        return None
    tests = []
    for key, value in doc.items():
        shape = CONDITIONS.get(str(key))
        if shape is None:
            bad((*at, key), f"`{key}` is not a condition (known: {', '.join(sorted(CONDITIONS))})")
            continue
        wrong = _wrong(shape, value)
        if wrong:
            bad((*at, key), f"{key}: {wrong}")
            continue
        tests.append((str(key), _frozen(value)))
    return Condition(tuple(tests)) if tests else None


def _wrong(shape: str, value: Any) -> str:
    if shape == "bool":
        return "" if isinstance(value, bool) else "true or false"
    if shape == "words":
        return "" if isinstance(value, list) and all(isinstance(w, str) for w in value) else "a list of names"
    if shape == "kinds":
        ok = isinstance(value, list) and all(k in KINDS for k in value)
        return "" if ok else f"a list of kinds among {', '.join(sorted(KINDS))}"
    if shape == "count":
        if not isinstance(value, dict) or set(value) - {"kinds", "not", "min", "max"}:
            return "{kinds: [...] or not: [...], min: N, max: N}"
        kinds = [*(value.get("kinds") or []), *(value.get("not") or [])]
        return "" if all(k in KINDS for k in kinds) else f"kinds among {', '.join(sorted(KINDS))}"
    if shape == "filters":
        if not isinstance(value, dict) or set(value) - {"at_least", "of"}:
            return "{at_least: N, of: [technology, kind, period, place, role]}"
        return "" if all(f in FILTERS for f in value.get("of") or FILTERS) else f"of: among {', '.join(FILTERS)}"
    return ""


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return frozenset(value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def fields(template: str) -> list[str]:
    """The names a sentence template fills ("{count}", "{works}", "{short}")."""
    return _FIELD.findall(template)


def load(owner: Mapping[str, tuple[Any, Mapping[yamlfile.Path, int], str]]) -> tuple[dict[str, Route], list[Problem]]:
    """Every route: the engine's declarations, each with the owner's file of the same name applied, and the owner's
    own routes; and what is wrong with any of them (each problem at its file and line)."""
    from service.language import merge_route  # noqa: PLC0415  # the package's merge rules, one way for every file

    shipped = engine_docs()
    routes: dict[str, Route] = {}
    problems: list[Problem] = []
    for name in sorted(set(shipped) | set(owner)):
        doc, lines, shown = shipped.get(name) or owner[name]
        own = owner.get(name)
        if name in shipped and own is not None:
            doc, found = merge_route(doc, own[0], dict(own[1]), own[2])
            problems += found
            lines, shown = own[1], own[2]
        route, found = parse(name, doc, lines, shown,
                             owner_examples=own is not None and isinstance(own[0], dict) and "examples" in own[0])
        problems += found
        if route is not None:
            routes[name] = route
    for route in routes.values():
        for way in route.ways:
            for other in way.also:
                if other not in routes:
                    problems.append(Problem(f"routes/{route.name}.yaml", 0, "route",
                                            f"{route.name}: a way answers as {other!r}, which no route declares"))
    return routes, problems
