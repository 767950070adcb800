"""The engine: everything planning needs, built once from an opened KB. Nothing here reads files."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from spellchecker import SpellChecker

from service.engine.apart import Apart
from service.engine.catalog import Entity, load_entities
from service.engine.dates import DateParser
from service.engine.intents import MAX_PHRASE, Intents, Phrase, Phrases, contains, ngrams, phrases
from service.engine.link import Linker, other_number, tokenize
from service.engine.quantity import Quantities
from service.engine.retrieve import Bm25, PassageIndex
from service.engine.say import render
from service.engine.spelling import Speller
from service.engine.two import TwoQuestions
from service.kb import KB
from service.kb.lexicon import Absent
from service.language.declarations import Route
from service.text import fold, stem, terms, words
from service.vocab import PF
from service.voice import Voice

_MAIN_TITLE = re.compile(r"^([^:?]+?)\s*[:?]\s+\S")  # a title before its subtitle ("Title: Subtitle", "Title? Sub")


@dataclass(frozen=True)
class Authored:
    key: str
    group: str  # about or canned
    phrases: list[Phrase]
    text: str | None
    cite: list[str]
    route: str | None


@dataclass
class Engine:
    kb: KB
    entities: dict[str, Entity]
    by_name: dict[str, Entity]
    linker: Linker
    absent_linker: Linker
    absent: dict[str, Any]
    speller: Speller
    intents: Intents
    quantities: Quantities
    two: TwoQuestions  # two questions asked in one (intents.yaml two_questions)
    apart: Apart  # names a question sets apart (intents.yaml set_apart)
    amount_skipped: frozenset[str]  # words never the thing a count counts ("how many of her stops"): stops
    dates: DateParser
    passages: PassageIndex
    stopwords: frozenset[str]
    synonyms: dict[str, set[str]]
    weights: dict[str, Any]
    routes: dict[str, Any]
    declarations: dict[str, Route]  # the route declarations (service/language/routes/, the owner's applied)
    authored: list[Authored]
    shortcuts: dict[tuple[str, ...], str]
    classes: dict[tuple[str, ...], tuple[str, str]]  # name words -> (IRI, "class" | "category")
    classes_longest_first: list[tuple[tuple[str, ...], tuple[str, str]]]
    class_labels: dict[str, tuple[str, str]]  # IRI -> (label, plural)
    class_verbs: dict[str, str]  # a verb that asks for works of one kind ("written") -> the kind's IRI (pf:askedWith)
    private: Phrases
    opinion: Phrases
    unnamed_opinion: Phrases
    unnamed_refusals: Phrases
    definitions: dict[tuple[str, ...], Any]
    thing_alone: frozenset[str]  # intent rules refused when a question names only general things (abstain.yaml)
    thing_alone_phrases: Phrases  # ...and phrases
    third_party: dict[str, list[str]]  # abstain.yaml about_a_third_party_alone: kinds, except
    unpublished: Phrases  # abstain.yaml unpublished_kinds, all groups
    stated_as: dict[str, tuple[Phrases, re.Pattern[str]]]  # kind -> (its phrases, the form an answer states it in)
    person_words: frozenset[str]  # words that tie a question to the person (abstain.yaml person_words)
    private_topics: frozenset[str]  # private when the question is about the person (abstain.yaml)
    references: dict[str, Any]
    own_practice_spec: dict[str, Any]  # intents.yaml own_practice: the phrases and titles of one's own practice
    role_titles_spec: dict[str, Any]  # intents.yaml role_titles: a role named by its title ("her BSc")
    voice: Voice
    messages: dict[str, str]
    shorthand: dict[str, str]  # chat shorthand -> the word it stands for (language/shorthand.yaml)
    relations: list[tuple[Phrase, str]] = field(default_factory=list)  # words of a relation -> its property IRI
    facts_named: list[tuple[Phrase, str]] = field(default_factory=list)  # words of a fact (a value) -> its property
    search_stopwords: frozenset[str] = frozenset()  # stop words and words that ask nothing: not searched for
    common_english: int = 10**9  # a word this common in English is no topic of its own (weights.yaml)
    roles_by_org: dict[str, list[str]] = field(default_factory=dict)
    recurring: bool = False  # some work was given more than once, each time an occurrence (pf:occurrenceOf)
    known_words: set[str] = field(default_factory=set)  # stems of every word the lexicon and names use
    accounted: frozenset[str] = frozenset()  # words a question may hold without asking anything more
    generic: frozenset[str] = frozenset()  # stems of topic, filler and neutral words: they pick no section
    neutral: frozenset[str] = frozenset()  # words that ask nothing by themselves (intents.yaml neutral)
    neutral_phrases: tuple[tuple[str, ...], ...] = ()  # phrases that ask nothing, whose words may (intents.yaml)
    unstated_phrases: tuple[tuple[str, ...], ...] = ()  # of those, the ones no passage is judged by
    tiers: dict[str, int | None] = field(default_factory=dict)  # IRI -> tier, for fusion
    described: list[str] = field(default_factory=list)  # entity IRIs, in the order of `descriptions`
    descriptions: Bm25 | None = None  # BM25 over each entity's names and description
    samples: list[str] = field(default_factory=list)  # questions the ask page suggests, made from the graph
    expansions: dict[str, str] = field(default_factory=dict)  # IRI -> what its acronym stands for (an alt label)
    meaning: Any = None  # meaning-based search when EMBEDDINGS_ENABLED (service/engine/meaning.py), else None

    @cached_property
    def names_in_text(self) -> dict[str, list[tuple[frozenset[str], re.Pattern[str], str]]]:
        """(stems, pattern, IRI) of each thing but a person: its name as a passage writes it, in any case when it
        has two words or more ("Widgeteer reasoner"), else only as written ("Widgeteer", not "widgeteer"); filed
        under the least of its stems, so that the names a question's words could hold are found without looking
        at every thing (a name whose stems the question holds is filed under one of them)."""
        out: dict[str, list[tuple[frozenset[str], re.Pattern[str], str]]] = defaultdict(list)
        for e in self.entities.values():
            own = frozenset(terms(e.label))
            if e.kind != "person" and own:
                flags = re.IGNORECASE if len(own) >= 2 else 0
                out[min(own)].append((own, re.compile(rf"(?<!\w){re.escape(e.label)}(?!\w)", flags), e.iri))
        return dict(out)

    @classmethod
    def from_kb(cls, kb: KB) -> Engine:
        lex = kb.lexicon
        extra = lex.extra
        routes = extra["routes"]
        weights = extra["weights"]
        entities = load_entities(kb.catalog, routes["routes"]["catalog"], kb.site.entity_base, set(kb.articles),
                                 routes["routes"]["kinds"])  # fmt: skip
        by_name = {e.name: e for e in entities.values()}

        graph_names: dict[str, set[str]] = defaultdict(set)
        expansions: dict[str, str] = {}
        title_articles = {str(w).lower() for w in extra["intents"].get("title_articles") or []}
        urls: dict[str, set[str]] = defaultdict(set)
        for row in kb.catalog.run(routes["routes"]["names"], row_cap=1_000_000).rows:
            iri = row["entity"].value
            if iri not in entities:
                continue
            (urls if row["kind"].value == "url" else graph_names)[row["name"].value].add(iri)
            first, _, rest = row["name"].value.partition(" ")
            if row["kind"].value != "url" and first.lower() in title_articles and len(rest.split()) >= 2:
                graph_names[rest].add(iri)  # "A Field Guide to X" is asked as "the field guide to X"
            main = _MAIN_TITLE.match(row["name"].value) if row["kind"].value != "url" else None
            if main and len(main.group(1).split()) >= 3:  # "How Deep Should We Judge? Evaluating on ...": its
                graph_names[main.group(1)].add(iri)  # main title names it too
            if row["kind"].value == "alt" and spells(entities[iri].label, row["name"].value):
                expansions.setdefault(iri, row["name"].value)  # "SQL": "Structured Query Language"
        person = by_name.get(kb.site.person)
        voice = Voice.of(
            kb.site.to_json(),
            person.label if person else kb.site.person,
            person.short if person else None,
            [n for n, owners in graph_names.items() if person and person.iri in owners],
        )
        language = {k: voice.expand_all(extra[k]) for k in ("intents", "abstain", "answers")}
        p = voice.pronoun  # a pronoun of the owner's own ("xe") is as empty a word as "she"
        stopwords = frozenset(fold(w) for w in [*_stopwords(extra.get("stopwords")), p.subject, p.obj, p.possessive,
                                                p.possessive_pronoun, p.reflexive])  # fmt: skip
        # a name the owner gave with their possessive ("her book") is said with their name too: "Noor's book"
        for name, owners in list(graph_names.items()):
            first, _, rest = name.partition(" ")
            if rest and fold(first) == fold(p.possessive):
                for called in voice.names:
                    graph_names[f"{called}'s {rest}"] |= owners
        alias_names: dict[str, set[str]] = defaultdict(set)
        for alias, target in lex.aliases.items():
            if target in by_name:
                alias_names[alias].add(by_name[target].iri)
        taken = set(graph_names) | set(lex.aliases) | set(voice.names)  # "Ada" names the person, not the language
        english = SpellChecker().word_frequency  # how common a word is in English: one dictionary for all
        absent_items, ordinary = _absent(lex.absent, extra.get("technologies") or [], taken, english)
        ordinary |= set(lex.ordinary_words)
        # a route's own cue words are a cue concept of its name, read as the intent rules are
        spec = dict(language["intents"])
        for route in lex.routes.values():
            if route.cue and route.name not in spec:
                spec[route.name] = voice.expand_all(route.cue)
        language["intents"] = spec
        intents = Intents(spec)
        relation_rows = kb.catalog.run(routes["routes"]["relation_names"]).rows
        named = {kind: [(tuple(t.word for t in tokenize(row["name"].value)), row["property"].value)
                        for row in relation_rows if row["kind"].value == kind] for kind in ("relation", "fact")}
        # "came right before", "built just after": a word of degree after a relation's first word changes nothing
        degree = [fold(str(w)) for w in language["intents"].get("relation_degree") or []]
        relations = named["relation"] + [((key[0], d, *key[1:]), prop) for key, prop in named["relation"]
                                         if len(key) > 1 for d in degree]  # fmt: skip
        # the ontology's names of relations mark a lower-case ordinary word beside them as a name: "what came
        # before widgeteer", "what is widgeteer made of"
        relation_cues = sorted({row["name"].value for row in relation_rows if row["kind"].value == "relation"})
        # what a question sets apart is a name too: "apart from widgeteer, which of her tools are in Rust"
        apart = Apart(language["intents"].get("set_apart"))
        apart_cues = [" ".join(p) for p in apart.phrases]
        linker = Linker(
            graph_names,
            alias_names,
            urls,
            ordinary,
            [*intents.name_cues, *relation_cues, *apart_cues],
            [*intents.name_cues_after, *relation_cues],
            stopwords=stopwords,
            verb_markers=intents.verb_markers,
            verb_phrases=intents.verb_phrases,
            frames=intents.name_frames,
            joining=intents.name_cues_joining,
            same=[*lex.synonym_groups(), *((extra.get("equivalents") or {}).get("in_names") or [])],
        )

        absent_names: dict[str, set[str]] = defaultdict(set)
        absent: dict[str, Any] = {}
        for item in absent_items:
            absent[item.label] = item
            for name in (item.label, *item.aliases):
                absent_names[name].add(item.label)
        absent_linker = Linker(
            absent_names,
            {},
            {},
            ordinary,
            intents.name_cues,
            intents.name_cues_after,
            stopwords=stopwords,
            verb_markers=intents.verb_markers,
            verb_phrases=intents.verb_phrases,
            frames=intents.name_frames,
            joining=intents.name_cues_joining,
        )

        synonyms: dict[str, set[str]] = defaultdict(set)
        for group in lex.synonym_groups():
            stems = {stem(w) for phrase in group for w in words(phrase)}
            for s in stems:
                synonyms[s] |= stems - {s}
        # a word the site writes with a hyphen may be asked without one ("wifi" for "Wi-Fi", "realtime"): the
        # joined form finds the parts
        for passage in kb.passages:
            for a, b in _HYPHENATED.findall(fold(passage.text)):
                joined = stem(a + b)
                if joined not in synonyms:
                    synonyms[joined] |= {stem(a), stem(b)}

        classes: dict[tuple[str, ...], tuple[str, str]] = {}
        class_labels: dict[str, tuple[str, str]] = {}
        verbs: dict[str, set[str]] = defaultdict(set)
        for row in kb.catalog.run(routes["routes"]["class_verbs"]).rows:
            verbs[fold(row["verb"].value)].add(row["term"].value)
        for row in kb.catalog.run(routes["routes"]["classes"]).rows:
            iri, kind = row["term"].value, row["kind"].value
            label = row["label"].value
            plural = row["plural"].value if "plural" in row else _plural(label)
            class_labels[iri] = (label, plural)
            names = [label, plural, row["other"].value if "other" in row else label]
            if "plural" not in row and "other" in row:  # an owner's class, named without its plurals: both
                names.append(_plural(row["other"].value))
            for name in names:
                key = tuple(t.word for t in tokenize(name))
                if key not in classes or (kind == "class" and classes[key][1] != "class"):
                    classes[key] = (iri, kind)  # a kind of work wins over a skill category ("libraries")
        # "client stuff", "research gigs": a kind of work named by its first words and another word for work
        heads = language["intents"].get("work_heads") or {}
        own, said = frozenset(str(w) for w in heads.get("own") or []), [str(w) for w in heads.get("said") or []]
        for key, (iri, kind) in list(classes.items()):
            if kind == "class" and len(key) >= 2 and key[-1] in own:
                for head in said:
                    classes.setdefault((*key[:-1], head), (iri, kind))
        passage_words = [w for p in kb.passages for w in words(f"{p.title} {p.heading} {p.text}")]
        # the words of names and of kinds of thing are the site's words too, used as often as any settled word
        # ("programing languages" -> "programming" even when no article says "programming")
        name_words = set(linker.vocabulary) | {w for key in classes for w in key}
        name_words |= {w for key, _ in relations for w in key}  # "predecesor" -> "predecessor"
        # ...and the words questions ask with: "mastres" -> "masters", a cue of the career rule
        cue_words = {w for w in intents.cue_words if w.isalpha()} - name_words
        passage_words += [w for w in name_words | cue_words for _ in range(int(weights["spelling"]["settled"]))]
        protected = set(linker.vocabulary) | set(stopwords) | {w for a in absent_names for w in words(a)}
        for spec in language["intents"].values():
            protected |= _all_words(spec)
        protected |= (
            set(extra["dates"]["months"]) | set(extra["dates"]["numbers"]) | _all_words(extra["dates"]["parts"])
        )
        sp = weights["spelling"]
        speller = Speller(
            passage_words,
            protected,
            min_length=int(sp["min_length"]),
            max_edits={int(k): int(v) for k, v in sp["max_edits"].items()},
            min_dice=float(sp["min_dice"]),
            english_guard=int(sp["english_guard"]),
            settled=int(sp["settled"]),
            rare_factor=int(sp["rare_factor"]),
            names=name_words,
            english=english,
            british=[(str(b), str(a)) for b, a in sp.get("british_endings") or []],
        )

        answers = language["answers"]
        authored = [
            Authored(
                str(item.get("key", key)),
                group,
                phrases(item.get("questions")),
                item.get("text"),
                list(item.get("cite") or []),
                item.get("route"),
            )
            for group in ("about", "canned")
            for key, item in _items(answers.get(group))
        ]
        shortcuts = {tuple(words(k)): voice.expand(str(v))[0] for k, v in (answers.get("shortcuts") or {}).items()}

        abstain = language["abstain"]
        alone = abstain.get("about_the_thing_alone") or {}
        definitions = {}
        for d in lex.definitions:
            for name in (d.term, *d.aliases):
                definitions[tuple(words(name))] = d
        roles_by_org: dict[str, list[str]] = defaultdict(list)
        for e in sorted(entities.values(), key=lambda e: (e.start or "", e.iri), reverse=True):
            if e.kind == "role" and e.organisation:
                roles_by_org[e.organisation].append(e.iri)  # the latest role at an organisation first
        known_words = {stem(w) for w in protected} | {stem(w) for key in definitions for w in key}
        known_words |= {w for item in authored for p in item.phrases for w in p}
        known_words |= {f(w) for key in classes for w in key for f in (str, stem)}
        known_words |= intents.cue_words | {stem(w) for w in intents.cue_words}
        spec = language["intents"]
        references = spec.get("references") or {}
        neutral = _all_words(spec.get("neutral"))
        neutral_phrases = {tuple(words(str(p))) for p in spec.get("neutral_phrases") or []}
        stated = {tuple(words(str(p))) for p in spec.get("neutral_phrases_stated") or []}
        generic = intents.filler | intents.topic_words | neutral
        generic |= {stem(w) for w in generic}
        accounted = set(stopwords) | generic | intents.cue_words
        accounted |= {w for phrases_ in intents.section_asked_by.values() for p in phrases_ for w in p}  # "accurate"
        accounted |= _all_words([spec.get(k) for k in ("name_cues", "name_cues_after", "verb_markers")])
        accounted |= _all_words(references) | {w for key in classes for w in key}
        accounted |= {stem(w) for w in accounted}
        described = sorted(entities)
        descriptions = Bm25.of_texts(
            [f"{entities[i].label} {entities[i].short or ''} {entities[i].description}" for i in described],
            k1=weights["bm25"]["k1"],
            b=weights["bm25"]["b"],
        )
        person_words = frozenset(_all_words(abstain.get("person_words") or abstain.get("her_words")))
        engine = cls(
            kb=kb,
            entities=entities,
            by_name=by_name,
            linker=linker,
            absent_linker=absent_linker,
            absent=absent,
            speller=speller,
            intents=intents,
            quantities=Quantities(extra["quantities"]),
            two=TwoQuestions(language["intents"].get("two_questions")),
            apart=apart,
            amount_skipped=stopwords | person_words,
            dates=DateParser(extra["dates"]),
            passages=PassageIndex(kb.index, kb.passages, k1=weights["bm25"]["k1"], b=weights["bm25"]["b"]),
            stopwords=stopwords,
            synonyms=dict(synonyms),
            weights=weights,
            routes=routes,
            declarations=lex.routes,
            authored=authored,
            shortcuts=shortcuts,
            classes=classes,
            classes_longest_first=sorted(classes.items(), key=lambda kv: -len(kv[0])),
            class_labels=class_labels,
            class_verbs={verb: next(iter(kinds)) for verb, kinds in verbs.items() if len(kinds) == 1},
            private=Phrases(phrases(abstain.get("private"))),
            opinion=Phrases(phrases(abstain.get("opinion"))),
            unnamed_opinion=Phrases(phrases(abstain.get("opinion_when_nothing_named"))),
            unnamed_refusals=Phrases(phrases(
                (abstain.get("requests_when_nothing_named") or []) + (abstain.get("everyday_when_nothing_named") or [])
            )),
            definitions=definitions,
            thing_alone=frozenset(alone.get("rules") or []),
            thing_alone_phrases=Phrases(phrases(alone.get("phrases"))),
            unpublished=Phrases(phrases([p for g in (abstain.get("unpublished_kinds") or {}).values() for p in g])),
            stated_as=_stated_as(abstain),
            person_words=person_words,
            private_topics=frozenset(_all_words(abstain.get("private_topics"))),
            third_party={k: list(v or []) for k, v in (abstain.get("about_a_third_party_alone") or {}).items()},
            references=references,
            own_practice_spec=spec.get("own_practice") or {},
            role_titles_spec=spec.get("role_titles") or {},
            voice=voice,
            messages={str(k): str(v) for k, v in (extra.get("messages") or {}).items()},
            shorthand={str(k): str(v) for k, v in (extra.get("shorthand") or {}).items()},
            relations=relations,
            facts_named=named["fact"],
            search_stopwords=frozenset(stopwords | neutral),
            common_english=int(weights.get("unknown", {}).get("common_english", 10**9)),
            roles_by_org=dict(roles_by_org),
            recurring=any(e.kind == "occurrence" for e in entities.values()),
            known_words=known_words,
            accounted=frozenset(accounted),
            generic=frozenset(generic),
            neutral=frozenset(neutral),
            neutral_phrases=tuple(sorted(neutral_phrases, key=len, reverse=True)),
            unstated_phrases=tuple(sorted(neutral_phrases - stated, key=len, reverse=True)),
            tiers={iri: e.tier for iri, e in entities.items()},
            described=described,
            descriptions=descriptions,
            expansions=expansions,
        )
        engine.samples = engine.sample_questions()
        return engine

    def sample_questions(self) -> list[str]:
        """Three questions this portfolio answers, for the ask page's placeholder: a skill it uses most, the year
        of its latest activity, two of its key works."""
        out = []
        skills = self.kb.catalog.run(self.routes["routes"]["skills"]).rows
        if skills:
            out.append(f"{skills[0]['skill'].label} projects")
        last = self.kb.catalog.run(self.routes["routes"]["latest_activity"]).rows
        if last and "last" in last[0]:
            out.append(f"what did {self.voice.pronoun.subject} build in {last[0]['last'].value[:4]}?")
        keys = sorted((e for e in self.entities.values() if e.kind == "work" and e.key_rank),
                      key=lambda e: e.key_rank or 0)  # fmt: skip
        if len(keys) >= 2:
            out.append(f"compare {keys[0].display} and {keys[1].display}")
        return out

    @cached_property
    def own_practice(self) -> tuple[str, list[tuple[str, ...]], Phrases] | None:
        """The role of the person's own practice (the first whose name holds a word of intents.yaml own_practice
        titles), the phrases that name it ("before she went solo"), longest first, and the same as one set to
        test a question against at once; or None."""
        spec = self.own_practice_spec
        titles = {fold(str(w)) for w in spec.get("titles") or []}
        roles = sorted((e for e in self.entities.values() if e.kind == "role" and e.start),
                       key=lambda e: (e.start or "", e.iri))  # fmt: skip
        own = next((e for e in roles if titles & set(words(e.label))), None)
        if own is None:
            return None
        named = sorted({tuple(words(str(p))) for p in spec.get("phrases") or []}, key=len, reverse=True)
        return own.iri, named, Phrases(named)

    @cached_property
    def titled_roles(self) -> tuple[dict[tuple[str, ...], tuple[str, int]], Phrases]:
        """A role named by its title after the person's possessive ("her BSc", "his bachelor's", "her internship"):
        each phrase of intents.yaml role_titles (a possessive, then a word of one of its groups) -> the one role
        whose title (its name before the first comma) holds a word of that group, and how many words of the
        phrase name it; a group that several roles' titles hold names none. With the phrases as one set."""
        spec = self.role_titles_spec
        after = [tuple(words(str(p))) for p in spec.get("said_after") or []]
        roles = [e for e in self.entities.values() if e.kind == "role"]
        named: dict[tuple[str, ...], tuple[str, int]] = {}
        for group in spec.get("groups") or []:
            titles = [tuple(words(str(w))) for w in group]
            holding = [e for e in roles if any(contains(words(e.label.split(",", 1)[0]), t) for t in titles)]
            if len(holding) != 1:
                continue
            for title in titles:
                for possessive in after:
                    named[(*possessive, *title)] = (holding[0].iri, len(title))
        return named, Phrases(list(named))

    @cached_property
    def class_stems(self) -> dict[tuple[str, str], frozenset[str]]:
        """The stems of the words of every name of each kind of work and skill category."""
        out: dict[tuple[str, str], set[str]] = {}
        for key, value in self.classes_longest_first:
            out.setdefault(value, set()).update(stem(w) for w in key)
        return {value: frozenset(stems) for value, stems in out.items()}

    @cached_property
    def definitions_longest_first(self) -> list[tuple[tuple[str, ...], Any]]:
        """The lexicon's defined terms and their other names, longest first."""
        return sorted(self.definitions.items(), key=lambda kv: -len(kv[0]))

    @cached_property
    def relations_by_words(self) -> dict[tuple[str, ...], list[int]]:
        """The words of each relation's name -> where it stands in `relations` (under () those too long to be
        looked up as one of a question's runs of words)."""
        out: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for n, (key, _) in enumerate(self.relations):
            out[key if len(key) <= MAX_PHRASE else ()].append(n)
        return dict(out)

    @cached_property
    def _class_rank(self) -> dict[tuple[str, ...], int]:
        return {key: n for n, (key, _) in enumerate(self.classes_longest_first)}

    @cached_property
    def _long_classes(self) -> list[tuple[tuple[str, ...], tuple[str, str]]]:
        return [(k, v) for k, v in self.classes_longest_first if len(k) > MAX_PHRASE]

    def classes_in(self, words: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[str, str]]]:
        """The names of kinds of work and categories the words hold, longest first (in classes_longest_first's
        order): each run of the words looked up once, instead of every name tried."""
        rank = self._class_rank
        found = [key for key in ngrams(words) if key in rank]
        found += [k for k, _ in self._long_classes if contains(words, k)]
        return [(key, self.classes[key]) for key in sorted(found, key=rank.__getitem__)]

    def members(self, kind: str) -> list[str]:
        """The entities of a class, by its IRI (the classes each entity states or the reasoner gave it)."""
        local = kind.rsplit("#", 1)[-1]  # the engine's own classes by their local name, an owner's by their IRI
        return [e.iri for e in self.entities.values() if local in e.classes or kind in e.classes]

    def skill_kind(self, kind: str) -> bool:
        """Whether a kind of concept is a kind of skill: an owner's "plants", whose members are all skills."""
        members = self.members(kind)
        return bool(members) and all(self.entities[i].kind == "skill" for i in members)

    def broad(self, key: str) -> tuple[str, ...]:
        """The ends of the class IRIs too broad to narrow by (routes.yaml broad_kinds, broad_categories)."""
        return tuple(f"#{name}" for name in self.routes.get(key) or [])

    def say(self, message: str, **values: object) -> str:
        """One of the engine's messages (messages.yaml), in the person's voice."""
        return self.voice.say(self.messages[message], **values)

    def sentence(self, key: str, **values: object) -> str:
        """A sentence of an answer: `route.name`, a template of that route's declaration (`say:`), or `name`, one
        of messages.yaml; filled with the values and the person's voice (service/engine/say.py)."""
        route, _, name = key.partition(".")
        template = self.declarations[route].say[name] if name else self.messages[key]
        return render(template, self.voice.f | values)

    def category_label(self, iri: str | None) -> tuple[str, str]:
        return self.class_labels.get(iri or "", ("skill", "skills"))

    def pf(self, name: str) -> str:
        return PF + name


