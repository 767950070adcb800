"""analyse(question) -> Question: everything read from a question, once, before any route looks at it.

    what the visitor says of themselves is left out -> spelling and chat shorthand -> shortcuts (answers.yaml)
    -> two-turn context (context.py) -> names set apart (apart.py) -> linking (with a name read as a word
    taken as a name after all where the question is about it) -> the kind of question (intents.py) -> the
    authored answer it asks for -> its period -> its search words

Each step is recorded in the trace when one is kept (service/engine/trace.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from itertools import pairwise

from rapidfuzz.distance import Levenshtein

from service.engine import context
from service.engine.catalog import what_it_is
from service.engine.engine import Engine
from service.engine.intents import MAX_PHRASE, contains, ngrams
from service.engine.link import Linked, Mention, Token, other_number, tokenize
from service.engine.model import Plan
from service.engine.question import Question
from service.engine.retrieve import search_articles
from service.engine.trace import Trace
from service.text import query_terms, stem
from service.text import words as words_of

MAX_QUESTION = 500
_DASH = re.compile(r"\s[-\u2013\u2014]+\s")  # a dash between clauses, not in a word ("ES-to-OS")
_SENTENCE = re.compile(r"(?:[^.!?]|[.!?]+(?=\S))+[.!?]*")  # a sentence with its end ("v1.2" is in one)
_PLUS = re.compile(r"(?<=\w) \+ (?=\w)")  # a plus between words, spaced, joins them: "rust + wasm"


class Analyser:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # the person's names ask nothing by themselves: "Ada Example career history" is "career history"
        names = {w for n in engine.voice.names for w in n.split()}
        self.filler = set(engine.intents.filler) | set(engine.stopwords) | engine.neutral | names
        self.answer_filler = self.filler | engine.intents.answer_filler
        # each authored question phrase -> (the item's place in the file, its key): the first item wins
        self.authored_phrases: dict[tuple[str, ...], tuple[int, str]] = {}
        for n, item in enumerate(engine.authored):
            for phrase in item.phrases:
                self.authored_phrases.setdefault(phrase, (n, item.key))
        self.longest_authored = max((len(p) for p in self.authored_phrases), default=0)

    def analyse(self, plan: Plan, previous: Plan | None, today: date, tr: Trace | None,
                joined: bool = False) -> Question:  # fmt: skip
        """The question of `plan` (as received), read after `previous`; sets the plan's reading (normalized,
        corrections, intent, period, search words, names ambiguous)."""
        engine = self.engine
        text = _PLUS.sub(" and ", " ".join(plan.question.split())[:MAX_QUESTION])  # "rust + wasm stuff"
        preface = engine.intents.preface
        text = preface.sub("", text, count=1) if preface is not None else text
        normalized, corrections = self._correct(text)
        plan.corrections = corrections
        if tr is not None:
            for was, now in corrections:
                how = "shorthand" if was in engine.shorthand else "spelling"
                edits = Levenshtein.distance(was.lower(), now.lower())
                tr.add("spelling", f"“{was}” read as “{now}” ({how}, {edits} edit{'s' if edits != 1 else ''})",
                       original=was, corrected=now, how=how, distance=edits)  # fmt: skip
        shortened = engine.shortcuts.get(tuple(t.word for t in tokenize(normalized)), normalized)
        if tr is not None and shortened != normalized:
            tr.add("shorthand", f"“{normalized}” is a shortcut for “{shortened}”", question=shortened)
        normalized = shortened
        if previous is not None:
            resolved = context.resolve(engine, normalized, previous, today, joined)
            if tr is not None:
                tr.add("context", f"after “{previous.question}”, read as “{resolved}”" if resolved != normalized
                       else f"after “{previous.question}”: read on its own", previous=previous.question,
                       question=resolved)  # fmt: skip
            normalized = resolved
        plan.normalized = normalized
        read_as = normalized
        apart = engine.apart.find(normalized, engine.linker, self._described_apart)
        if apart is not None:  # "apart from Widgeteer, which tools are in Rust": read without it, as shown
            read_as = apart.text
            if tr is not None:
                tr.add("apart", f"“{apart.said}” sets apart {', '.join(self._label(i) for i in sorted(apart.iris))}: "
                       f"read as “{apart.text}”, without it in the lists", said=apart.said,
                       entities=sorted(apart.iris))  # fmt: skip
        q = self.read(plan.question, read_as, today, tuple(corrections),
                      apart.iris if apart is not None else frozenset())  # fmt: skip
        plan.period = q.period.iso() if q.period else None
        plan.search_terms = list(q.terms)
        plan.expansions = q.expansions
        plan.intent = q.kind
        plan.ambiguous = [(m.text, m.iris) for m in q.linked.ambiguous]
        if tr is not None:
            trace_understanding(q, tr)
        return q

    def _correct(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        out, corrections, last = [], [], 0
        shorthand = self.engine.shorthand
        tokens = tokenize(text)
        # a real word one letter from a name's word beside the rest of the name ("the Lindenhof price")
        near = dict(self.engine.linker.near_name([t.word for t in tokens]))
        joins = self._compounds(text, tokens)
        skip = -1
        for i, token in enumerate(tokens):
            if i == skip:
                continue
            if i in joins:  # "school yards": the site's own "schoolyards"
                out.append(text[last : token.start] + joins[i])
                last, skip = tokens[i + 1].end, i + 1
                corrections.append((text[token.start : tokens[i + 1].end], joins[i]))
                continue
            if "://" in text[max(0, token.start - 8) : token.start + 3]:
                continue
            if token.word.endswith("n") and text[token.end : token.end + 2] in ("'t", "’t"):
                continue  # "didn't", "hadn't": a contraction, not a misspelling of "did"
            around = text[max(0, token.start - 1) : token.start] + text[token.end : token.end + 1]
            if token.original in shorthand and not any(c in "-.'" for c in around):
                fixed: str | None = shorthand[token.original]  # "wat" -> "what", written on its own in lower case
            else:
                fixed = self.engine.speller.correct(token.word) or near.get(i)
            if fixed is None:
                continue
            if token.original[:1].isupper():
                fixed = fixed[:1].upper() + fixed[1:]
            out.append(text[last : token.start] + fixed)
            last = token.end
            corrections.append((token.original, fixed))
        out.append(text[last:])
        return "".join(out), corrections

    def _compounds(self, text: str, tokens: Sequence[Token]) -> dict[int, str]:
        """Two words written apart that the site writes as one ("school yards", "data set"): the first's index ->
        the word, when it is a word (of English or of the site's vocabulary: never a name's words run together,
        "mateovarga") the site's passages use, both written in lower case, and neither part is short ("may be",
        "on line")."""
        engine, out = self.engine, {}
        for i, (a, b) in enumerate(pairwise(tokens)):
            if text[a.end : b.start] != " " or len(a.word) < 3 or len(b.word) < 3 or not (a.word + b.word).isalpha() \
                    or not (a.original.islower() and b.original.islower()):  # "open Search": a name, as written
                continue
            joined = a.word + b.word
            word = engine.speller.english(joined) or joined in engine.speller.known  # a word, not "inescalder"
            if word and joined not in engine.stopwords and engine.passages.df(stem(joined)) and i - 1 not in out:
                out[i] = joined
        return out

    def read(self, asked: str, text: str, today: date, corrections: tuple[tuple[str, str], ...] = (),
             excluded: frozenset[str] = frozenset()) -> Question:  # fmt: skip
        """The question `text` (already corrected and read in context) analysed: names, kind, period, words."""
        engine = self.engine
        linked = engine.linker.link(text)
        if linked.skipped and not linked.mentions and self._name_may_be_meant(words_of(text), linked.skipped):
            linked = self._meant_after_all(text, linked)
        tokens = tuple(tokenize(text))
        linked = self._own_practice(text, linked, tokens)
        linked = self._titled_role(text, linked, tokens)
        words = [t.word for t in tokens]
        period = engine.dates.parse(text, today)
        mentions = linked.mentions
        if period is None and self._kinds_listed(words):
            # "masterplans before Acme Studio": works of a kind in a period a role bounds ("what did she do
            # before Acme" asks for the role before it: career.py)
            spans = self._role_spans(linked)
            around = engine.dates.around_role(text, [s for _, s in spans], today)
            if around is not None:  # "before Acme Studio": the studio names the period, it narrows nothing else
                period, bound = around[0], spans[around[1]][0]
                linked = replace(linked, mentions=[m for m in linked.mentions if m is not bound])
        told, subject = _told(text, engine, linked.mentions)
        # the visitor's own story asks nothing: the tokens outside it, and outside the names too
        untold = [t for t in tokens if not any(a <= t.start < b for a, b in told)] if told else list(tokens)
        asked_rest = [t for t in untold if not any(m.start <= t.start < m.end for m in linked.mentions)] \
            if told else []
        rest = tokenize(linked.rest) if not told or subject else asked_rest
        cue = _without_phrases([t.word for t in rest], engine.neutral_phrases)  # "on record"
        person = engine.by_name.get(engine.kb.site.person)
        names = [(m.start, m.end) for m in mentions if not (person and m.iris == [person.iri])]
        # cue words are read outside the names of things: "hearing health" names a theme, not a private matter,
        # and "Kattegat University" a university, not a question about studies
        said = tuple(t.word for t in tokens if not any(a <= t.start < b for a, b in names))
        # the words cue concepts are read in (Question.has): without a story the question does not point back to
        unstoried = tuple(t.word for t in untold if not any(a <= t.start < b for a, b in names)) \
            if told and not subject else None
        authored = self._authored(words)
        about = authored is not None and any(a.key == authored and a.group == "about" for a in engine.authored)
        found = [engine.entities[i] for i in linked.entities if i in engine.entities]
        owner = engine.by_name.get(engine.kb.site.person)
        if owner is not None and len(found) > 1 and owner in found:
            found = [e for e in found if e is not owner]
        # a story searched as the subject still picks no kind of question
        kind_cue = _without_phrases([t.word for t in asked_rest], engine.neutral_phrases) if told and subject else cue
        for_kind = _outside_kinds(kind_cue, engine.classes_in(tuple(kind_cue)))  # for the kind of question only
        asking = [t.word for t in untold] if told else words
        kind, rule, read = engine.intents.decide(asking, for_kind, [e.kind for e in found], authored=about,
                                                 linked_any=bool(found))  # fmt: skip
        terms = query_terms(text, engine.search_stopwords)
        # what asks nothing: the story's words alone ("I recruit for a courier company ... has she built delivery
        # routing that ran in production?") and the owner's name: a passage is judged on the rest;
        own = query_terms(" ".join(t.word for t in untold), engine.search_stopwords) if told and not subject else ()
        # (a question of a few words of its own asks of the story: "I read she moved a cluster to OpenSearch. what
        # nearly went wrong during the switch?")
        alone = len(own) >= int(engine.weights["unknown"]["story_apart_min_terms"])
        asked_words = [t.word for t in (untold if alone else tokens)
                       if not (person and any(m.start <= t.start < m.end and m.iris == [person.iri] for m in mentions))]
        # and phrases that ask nothing ("for real"), but for those a passage may state ("her own")
        asked_words = _without_phrases(asked_words, engine.unstated_phrases)
        unasked = frozenset(terms) - set(query_terms(" ".join(asked_words), engine.search_stopwords))
        return Question(engine=engine, asked=asked, normalized=text, today=today, tokens=tokens,
                        linked=linked, cue=tuple(cue), said=said, kind=kind, rule=rule, read=tuple(read),
                        authored_key=authored, period=period, terms=tuple(terms), corrections=corrections,
                        excluded=excluded, asking=unstoried, unasked=unasked)  # fmt: skip

    def _own_practice(self, text: str, linked: Linked, tokens: tuple[Token, ...]) -> Linked:
        """ "before she went solo", "since he set up his own studio": the words name the role of the person's own
        practice (Engine.own_practice), when the question names no role itself."""
        own = self.engine.own_practice
        if own is None or self._names_role(linked):
            return linked
        words = [t.word for t in tokens]
        if not own[2].found_in(words):  # no phrase of it here: most questions
            return linked
        for phrase in own[1]:
            found = _role_named(text, linked, tokens, words, phrase, len(phrase), own[0])
            if found is not None:
                return found
        return linked

    def _titled_role(self, text: str, linked: Linked, tokens: tuple[Token, ...]) -> Linked:
        """ "C tools from her BSc", "hardware projects during his bachelor's": the one role whose title the words
        name after the person's possessive (Engine.titled_roles), as a filter of works: when the question names a
        kind of work narrower than any work, or a technology, and no role itself, and the title is no part of the
        name of a kind of work ("her master plans"). Asked alone ("where did she do her masters") the career
        answers, with the place and the school."""
        named, phrases = self.engine.titled_roles
        words = [t.word for t in tokens]
        if not named or not phrases.found_in(words) or self._names_role(linked):
            return linked
        classes = self.engine.classes_in(tuple(words))
        ents = self.engine.entities
        broad = self.engine.broad("broad_kinds")  # "his undergrad final project" asks for the one project
        if not any(kind == "class" and not iri.endswith(broad) for _, (iri, kind) in classes) and not any(
                ents[i].kind == "skill" for i in linked.entities if i in ents):  # fmt: skip
            return linked
        kinds = [key for key, _ in classes if len(key) > 1]
        for phrase, (iri, title) in sorted(named.items(), key=lambda kv: -len(kv[0])):
            if any(contains(key, phrase[-title:]) for key in kinds):
                continue
            found = _role_named(text, linked, tokens, words, phrase, title, iri)
            if found is not None:
                return found
        return linked

    def _names_role(self, linked: Linked) -> bool:
        ents = self.engine.entities
        return any(ents[i].kind == "role" for i in linked.entities if i in ents)

    def _kinds_listed(self, words: list[str]) -> bool:
        """Whether the question names a kind of work narrower than any work, in the plural: a list of them asked
        ("masterplans", not "what essay", which asks for the one the graph describes so)."""
        broad = self.engine.broad("broad_kinds")
        return any(c[1] == "class" and not c[0].endswith(broad) and key[-1].endswith("s")
                   and other_number(key[-1]) != key[-1] for key, c in self.engine.classes_in(tuple(words)))  # fmt: skip

    def _role_spans(self, linked: Linked) -> list[tuple[Mention, tuple[int, int, str, str | None]]]:
        """Where the question names a role, or an organisation the person held a role at (the latest), with the
        role's first and last day: what a period may be bounded by ("before Acme Studio")."""
        spans = []
        for m in linked.mentions:
            e = self.engine.entities.get(m.iris[0]) if len(m.iris) == 1 else None
            if e is not None and e.kind == "organisation" and self.engine.roles_by_org.get(e.iri):
                e = self.engine.entities[self.engine.roles_by_org[e.iri][0]]
            if e is not None and e.kind == "role" and e.start:
                spans.append((m, (m.start, m.end, e.start, e.end)))
        return spans

    def _name_may_be_meant(self, asked: list[str], skipped: list[str] | None = None) -> bool:
        """Whether the question is one where a name read as a word may be meant after all: one asking a kind of
        thing ("what triple store does widgeteer run on"), one whose only word beyond its cues is that one name ("is
        widgeteer still being worked on"), one asking an amount other than a count ("how much faster did widgeteer
        get"), or a how, why or stack question ("what tech stack is widgeteer built on") that is no count."""
        intents = self.engine.intents
        if any(contains(asked, key) for key, _ in self.engine.classes_longest_first):
            return True
        rest = {w for w in asked if w not in self.filler and w not in self.engine.accounted}
        if skipped and len(skipped) == 1 and rest and rest <= set(words_of(skipped[0])):
            return True  # "is widgeteer still being worked on": the word is all the question asks about
        asks_how = any(w in intents.sections for w in asked) or intents.has("stack", asked)
        amount = self.engine.quantities.asked(asked, self.engine.amount_skipped, self.engine.synonyms)
        if amount is not None and amount.kind != self.engine.quantities.counted:
            return True  # "how much faster did widgeteer get": an amount of something, not a count
        return asks_how and not intents.has("count", asked)

    def _meant_after_all(self, text: str, linked: Linked) -> Linked:
        """In a how or why question, or one asking a kind of thing ("what triple store does widgeteer run on"), a
        name read as an ordinary word ("why doesnt widgeteer run on the gpu") is the name after all when its own
        article is one of those that hold the question best: linked as if capitalised."""
        engine = self.engine
        hits = search_articles(engine.passages, query_terms(text, engine.search_stopwords),
                               engine.synonyms, engine.weights["article"], limit=3)  # fmt: skip
        if not hits:
            return linked
        share = float(engine.weights["article"]["meant_as_name_share"])
        near_best = {h.article for h in hits if h.score >= share * hits[0].score}
        capitalised = text
        for word in linked.skipped:
            owners = [e for i in engine.linker.link(word, strict=False).entities if (e := engine.entities.get(i))]
            if len(owners) == 1 and owners[0].name in near_best:
                at = capitalised.find(word)
                capitalised = capitalised[:at] + word[:1].upper() + word[1:] + capitalised[at + len(word) :]
        return linked if capitalised == text else engine.linker.link(capitalised)

    def _authored(self, words: list[str]) -> str | None:
        """The answer whose question the words are, but for filler: the first item in the file's order. A count
        asked has none ("how many skills does she have" is no question for the skills she uses most)."""
        engine = self.engine
        amount = engine.quantities.asked(words, engine.amount_skipped, engine.synonyms)
        if amount is not None and amount.kind == engine.quantities.counted:
            return None
        # "what is noor actually working on": a word that asks nothing may stand inside the phrase
        plain = [w for w in words if w not in engine.neutral]
        return self._authored_in(words) or (self._authored_in(plain) if len(plain) < len(words) else None)

    def _authored_in(self, words: list[str]) -> str | None:
        best: tuple[int, str] | None = None
        for n in range(1, min(len(words), self.longest_authored) + 1):
            for at in range(len(words) - n + 1):
                found = self.authored_phrases.get(tuple(words[at : at + n]))
                if found is None or (best is not None and best[0] <= found[0]):
                    continue
                if all(w in self.answer_filler for w in words[:at] + words[at + n :]):
                    best = found
        return best[1] if best else None

    def _described_apart(self, words: tuple[str, ...], rest: str, opening: bool) -> frozenset[str]:
        """What words a question sets apart stand for when they name nothing: a kind of work other than the one
        the rest of the question asks about ("other than her papers"), its works; else the one work, of the kind
        asked about if any, whose names and the first sentence of its description hold every word ("how many
        talks has he given, not counting the workshop": the talk that is a workshop), or every one of that kind
        when the words end in a plural ("the workshops") or open the question ("leaving coursework aside, ...":
        every work so described, where "tell wind apart from calls" sets nothing apart)."""
        engine = self.engine
        said = [t.word for t in tokenize(rest)]
        asked = next((v[0] for k, v in engine.classes_longest_first if v[1] == "class" and contains(said, k)), None)
        kind = engine.classes.get(words)
        if kind is not None and kind[1] == "class" and kind[0] != asked:
            return frozenset(engine.members(kind[0]))
        content = {stem(w) for w in words if w not in engine.stopwords}
        among = engine.members(asked) if asked is not None else [e.iri for e in engine.entities.values()
                                                                   if e.kind == "work"]  # fmt: skip
        holders = [i for i in among if content <= what_it_is(engine.entities[i])] if content else []
        # "talks ..., excluding the workshops": every one of the kind asked so described ("tell wind apart from
        # calls" asks of no kind)
        plural = asked is not None and words[-1] != stem(words[-1]) and words[-1].endswith("s")
        return frozenset(holders) if len(holders) == 1 or plural or (opening and holders) else frozenset()

    def _label(self, iri: str) -> str:
        e = self.engine.entities.get(iri)
        return e.label if e is not None else iri


