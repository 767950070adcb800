"""The working state of one plan: what was understood, what was read, what will be answered."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from service.engine.answer import Draft, Read, Reading
from service.engine.catalog import Entity
from service.engine.dates import Period
from service.engine.engine import Engine
from service.engine.intents import contains
from service.engine.link import Linked, tokenize
from service.engine.model import Plan
from service.engine.quantity import Quantity
from service.engine.resources import about_url
from service.engine.retrieve import ArticleHit, PassageHit, holds, search_articles
from service.engine.trace import Trace
from service.kb.wiki import slug
from service.queries import QueryRun
from service.text import stem, terms
from service.text import words as words_of
from service.voice import Voice


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
    engine: Engine
    plan: Plan
    today: date
    words: list[str]  # every word of the normalized question, folded
    linked: Linked
    cue: list[str]  # the words that name nothing
    said: list[str] = field(default_factory=list)  # every word but those of the names of things (the person's stay)
    kind: str = "search"
    authored_key: str | None = None  # the authored or canned answer the question matches
    period: Period | None = None
    _hits: list[ArticleHit] | None = None
    terms: tuple[str, ...] = ()
    read: Read = field(default_factory=Read)
    draft: Draft = field(default_factory=Draft)
    exact: bool = False  # an authored or graph answer
    listed: list[str] = field(default_factory=list)  # IRIs a route listed, in its order
    subject: str | None = None  # what the answer is about when it is not a name of the question ("the role before X")
    support: float = 0.0
    _ask: list[str] | None = None
    _amount: tuple[Quantity | None] | None = None
    trace: Trace | None = None  # the steps taken, when asked for (service/engine/trace.py)
    excluded: frozenset[str] = frozenset()  # what the question sets apart ("apart from Widgeteer", apart.py)
    of_kind_asked: bool = False  # the answer lists the things of the category asked ("what OS does it run on")
    near: bool = False  # a passage of the work named kept though it lacks the question's words: weak (plan.py)

    @property
    def hits(self) -> list[ArticleHit]:
        """Wiki articles for the question, best first, filtered (main seed, 5.4): searched only when a branch
        needs them, so a question answered from the graph does not pay for passage search."""
        if self._hits is None:
            engine = self.engine
            found = search_articles(engine.passages, self.terms, engine.synonyms, engine.weights["article"])
            if engine.meaning is not None:  # meaning search, only with EMBEDDINGS_ENABLED (service/engine/meaning.py)
                coverage = engine.passages.coverage_of(self.terms, engine.synonyms)
                found = engine.meaning.fuse(engine.passages, self.terms, self.plan.question, found, coverage)
            cfg = engine.weights["wiki_hits"]
            if found:
                floor = found[0].score * float(cfg["min_relative_score"])
                found = [h for h in found if h.coverage >= float(cfg["min_coverage"]) and h.score >= floor]
            self._hits = found[: int(cfg["limit"])] if self.terms else []
            if self.trace is not None:
                shown = [{"article": h.article, "score": round(h.score, 3), "coverage": round(h.coverage, 3)}
                         for h in self._hits]  # fmt: skip
                self.trace.add("passages", "articles searched: " + (", ".join(
                    f"{h['article']} {h['score']}" for h in shown) or "none kept"), hits=shown)  # fmt: skip
        return self._hits

    @property
    def voice(self) -> Voice:
        return self.engine.voice

    # -- what was linked ------------------------------------------------------------------

    @property
    def entities(self) -> list[Entity]:
        """The linked entities; the owner's own name only when nothing else is named: "what did Ada do with
        SPARQL" asks about SPARQL in her work, as "what did she do with SPARQL" does."""
        found = [self.engine.entities[i] for i in self.linked.entities if i in self.engine.entities]
        owner = self.engine.by_name.get(self.engine.kb.site.person)
        if owner is not None and len(found) > 1 and owner in found:
            return [e for e in found if e is not owner]
        return found

    def linked_kinds(self) -> list[str]:
        return [e.kind for e in self.entities]

    def class_named(self) -> tuple[str, str] | None:
        """The kind of work or skill category the question names outside its linked names, longest name first:
        (IRI, "class" or "category")."""
        for key, value in self.engine.classes_longest_first:
            if contains(self.cue, key):
                return value
        return None

    def asks_which(self, iri: str) -> bool:
        """Whether the question asks which things of the kind or category `iri` it names: a name of it right
        after a word of intents.yaml asks_which ("what OS", "which chip"), not "does it use the X library"."""
        words, which = self.words, self.engine.intents.asks_which
        return any(value[0] == iri and any(tuple(words[i : i + len(key)]) == key and words[i - 1] in which
                                           for i in range(1, len(words)))
                   for key, value in self.engine.classes_longest_first)  # fmt: skip

    def which_words(self) -> set[str]:
        """The stems of the words right after the first word of intents.yaml asks_which, up to the next stopword:
        the kind of thing asked for ("what audio middleware did it use": audio, middleware)."""
        words, which, stop = self.words, self.engine.intents.asks_which, self.engine.stopwords
        at = next((i + 1 for i, w in enumerate(words) if w in which), len(words))
        out: list[str] = []
        for w in words[at:]:
            if w in stop:
                break
            out.append(stem(w))
        return set(out)

    def class_words(self) -> set[str]:
        """The stems of the words of every name of the kinds of work and skill categories the question names."""
        named = set(self.classes_named())
        return {stem(w) for key, value in self.engine.classes_longest_first if value in named for w in key}

    def classes_named(self) -> list[tuple[str, str]]:
        """Every kind of work and skill category the question names outside its linked names, longest name
        first ("languages" and "plugins" in "which languages are his plugins written in")."""
        found: list[tuple[str, ...]] = []
        named: dict[tuple[str, str], None] = {}
        for key, value in self.engine.classes_longest_first:
            # "hardware boards" names a category: the "hardware" inside it names no kind of work
            if contains(self.cue, key) and not any(contains(longer, key) for longer in found):
                found.append(key)
                named[value] = None
        return list(named)

    def has(self, rule: str) -> bool:
        return self.engine.intents.has(rule, self.said)

    def unknown_words(self, words: list[str]) -> list[str]:
        """Content words the site never uses anywhere: in no passage, description, name, cue or lexicon entry."""
        engine = self.engine
        known = engine.known_words
        in_period = set(words_of(self.period.text)) if self.period else set()
        common = engine.common_english  # "behind", "actually": words of every question, no topic of their own
        stems = (
            stem(w)
            for w in words
            if w not in engine.stopwords and w not in engine.intents.filler and w not in in_period
            and engine.speller.english(w) < common
        )
        return [
            t
            for t in stems
            if t not in known
            and t not in engine.speller.known
            and not engine.passages.df(t)
            and not (engine.descriptions and engine.descriptions.df(t))
            and not t.isdigit()
        ]

    def name_terms(self, e: Entity) -> set[str]:
        """The stemmed words the question names `e` with ("widget canceller")."""
        return {t for m in self.linked.mentions if e.iri in m.iris for t in terms(m.text)}

    def amount(self) -> Quantity | None:
        """The amount the question asks for (quantities.yaml: "how long", "how many stops"), if any."""
        if self._amount is None:
            engine = self.engine
            self._amount = (engine.quantities.asked(self.said, engine.amount_skipped, engine.synonyms),)
        return self._amount[0]

    def ask(self) -> list[str]:
        """What the question asks beyond the names it links: the stems of the words no intent, filler, topic,
        reference or period accounts for ("pay" in "how much did Acme pay him")."""
        if self._ask is None:
            accounted = self.engine.accounted
            in_period = set(words_of(self.period.text)) if self.period else set()
            stems = (stem(w) for w in self.cue if w not in accounted and w not in in_period and not w.isdigit())
            self._ask = [t for t in dict.fromkeys(stems) if t not in accounted]
            if self._ask and set(self._ask) <= self._described_by_name():
                self._ask = []  # "which projects use hand-written Arm assembly": only the name, as described
        return self._ask

    def _described_by_name(self) -> set[str]:
        """The stems of the words just before a name that the thing's own description uses of it: the name as
        the visitor wrote it ("hand-written Arm assembly", "the open-hardware Widgeteer")."""
        tokens = tokenize(self.plan.normalized)
        out: set[str] = set()
        for m in self.linked.mentions:
            e = self.engine.entities.get(m.iris[0]) if len(m.iris) == 1 else None
            if e is None or not e.description:
                continue
            own = set(terms(e.description))
            before = [t for t in tokens if t.end <= m.start][-2:]
            for t in reversed(before):
                if stem(t.word) not in own or t.word in self.engine.stopwords:
                    break
                out.add(stem(t.word))
        return out

    def addresses(self) -> bool:
        """Whether the answer drafted so far speaks to what the question asks: one of its asking words (or a
        synonym) is in a sentence or in something read, or it relates all the names the question relates. An
        overview of a name is no answer to "how much did they pay her"."""
        ask = self.ask()
        if not ask or self.of_kind_asked:  # "what OS does the Widgeteer firmware run on": its platforms
            return True
        texts = [s for s, _ in self.draft.sentences] + [f"{r.title} {r.text}" for r in self.read.items.values()]
        found = set(terms(" ".join(texts)))
        if any(holds(found, a, self.engine.synonyms) for a in ask):
            return True
        # "why did she choose simulated annealing for Widgeteer": a text relating every name the question relates
        # answers it, whatever verb the question used
        ents = self.entities
        return len(ents) >= 2 and all(set(terms(e.label)) <= found for e in ents)

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(len(self.plan.sparql), dict(self.read.items), list(self.draft.sentences),
                          list(self.listed), self.exact, self.support)  # fmt: skip

    def rollback(self, cp: Checkpoint) -> None:
        """Forget what a branch read and drafted: its answer did not address the question."""
        del self.plan.sparql[cp.sparql :]
        self.read.items = dict(cp.read)
        self.draft.sentences = list(cp.sentences)
        self.listed, self.exact, self.support = list(cp.listed), cp.exact, cp.support
        self.of_kind_asked = False
        self.plan.route = "empty"
        self.subject = None

    def about_her(self) -> bool:
        """Something in the question ties it to the portfolio: a name it links, or a topic word."""
        return bool(self.entities or self.linked.ambiguous) or self.has("describes") or any(
            w in self.engine.intents.topic_words for w in self.words
        )

    def out_of_scope(self) -> bool:
        """Names nothing the site knows, shows no sign of being about her or her work, and uses a word the
        site never uses: a question about something else ("who won the world cup in 2018?")."""
        return not self.about_her() and bool(self.unknown_words(self.words))

    def unknown_rest(self) -> list[str]:
        """Content words outside the linked names that the site never uses anywhere: the question asks
        about something else ("the weather in Lisbon tomorrow"), so an overview of the name is no answer."""
        return self.unknown_words(self.cue)

    # -- reading --------------------------------------------------------------------------

    def run(self, route: str, params: dict[str, Any] | None = None, *, cap: int = 1000) -> QueryRun:
        """Run the stored query a route names (lexicon/routes.yaml) and keep it in the plan."""
        name = self.engine.routes["routes"].get(route, route)
        run = self.engine.kb.catalog.run(name, params or {}, row_cap=cap)
        self.plan.sparql.append(run)
        if self.excluded:  # the plan keeps every row the console shows; the branch reads those not set apart
            run = replace(run, rows=[r for r in run.rows if not any(c.value in self.excluded for c in r.values())])
        if self.trace is not None:
            shown = {k: str(v) for k, v in (params or {}).items()}
            self.trace.add("query", f"stored query {run.name} ({', '.join(f'{k}={v}' for k, v in shown.items())}): "
                           f"{len(run.rows)} row{'s' if len(run.rows) != 1 else ''} in {run.ms:.2f} ms",
                           query=run.name, file=run.file, params=shown, rows=len(run.rows),
                           ms=round(run.ms, 3))  # fmt: skip
        return run

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
        asked = set(self.terms)
        quoted = [r.text for r in self.read.items.values() if r.kind == "passage"]
        found: list[tuple[int, int, str]] = []
        for own, pattern, iri in self.engine.names_in_text:
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

    def say_account(self, e: Entity, facts: QueryRun | None = None) -> None:
        """ "Widget: <what the graph says of it>", citing its facts (read now unless given)."""
        facts = facts or self.run("facts", {"entity": e.iri})
        self.say(f"{e.label}: {e.description}" if e.description else e.label, self.read_entity(e, facts))
