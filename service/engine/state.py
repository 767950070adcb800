"""The working state of one plan: what was understood, what was read, what will be answered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from service.engine.answer import Draft, Read, Reading
from service.engine.catalog import Entity
from service.engine.engine import Engine
from service.engine.model import Plan
from service.engine.question import Question
from service.engine.readers import READERS
from service.engine.resources import about_url
from service.engine.retrieve import ArticleHit, PassageHit, holds, search_articles
from service.engine.trace import Trace
from service.kb.wiki import slug
from service.language.declarations import Way
from service.queries import QueryRun
from service.text import stem, terms
from service.voice import Voice

WORD = re.compile(r"[^\W\d_]{3,}")  # a word of an answer the meaning model may bridge an asking word to
Runs = dict[tuple[str, tuple[tuple[str, str], ...], int], QueryRun]  # stored queries run, by name, params and cap


@dataclass(frozen=True)
class Checkpoint:
    sparql: int
    read: dict[str, Reading]
    sentences: list[tuple[str, list[str]]]
    listed: list[str]
    exact: bool
    support: float


@lru_cache(maxsize=1024)
def console_url(query: str) -> str:
    """The console address that runs this exact text (the same stored queries are filled again and again)."""
    return "/console?query=" + quote(query, safe="")


@dataclass
class State:
    """What one plan has read and drafted so far, over its analysed question `q` (service/engine/question.py)."""

    engine: Engine
    plan: Plan
    q: Question
    _hits: list[ArticleHit] | None = None
    read: Read = field(default_factory=Read)
    draft: Draft = field(default_factory=Draft)
    exact: bool = False  # an authored or graph answer
    listed: list[str] = field(default_factory=list)  # IRIs a route listed, in its order
    subject: str | None = None  # what the answer is about when it is not a name of the question ("the role before X")
    support: float = 0.0
    trace: Trace | None = None  # the steps taken, when asked for (service/engine/trace.py)
    of_kind_asked: bool = False  # the answer lists the things of the category asked ("what OS does it run on")
    near: bool = False  # a passage of the work named kept though it lacks the question's words: weak (plan.py)
    reason: str = ""  # why the question is declined, when it is (refuse.py), for the trace
    way: Way | None = None  # the way of a route declaration being tried (matcher.py)
    # the stored queries run for the question, by name, parameters and row cap: each runs once, whichever branch
    # (or part of a question asked as two) reads it (plan.py shares it)
    runs: Runs = field(default_factory=dict)

    @property
    def hits(self) -> list[ArticleHit]:
        """Wiki articles for the question, best first, filtered (main seed, 5.4): searched only when a branch
        needs them, so a question answered from the graph does not pay for passage search."""
        if self._hits is None:
            engine, terms_ = self.engine, self.q.terms
            found = search_articles(engine.passages, terms_, engine.synonyms, engine.weights["article"])
            cfg = engine.weights["wiki_hits"]
            if found:
                floor = found[0].score * float(cfg["min_relative_score"])
                found = [h for h in found if h.coverage >= float(cfg["min_coverage"]) and h.score >= floor]
            self._hits = found[: int(cfg["limit"])] if terms_ else []
            if self.trace is not None:
                shown = [{"article": h.article, "score": round(h.score, 3), "coverage": round(h.coverage, 3)}
                         for h in self._hits]  # fmt: skip
                self.trace.add("passages", "articles searched: " + (", ".join(
                    f"{h['article']} {h['score']}" for h in shown) or "none kept"), hits=shown)  # fmt: skip
        return self._hits

    @property
    def voice(self) -> Voice:
        return self.engine.voice

    def addresses(self) -> bool:
        """Whether the answer drafted so far speaks to what the question asks: one of its asking words (or a
        synonym) is in a sentence or in something read, or it relates all the names the question relates. An
        overview of a name is no answer to "how much did they pay her"."""
        ask = self.q.ask
        if self.way is not None:  # "which awards has she won": what the route's answers speak to unsaid
            ask = tuple(a for a in ask if a not in self.engine.declarations[self.way.route].speaks_to)
        skills = self._skills_named()
        if not skills and (not ask or self.of_kind_asked):  # "what OS does the Widgeteer firmware run on": its
            return True  # platforms
        texts = [s for s, _ in self.draft.sentences] + [f"{r.title} {r.text}" for r in self.read.items.values()]
        found = set(terms(" ".join(texts)))
        if any(not self._spoken_of(e, found) for e in skills):
            return False  # "what did he use MATLAB for in his student days": his studies, without MATLAB, are no answer
        if not ask or self.of_kind_asked:
            return True
        if any(holds(found, a, self.engine.synonyms) for a in ask):
            return True
        if (choices := self.q.choices) and all(any(b in found for b in choices.get(a, ())) for a in ask):
            return True  # "research or holiday?": the answer speaks to the one it was
        # "how did the pandemic affect her work": a text that speaks of a time named by its name speaks to it
        if any(stem(w) in found for w in self.q.in_period & self.engine.dates.named_words):
            return True
        # "why did she choose simulated annealing for Widgeteer": a text relating every name the question relates
        # answers it, whatever verb the question used
        ents = self.q.entities
        return len(ents) >= 2 and all(set(terms(e.label)) <= found for e in ents)

    def _skills_named(self) -> list[Entity]:
        """The skills the question names, but for one written as an everyday word in lower case ("how far back
        does the data go": no question of Go)."""
        common = self.engine.common_english
        return [e for e in self.q.entities if e.kind == "skill"
                and not any(m.text.islower() and self.engine.speller.english(m.text) >= common
                            for m in self.q.mentions_of(e.iri))]  # fmt: skip

    def _spoken_of(self, e: Entity, found: set[str]) -> bool:
        """Whether the answer drafted names the thing (as the question or the graph does), or read a query bound
        to it."""
        names = [e.label, e.short or "", *(m.text for m in self.q.mentions_of(e.iri))]
        if any(name and set(terms(name)) <= found for name in names):
            return True
        bound = f"<{e.iri}>"
        return any(bound in run.query for run in self.plan.sparql)

    def bridged(self) -> bool:
        """An asking word the answer drafted does not use, bridged by the meaning model to a word it does, near
        enough (weights.yaml meaning.bridge_word): "which competitions did she enter" by "entries"."""
        meaning, ask = self.engine.meaning, self.q.ask
        if meaning is None or not ask:
            return False
        texts = [s for s, _ in self.draft.sentences] + [f"{r.title} {r.text}" for r in self.read.items.values()]
        text = " ".join(texts)
        said = [w for w in dict.fromkeys(WORD.findall(text.lower())) if w not in self.engine.search_stopwords]
        floor = float(self.engine.weights["meaning"]["bridge_word"])
        for word in self.q.cue:
            if stem(word) not in ask:
                continue
            near = meaning.nearest_word(word.lower(), said)
            if near is not None and near[1] >= floor:
                if self.trace is not None:
                    self.trace.add("meaning", f"“{word}” bridged to “{near[0]}” of the answer ({near[1]:.2f})",
                                   word=word, to=near[0], cosine=round(near[1], 3))  # fmt: skip
                return True
        return False

    def by_section(self) -> bool:
        """The answer quotes a section of the article of a thing the question names whose heading is of the kind
        of section the question asks for ("why did the Elbe Steps open so late": its "What went wrong"): the
        visitor's own words for the particulars ("late") need not be the section's."""
        kinds = self.q.sections_asked
        if not kinds:
            return False
        index, sections = self.engine.passages, self.engine.intents.sections
        wanted = {stem(w) for kind in kinds for w in sections.get(kind, ())}
        named = {e.name for e in self.q.entities if e.has_article}
        for key in self.read.items:
            doc = index.doc_of.get(key[2:]) if key.startswith("p:") else None
            if doc is not None and index.docs[doc].article in named and index.section_terms[doc] & wanted:
                if self.trace is not None:
                    self.trace.add("branch", f"the section “{index.docs[doc].heading}” is of the kind asked "
                                   f"({', '.join(kinds)})", kinds=list(kinds))  # fmt: skip
                return True
        return False

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(len(self.plan.sparql), dict(self.read.items), list(self.draft.sentences),
                          list(self.listed), self.exact, self.support)  # fmt: skip

    def rollback(self, cp: Checkpoint) -> None:
        """Forget what a branch read and drafted: its answer did not address the question."""
        del self.plan.sparql[cp.sparql :]
        self.read.items = dict(cp.read)
        self.draft.sentences = list(cp.sentences)
        self.listed, self.exact, self.support = list(cp.listed), cp.exact, cp.support
        self.of_kind_asked = self.near = False
        self.plan.route = "empty"
        self.subject = None

    def run(self, route: str, params: dict[str, Any] | None = None, *, cap: int = 1000) -> QueryRun:
        """Run the stored query a route names (lexicon/routes.yaml) and keep it in the plan."""
        run = self.peek(route, params, cap=cap)
        self.plan.sparql.append(run)
        if self.q.excluded:  # the plan keeps every row the console shows; the branch reads those not set apart
            run = replace(run, rows=[r for r in run.rows if not any(c.value in self.q.excluded for c in r.values())])
        if self.trace is not None:
            shown = {k: str(v) for k, v in (params or {}).items()}
            self.trace.add("query", f"stored query {run.name} ({', '.join(f'{k}={v}' for k, v in shown.items())}): "
                           f"{len(run.rows)} row{'s' if len(run.rows) != 1 else ''} in {run.ms:.2f} ms",
                           query=run.name, file=run.file, params=shown, rows=len(run.rows),
                           ms=round(run.ms, 3))  # fmt: skip
        return run

    def peek(self, route: str, params: dict[str, Any] | None = None, *, cap: int = 1000) -> QueryRun:
        """The stored query a route names, run once for the whole question (`runs`), not kept in the plan: read to
        decide, or kept by `run`."""
        name = self.engine.routes["routes"].get(route, route)
        key = (name, tuple(sorted((k, repr(v)) for k, v in (params or {}).items())), cap)
        run = self.runs.get(key)
        if run is None:
            run = self.runs[key] = self.engine.kb.catalog.run(name, params or {}, row_cap=cap)
        return run

    def query(self, key: str, **given: object) -> QueryRun | None:
        """Run a stored query of the route declaration being tried (`queries: {key: {query, params}}`), each
        parameter filled by the reader the declaration names (service/engine/readers.py), or by the step when it
        says `step`; None, without running, when a required parameter has no value in the question."""
        assert self.way is not None
        use = self.engine.declarations[self.way.route].queries[key]
        stored = self.engine.kb.catalog[use.query]
        params: dict[str, object] = {}
        for name, reader in use.params.items():
            value = given.get(name) if reader == "step" else READERS[reader](self.q)
            if value is None:
                if not stored.params[name].optional:
                    return None
                continue
            params[name] = value
        return self.run(use.query, params)

    def read_query(self, run: QueryRun, summary: str) -> str:
        title = self.engine.kb.catalog[run.name].title
        return self.read.add(
            f"q:{len(self.plan.sparql)}:{run.name}",
            Reading("graph", title, console_url(run.query), summary),
        )

    def named_in_quoted(self) -> list[str]:
        """The things a quoted passage names that the question names too, in its own words ("the Rust reasoner
        for Widgeteer" of a passage saying "the Widgeteer reasoner"): what the answer is about besides the
        article's subject, in the order the passages name them."""
        asked = set(self.q.terms)
        quoted = [r.text for r in self.read.items.values() if r.kind == "passage"]
        found: list[tuple[int, int, str]] = []
        for own, pattern, iri in (named for term in asked for named in self.engine.names_in_text.get(term, ())):
            if own <= asked:
                at = next(((n, m.start()) for n, text in enumerate(quoted) if (m := pattern.search(text))), None)
                if at is not None:
                    found.append((*at, iri))
        return [iri for _, _, iri in sorted(found)]

    def read_passage(self, hit: PassageHit) -> str:
        p = hit.passage
        anchor = "" if p.kind == "lead" else "#" + slug(p.heading.split(" › ")[-1])
        return self.read.add(f"p:{p.id}", Reading("passage", p.heading, f"/wiki/{p.article}{anchor}", p.text))

    def read_entity(self, entity: Entity, facts: QueryRun) -> str:
        """An entity's graph facts as a source: what the facts query returned for its description."""
        described = [r["value"].value for r in facts.rows if r["property"].value.endswith("#description")]
        text = described[0] if described else entity.description or entity.label
        return self.read.add(f"e:{entity.name}", Reading("graph", entity.label, about_url(entity), text))

    def read_definition(self, term: str, text: str, url: str) -> str:
        return self.read.add(f"d:{term}", Reading("definition", term, url, text))

    def say(self, text: str, *refs: str) -> None:
        self.draft.say(text, *refs)

    def tell(self, key: str, *refs: str, **values: object) -> None:
        """Say a sentence of the engine language (`route.name` of a declaration's `say:`, or a message), filled."""
        self.draft.say(self.engine.sentence(key, **values), *refs)

    def say_account(self, e: Entity, facts: QueryRun | None = None) -> None:
        """ "Widget: <what the graph says of it>", citing its facts (read now unless given)."""
        facts = facts or self.run("facts", {"entity": e.iri})
        ref = self.read_entity(e, facts)
        if e.description:
            self.tell("account", ref, thing=e.label, description=e.description)
        else:
            self.say(e.label, ref)
