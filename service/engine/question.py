"""A question analysed once (service/engine/analyse.py): its words, the names it links and their kinds, its
period, the cue concepts it holds, the kinds of work it names, the amount it asks for and the words left over.

Every route reads this one value; none reads the question's text again. What is costly and needed by only
some routes (the cue concepts, the words left over, the amount asked) is worked out the first time a route
asks and kept: the value never changes once made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING

from service.engine.catalog import CONCEPTS, Entity
from service.engine.dates import Period
from service.engine.intents import MAX_PHRASE, contains, ngrams
from service.engine.link import Linked, Mention, Token, tokenize
from service.engine.quantity import Quantity
from service.text import fold, stem, terms
from service.text import words as words_of

_CLAUSE = re.compile(r"[,;:]|\s[-\u2013\u2014]+\s")  # between clauses: a comma, semicolon, colon or dash

if TYPE_CHECKING:
    from service.engine.engine import Engine


@dataclass(frozen=True, eq=False)
class Question:
    engine: Engine = field(repr=False)
    asked: str  # as received
    normalized: str  # spelling corrected, shorthand expanded, read after the previous question, names set apart
    today: date
    tokens: tuple[Token, ...]  # of `normalized`
    linked: Linked  # the names it links (read only)
    cue: tuple[str, ...]  # the words that name nothing, without the phrases that ask nothing ("on record")
    said: tuple[str, ...]  # every word but those of the names of things (the person's names stay)
    kind: str  # the kind of question (intents.yaml order)
    rule: str  # the intent rule that decided it ("" when none did)
    read: tuple[str, ...]  # the words that rule read
    authored_key: str | None  # the authored or canned answer the question matches
    period: Period | None
    terms: tuple[str, ...]  # the words searched for in passages
    corrections: tuple[tuple[str, str], ...] = ()
    excluded: frozenset[str] = frozenset()  # what the question sets apart ("apart from Widgeteer", apart.py)
    asking: tuple[str, ...] | None = None  # `said` without the visitor's own story, when it tells one (analyse._told)
    unasked: frozenset[str] = frozenset()  # search words that ask nothing: the visitor's story, the owner's name
    _cues: dict[str, bool] = field(default_factory=dict, repr=False)

    # -- words -----------------------------------------------------------------------------

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Every word of the normalized question, folded."""
        return tuple(t.word for t in self.tokens)

    @cached_property
    def expansions(self) -> list[str]:
        """The synonyms of the search words that are not search words themselves."""
        synonyms = self.engine.synonyms
        return sorted({s for t in self.terms for s in synonyms.get(t, ())} - set(self.terms))

    def has(self, concept: str) -> bool:
        """Whether the question holds the cue concept (an intent rule of intents.yaml, or a route's own cue
        words), read outside the names of things and the visitor's own story ("I work for a city council" asks
        no where); what is declined as private or opinion is read in every word (refuse.py)."""
        found = self._cues.get(concept)
        if found is None:
            words = self.said if self.asking is None else self.asking
            found = self._cues[concept] = self.engine.intents.has(concept, words)
        return found

    @cached_property
    def relations_asked(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The relations of the ontology whose names the question says ("came before", "made of"), with their
        property: (name words, property IRI)."""
        relations, by_words = self.engine.relations, self.engine.relations_by_words
        found = {n for key in ngrams(self.said) for n in by_words.get(key, ())}
        found |= {n for n in by_words.get((), ()) if contains(self.said, relations[n][0])}  # longer than a run
        return tuple(relations[n] for n in sorted(found))

    @cached_property
    def facts_asked(self) -> frozenset[str]:
        """The properties of a value the question names by a label ("venue", "published")."""
        return frozenset(prop for key, prop in self.engine.facts_named if _said(self.said, key))

    def has_in_words(self, concept: str) -> bool:
        """The cue concept read in every word, names included ("what is X" is a definition whatever X is)."""
        return self.engine.intents.has(concept, self.words)

    @cached_property
    def sections_asked(self) -> tuple[str, ...]:
        """The kinds of section asked for (intents.yaml sections): "why", "results" for "how accurate"."""
        return tuple(self.engine.intents.sections_asked(self.said))

    @cached_property
    def sections_asked_in_words(self) -> tuple[str, ...]:
        return tuple(self.engine.intents.sections_asked(self.words))

    def words_after(self, end: int) -> list[str]:
        """The words that begin at or after a position of the normalized question."""
        return [t.word for t in self.tokens if t.start >= end]

    def words_outside(self, spans: list[tuple[int, int]]) -> list[str]:
        """The words outside the spans of the normalized question (names, a period)."""
        return [t.word for t in self.tokens if not any(a <= t.start < b for a, b in spans)]

    def words_without(self, text: str) -> list[str]:
        """The words of the question in lower case with every occurrence of `text` taken out (a period)."""
        return [t.word for t in tokenize(self.normalized.lower().replace(text, " "))]

    @cached_property
    def skipped_ends(self) -> tuple[int, ...]:
        """Where each name read as a word ends ("what is widgeteer the successor of")."""
        text = fold(self.normalized)
        return tuple(text.find(fold(w)) + len(w) for w in self.linked.skipped if fold(w) in text)

    def possessive_at(self, end: int) -> bool:
        """Whether "'s" follows a name ending at `end` ("Widget's successor")."""
        return self.normalized[end : end + 2] in ("'s", "’s")

    def span_text(self, start: int, end: int) -> str:
        """The question's words between two positions, as the visitor wrote them."""
        return self.normalized[start:end]

    # -- names -----------------------------------------------------------------------------

    @cached_property
    def entities(self) -> tuple[Entity, ...]:
        """The linked entities; the owner's own name only when nothing else is named: "what did Ada do with
        SPARQL" asks about SPARQL in her work, as "what did she do with SPARQL" does."""
        engine = self.engine
        found = [engine.entities[i] for i in self.linked.entities if i in engine.entities]
        owner = engine.by_name.get(engine.kb.site.person)
        if owner is not None and len(found) > 1 and owner in found:
            return tuple(e for e in found if e is not owner)
        return tuple(found)

    @cached_property
    def linked_kinds(self) -> tuple[str, ...]:
        return tuple(e.kind for e in self.entities)

    def name_terms(self, e: Entity) -> set[str]:
        """The stemmed words the question names `e` with ("widget canceller")."""
        return {t for m in self.linked.mentions if e.iri in m.iris for t in terms(m.text)}

    @cached_property
    def absent_named(self) -> Linked:
        """The technologies the graph lacks that the question names (absent.yaml and the catalogue), all of them."""
        return self.engine.absent_linker.link(self.normalized)

    @cached_property
    def absent(self) -> Linked:
        """The technologies the graph lacks that the question names: not inside a period ("in spring 2024" is no
        Spring framework), and not where a longer or equal name of the graph is."""
        mentions = self.absent_named.mentions
        if self.period is not None:
            at = self.normalized.lower().find(self.period.text)
            inside = range(at, at + len(self.period.text)) if at >= 0 else range(0)
            mentions = [m for m in mentions if m.start not in inside]
        spans = [(m.start, m.end) for m in self.linked.mentions]
        mentions = [m for m in mentions
                    if not any(a < m.end and m.start < b and (b - a) >= (m.end - m.start) for a, b in spans)]
        return replace(self.absent_named, mentions=mentions)  # fmt: skip

    @cached_property
    def clauses_asked(self) -> tuple[tuple[str, ...], ...]:
        """The words asked (`ask`) in each clause of a question of several clauses, split at commas, semicolons,
        colons and dashes: ("makerspac",) and ("peopl",) of "that makerspace workshop he ran, what did people
        build"."""
        clauses = [set(terms(c)) for c in _CLAUSE.split(self.normalized)]
        if len(clauses) < 2:
            return ()
        return tuple(words for c in clauses if (words := tuple(t for t in self.ask if t in c)))

    @cached_property
    def names_own_practice(self) -> bool:
        """Whether all the question names beyond the person is the person's own practice, in words of intents.yaml
        own_practice ("her studio", "since she went solo"), not by its name (a role like any)."""
        own = self.engine.own_practice
        if own is None:
            return False
        owner = self.engine.by_name.get(self.engine.kb.site.person)
        named = [m for m in self.linked.mentions if not (owner and m.iris == [owner.iri])]
        return bool(named) and all(m.iris == [own[0]] and own[2].found_in(words_of(m.text)) for m in named)

    def mentions_of(self, iri: str) -> list[Mention]:
        return [m for m in self.linked.mentions if iri in m.iris]

    # -- kinds of work and categories named ---------------------------------------------------

    @cached_property
    def classes_named(self) -> tuple[tuple[str, str], ...]:
        """Every kind of work and skill category the question names outside its linked names, longest name
        first ("languages" and "plugins" in "which languages are his plugins written in")."""
        found: list[tuple[str, ...]] = []
        named: dict[tuple[str, str], None] = {}
        for key, value in self.engine.classes_in(self.cue):
            # "hardware boards" names a category: the "hardware" inside it names no kind of work
            if not any(contains(longer, key) for longer in found):
                found.append(key)
                named[value] = None
        return tuple(named)

    @cached_property
    def class_named(self) -> tuple[str, str] | None:
        """The kind of work or skill category the question names outside its linked names, longest name first:
        (IRI, "class", "category" or "concept"); failing that, in a question of a period, the kind a verb of it
        asks for ("what has she written since 2024": writing), when it names no technology ("written in Rust")."""
        found = self.engine.classes_in(self.cue)
        if found:
            return found[0][1]
        if self.period is None or self.absent.mentions or any(e.kind in CONCEPTS or e.kind == "work"
                                                              for e in self.entities):  # fmt: skip
            return None  # "when was Widget written": that work's dates; "what blog engine did she write": a work
        verbs, words = self.engine.class_verbs, self.words
        for i, w in enumerate(words):
            if w not in verbs:
                continue
            after = words[i + 1 : i + 2]
            # "what made her write it", "what is it written in": the thing written, not a kind of work; "written
            # in 2021" is a period
            if after and after[0] in self.engine.intents.asked_with_not_before and not (
                    self._period_at(i + 1) or self._period_at(i + 2)):  # "in 2021" (its "in" read), "in summer 2021"
                continue
            return verbs[w], "class"
        return None

    def _period_at(self, at: int) -> bool:
        """Whether the period the question names begins at its `at`-th word."""
        if self.period is None:
            return False
        said = words_of(self.period.text)
        return tuple(self.words[at : at + len(said)]) == tuple(said)

    @cached_property
    def kind_of_work(self) -> str | None:
        """The kind of work the question names ("talks", "games"), unless it is too broad to narrow a list by
        (routes.yaml broad_kinds)."""
        kind = self.class_named
        broad = self.engine.broad("broad_kinds")
        return kind[0] if kind is not None and kind[1] == "class" and not kind[0].endswith(broad) else None

    def asks_which(self, iri: str) -> bool:
        """Whether the question asks which things of the kind or category `iri` it names: a name of it right
        after a word of intents.yaml asks_which ("what OS", "which chip"), not "does it use the X library"."""
        words, which = self.words, self.engine.intents.asks_which
        return any(value[0] == iri and any(tuple(words[i : i + len(key)]) == key and words[i - 1] in which
                                           for i in range(1, len(words)))
                   for key, value in self.engine.classes_longest_first)  # fmt: skip

    @cached_property
    def which_words(self) -> frozenset[str]:
        """The stems of the words right after the first word of intents.yaml asks_which, up to the next stopword:
        the kind of thing asked for ("what audio middleware did it use": audio, middleware)."""
        words, which, stop = self.words, self.engine.intents.asks_which, self.engine.stopwords
        at = next((i + 1 for i, w in enumerate(words) if w in which), len(words))
        out: list[str] = []
        for w in words[at:]:
            if w in stop:
                break
            out.append(stem(w))
        return frozenset(out)

    @cached_property
    def class_words(self) -> frozenset[str]:
        """The stems of the words of every name of the kinds of work and skill categories the question names."""
        stems = self.engine.class_stems
        return frozenset().union(*(stems.get(value, ()) for value in set(self.classes_named)))

    # -- what is asked -------------------------------------------------------------------------

    @cached_property
    def amount(self) -> Quantity | None:
        """The amount the question asks for (quantities.yaml: "how long", "how many stops"), if any."""
        engine = self.engine
        return engine.quantities.asked(self.said, engine.amount_skipped, engine.synonyms)

    @cached_property
    def in_period(self) -> frozenset[str]:
        """The words that name the period, with the words leading into it ("back in 2018": dates.yaml lead_in)."""
        if not self.period:
            return frozenset()
        words = words_of(self.period.text)
        said, n = list(self.said), len(words)
        at = next((i for i in range(len(said) - n + 1) if said[i : i + n] == words), None)
        lead = [p for p in self.engine.dates.lead_in if at is not None and tuple(said[max(0, at - len(p)) : at]) == p]
        return frozenset(words).union(*lead) - set(self.period.gap)

    @cached_property
    def ask(self) -> tuple[str, ...]:
        """What the question asks beyond the names it links: the stems of the words no intent, filler, topic,
        reference or period accounts for ("pay" in "how much did Acme pay him")."""
        accounted = self.engine.accounted
        stems = (stem(w) for w in self.cue if w not in accounted and w not in self.in_period and not w.isdigit())
        # the words asking for an amount ask for its form ("size" in "tidal park size?"): the answer must state
        # the amount, which the route's check of a stated amount asks, not use the word
        form = self.amount.form_words if self.amount is not None else frozenset()
        ask = [t for t in dict.fromkeys(stems) if t not in accounted and t not in form]
        if ask and set(ask) <= self._described_by_name():
            return ()  # "which projects use hand-written Arm assembly": only the name, as described
        return tuple(ask)

    @cached_property
    def choices(self) -> dict[str, frozenset[str]]:
        """Each stem the question offers as one of two ("research or holiday?") -> the stem offered beside it:
        an answer that speaks to one of them answers the choice. Not names: "tessera or lantern" asks of both."""
        stop = self.engine.stopwords
        words = [t.word for t in self.tokens if t.word == "or" or t.word not in stop]  # "research or a holiday"
        out: dict[str, set[str]] = {}
        named = self.engine.linker.names_alone
        for i in range(1, len(words) - 1):
            if words[i] == "or" and not named(words[i - 1]) and not named(words[i + 1]):
                a, b = stem(words[i - 1]), stem(words[i + 1])
                out.setdefault(a, set()).add(b)
                out.setdefault(b, set()).add(a)
        return {k: frozenset(v) for k, v in out.items()}

    def _described_by_name(self) -> set[str]:
        """The stems of the words just before a name that the thing's own description uses of it: the name as
        the visitor wrote it ("hand-written Arm assembly", "the open-hardware Widgeteer")."""
        out: set[str] = set()
        for m in self.linked.mentions:
            e = self.engine.entities.get(m.iris[0]) if len(m.iris) == 1 else None
            if e is None or not e.description:
                continue
            own = set(terms(e.description))
            before = [t for t in self.tokens if t.end <= m.start][-2:]
            for t in reversed(before):
                if stem(t.word) not in own or t.word in self.engine.stopwords:
                    break
                out.add(stem(t.word))
        return out

    def unknown_words(self, words: tuple[str, ...] | list[str]) -> list[str]:
        """Content words the site never uses anywhere: in no passage, description, name, cue or lexicon entry."""
        engine = self.engine
        known = engine.known_words
        common = engine.common_english  # "behind", "actually": words of every question, no topic of their own
        stems = (
            stem(w)
            for w in words
            if w not in engine.stopwords and w not in engine.intents.filler and w not in self.in_period
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

    @cached_property
    def unknown_rest(self) -> tuple[str, ...]:
        """Content words outside the linked names that the site never uses anywhere: the question asks
        about something else ("the weather in Lisbon tomorrow"), so an overview of the name is no answer."""
        return tuple(self.unknown_words(self.cue))

    @cached_property
    def about_her(self) -> bool:
        """Something in the question ties it to the portfolio: a name it links, a kind of work or category of the
        graph ("the book"), or a topic word."""
        return bool(self.entities or self.linked.ambiguous or self.classes_named) or self.has("describes") or any(
            w in self.engine.intents.topic_words for w in self.words
        )

    @cached_property
    def works_described(self) -> tuple[Entity, ...]:
        """Works whose graph description (with their names) best matches the question's words, best first."""
        return self._described("work")

    @cached_property
    def skills_described(self) -> tuple[Entity, ...]:
        """Skills whose graph description best matches the question's words, best first: "3D modelling program"
        of Rhino, "the 3D modelling program in which she shapes terrain"."""
        return self._described("skill")

    @cached_property
    def _description_scores(self) -> dict[int, float]:
        """Every entity's graph description (with its names) scored for the question's words, once."""
        index = self.engine.descriptions
        return index.bm25({t: 1.0 for t in self.terms}) if index is not None and self.terms else {}

    def _described(self, kind: str) -> tuple[Entity, ...]:
        entities, described, scores = self.engine.entities, self.engine.described, self._description_scores
        of_kind = [d for d in scores if entities[described[d]].kind == kind]
        return tuple(entities[described[d]] for d in sorted(of_kind, key=lambda d: (-scores[d], d)))

    @cached_property
    def site_words(self) -> tuple[str, ...]:
        """The words of the question, outside the names it links, that the site's passages use and that are no
        everyday English word: the vocabulary of the owner's work ("classifier", "int8", "sensors")."""
        engine = self.engine
        common, person, stop = engine.common_english, engine.person_words, engine.stopwords
        return tuple(w for w in dict.fromkeys(self.said) if w not in person and w not in stop
                     and engine.passages.df(stem(w)) and engine.speller.english(w) < common)  # fmt: skip

    @cached_property
    def trade_words(self) -> tuple[str, ...]:
        """The site's words in the question that are words of the owner's trade, not of every day (weights.yaml
        unknown.trade_word): "did squashing the classifier down to int8 hurt accuracy" is about the work."""
        trade, english = int(self.engine.weights["unknown"]["trade_word"]), self.engine.speller.english
        return tuple(w for w in self.site_words if not w.isdigit() and english(w) < trade)

    @cached_property
    def out_of_scope(self) -> bool:
        """Names nothing the site knows, shows no sign of being about her or her work, and uses a word the
        site never uses: a question about something else ("who won the world cup in 2018?"). A technology of her
        field that she lacks, asked as one ("Vectorworks user or not?"), is about her work."""
        if self.about_her or self.trade_words or not self.unknown_words(self.words):
            return False
        return not (self.absent.mentions and self.has("technology"))

    @cached_property
    def role(self) -> Entity | None:
        """The role the question names, or the latest role at an organisation it names."""
        engine = self.engine
        for e in self.entities:
            if e.kind == "role":
                return e
            if e.kind == "organisation" and engine.roles_by_org.get(e.iri):
                return engine.entities[engine.roles_by_org[e.iri][0]]
        return None

    @cached_property
    def concepts(self) -> tuple[Entity, ...]:
        """The skills, techniques, themes and datasets named."""
        return tuple(e for e in self.entities if e.kind in CONCEPTS)


def _said(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """Whether the words hold the phrase (no wildcard): one look-up in the words' runs (cached per question)."""
    if 0 < len(phrase) <= MAX_PHRASE:
        return phrase in ngrams(words)
    return contains(words, phrase)