def trace_understanding(q: Question, tr: Trace) -> None:
    """What the engine read in the question: names, words skipped as ordinary, the intent and why, the period,
    the search words."""
    engine = q.engine
    for m in q.linked.mentions:
        names = [engine.entities[i].label if i in engine.entities else i for i in m.iris]
        if len(m.iris) == 1:
            tr.add("linking", f"“{m.text}” names {names[0]}", text=m.text, at=[m.start, m.end], entities=m.iris)
        else:
            tr.add("linking", f"“{m.text}” is ambiguous: {', '.join(names)}", text=m.text, at=[m.start, m.end],
                   entities=m.iris)  # fmt: skip
    for word in q.linked.skipped:
        tr.add("linking", f"“{word}” is a name but also an ordinary word, written in lower case with no cue: "
               "read as a word", text=word)  # fmt: skip
    if not q.linked.mentions:
        tr.add("linking", "no name of the graph in the question")
    if q.rule == "authored":
        why = f"the question is an authored one ({q.authored_key})"
    elif q.rule == "only_filler":
        why = "only a name and filler words"
    elif q.rule:
        why = f"rule “{q.rule}” {engine.intents.rules[q.rule].why(q.read)}"
    else:
        why = "no intent rule matched"
    tr.add("intent", f"intent {q.kind}: {why}", intent=q.kind, rule=q.rule or None, cue=list(q.cue))
    if q.period is not None:
        start, end = q.period.iso()
        tr.add("period", f"“{q.period.text}” is {start} to {end}", text=q.period.text, start=start, end=end)
    if q.terms:
        extra = q.expansions
        said = f"search words: {', '.join(q.terms)}" + (f"; with synonyms {', '.join(extra)}" if extra else "")
        tr.add("search", said, terms=list(q.terms), expanded=extra)