def _items(section: Any) -> list[tuple[str, Any]]:
    if isinstance(section, dict):
        return list(section.items())
    if isinstance(section, list):
        return [(str(item.get("key", i)), item) for i, item in enumerate(section)]
    return []


_HYPHENATED = re.compile(r"\b([a-z]{2,})-([a-z]{2,})\b")


def _stated_as(abstain: dict[str, Any]) -> dict[str, tuple[Phrases, re.Pattern[str]]]:
    kinds = {**(abstain.get("unpublished_kinds") or {}), **(abstain.get("stated_kinds") or {})}
    forms = abstain.get("stated_as") or {}
    return {kind: (Phrases(phrases(kinds.get(kind))), re.compile(str(form), re.IGNORECASE))
            for kind, form in forms.items()}


def spells(acronym: str, name: str) -> bool:
    """Whether `name`, of two or more words, is what the upper-case `acronym` stands for: its letters in order
    ("SHACL" in "SHApes Constraint Language"), the first word's first letter first, each word giving one."""
    letters, parts = acronym.lower(), name.lower().split()
    if not (acronym.isupper() and acronym.isalpha() and 2 <= len(acronym) <= 8 and len(parts) >= 2):
        return False
    if letters[0] != parts[0][0]:
        return False
    i = 0
    for n, part in enumerate(parts):
        if i >= len(letters) or part[0] != letters[i]:
            continue  # "and", "of": words the acronym leaves out
        i += 1
        later = {p[0] for p in parts[n + 1 :]}
        while i < len(letters) and letters[i] in part[1:] and letters[i] not in later:
            i += 1
    return i == len(letters)