def _told(text: str, engine: Engine, names: list[Mention]) -> tuple[list[tuple[int, int]], bool]:
    """The spans of the sentences that ask nothing, in a question of several sentences of which some ask: end in
    a question mark or open as a question ("the allotment people got upset? what happened there"). "my daughter
    wants to study computing. what did she study there?" asks only the last; a fragment after the question that
    asks nothing of its own adds to it ("has he published anything academic? papers etc"). Whether the story is
    what is asked of: when what asks names nothing and points back ("what was that about?"), its words are
    searched too, but still pick no kind of question ("I'm hiring … how long does that thing run on batteries"
    asks no contact)."""
    visitor = {str(w) for w in engine.references.get("visitor") or []}
    open_things = {str(w) for w in engine.references.get("open_things") or []}
    open_pronouns = {str(w) for w in engine.references.get("open_pronouns") or []}
    spans = [span for m in _SENTENCE.finditer(text) if any(c.isalnum() for c in m.group())
             for span in _clauses(text, m.start(), m.end(), visitor)]  # fmt: skip
    if len(spans) < 2:
        return [], False
    intents, pronouns = engine.intents, {str(p) for p in engine.references.get("pronouns") or []}
    asking, back, named = [], False, False
    sentences = [words_of(text[a:b]) for a, b in spans]
    for (a, b), said in zip(spans, sentences, strict=True):
        asks = text[a:b].rstrip().endswith("?") or intents.has("asks_whether", said) or intents.has("asks_what",
                                                                                                     said[:1])
        asking.append(asks)
        # a pronoun points back to the story ("what was that about?"), but not "it" after a thing the sentence
        # itself leaves open ("has she built something ..., and when did it open?")
        opened = next((i for i, w in enumerate(said) if w in open_things), len(said))
        back |= asks and any(w in pronouns and not (w in open_pronouns and i > opened) for i, w in enumerate(said))
        named |= asks and any(a <= m.start < b for m in names)
    if not any(asking):
        return [], False
    last = max(i for i, asks in enumerate(asking) if asks)
    short = int(engine.weights["unknown"]["addendum_max_words"])  # "has he published anything? papers etc"
    told = [span for i, (span, asks, said) in enumerate(zip(spans, asking, sentences, strict=True)) if not asks
            and not (i > last and len(said) <= short and not intents.has("asks_what", said))]  # fmt: skip
    return told, back and not named


def _clauses(text: str, start: int, end: int, visitor: set[str]) -> list[tuple[int, int]]:
    """A sentence's spans: the visitor's own clause before a dash is one, what follows another ("before I reach
    out I wanted to check - is she still based in the Netherlands?"); "the museum audit - what went wrong?" is
    one."""
    for dash in _DASH.finditer(text, start, end):
        if visitor & set(words_of(text[start : dash.start()])):
            return [(start, dash.start()), (dash.end(), end)]
    return [(start, end)]


def _without_phrases(cue: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[str]:
    """The cue words without every occurrence of the phrases (longest first): "the earliest talk on record"."""
    out = list(cue)
    said = set(out)
    for phrase in phrases:
        if not said.issuperset(phrase):  # most phrases: a word of it is not in the question at all
            continue
        n = len(phrase)
        i = 0
        while i + n <= len(out):
            if tuple(out[i : i + n]) == phrase:
                del out[i : i + n]
            else:
                i += 1
    return out


def _outside_kinds(cue: Sequence[str], kinds: list[tuple[tuple[str, ...], tuple[str, str]]]) -> list[str]:
    """The cue words outside the names of kinds of work of several words: "consulting projects" names a kind
    of work, not a question about consulting her."""
    out = list(cue)
    runs = ngrams(tuple(cue))
    for key, _ in kinds:
        if len(key) < 2:
            break  # longest first: the rest are single words, which cue rules may rightly read ("games")
        if len(key) <= MAX_PHRASE and key not in runs:
            continue
        for i in range(len(out) - len(key) + 1):
            if tuple(out[i : i + len(key)]) == key:
                out[i : i + len(key)] = [""] * len(key)
    return [w for w in out if w]


def _role_named(text: str, linked: Linked, tokens: tuple[Token, ...], words: list[str], phrase: tuple[str, ...],
                last: int, iri: str) -> Linked | None:
    """The question's names with the role `iri` named by the last `last` words of the phrase where it first
    occurs, or None when it does not, or where it does overlaps a name already found."""
    at = next((i for i in range(len(words) - len(phrase) + 1) if tuple(words[i : i + len(phrase)]) == phrase), None)
    if at is None:
        return None
    start, end = tokens[at + len(phrase) - last].start, tokens[at + len(phrase) - 1].end
    if any(m.start < end and start < m.end for m in linked.mentions):
        return None
    mentions = sorted([*linked.mentions, Mention(text[start:end], start, end, [iri])], key=lambda m: m.start)
    rest = " ".join(t.original for t in tokens if not any(m.start <= t.start < m.end for m in mentions))
    return replace(linked, mentions=mentions, rest=rest)