def _plural(label: str) -> str:
    """A kind's name in the plural, where the ontology gives none (an owner's class): its last word's other
    number ("sound installation" -> "sound installations")."""
    head, _, last = label.rpartition(" ")
    return f"{head} {other_number(last)}".strip() if last and not last.endswith("s") else label


def _all_words(spec: Any) -> set[str]:
    if isinstance(spec, str):
        return set(words(spec))
    if isinstance(spec, dict):
        return {w for k, v in spec.items() for w in _all_words(k) | _all_words(v)}
    if isinstance(spec, list):
        return {w for v in spec for w in _all_words(v)}
    return set()


_ORDINARY = 100  # an English word at least this common is an ordinary word (pyspellchecker's counts)


def _stopwords(doc: Any) -> list[str]:
    if isinstance(doc, dict):
        return [str(w) for w in doc.get("words") or []]
    return [str(w) for w in doc or []]


def _absent(
    owner: list[Absent], catalogue: list[Any], taken: set[str], english: Any
) -> tuple[list[Absent], set[str]]:
    """The technologies the pivot knows: the owner's absent.yaml, then the engine's catalogue without any
    name the graph or an alias already uses (a name in the graph always wins). Also the catalogue's names
    that are ordinary words: of an entry marked `ordinary`, the names that are English words or very short
    ("Go", "C"), not its other names ("golang")."""
    taken_folded = {" ".join(words(n)) for n in taken}
    out = list(owner)
    seen = {" ".join(words(n)) for a in owner for n in (a.label, *a.aliases)}
    ordinary: set[str] = set()
    for item in catalogue:
        if not isinstance(item, dict) or not item.get("label") or not item.get("category"):
            continue
        names = [str(item["label"]), *(str(a) for a in item.get("aliases") or [])]
        free = [n for n in names if " ".join(words(n)) not in taken_folded | seen and words(n)]
        if str(item["label"]) not in free:
            continue  # the graph (or the owner) names it: not absent
        seen |= {" ".join(words(n)) for n in free}
        out.append(Absent(str(item["label"]), str(item["category"]), tuple(free[1:]), listed=False))
        if item.get("ordinary"):
            ordinary |= {n for n in free if len(n) <= 2 or english[n.lower()] >= _ORDINARY}
    return out, ordinary
