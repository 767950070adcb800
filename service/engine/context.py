"""Two-turn context (seed 001): a question that points back at the previous one is rewritten to stand alone.

"and the second one?" after a list -> "tell me about <its second result>"; "what is its stack?" after
"tell me about Widgeteer" -> "what is Widgeteer's stack?"; "and Go?" after "Rust projects" -> "Go projects".
The words that point back (pronouns, ordinals, "and", "what about") are in lexicon/intents.yaml.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from service.engine.engine import Engine
from service.engine.intents import contains, phrases
from service.engine.link import Linked, tokenize
from service.engine.model import Plan
from service.text import stem, terms
from service.vocab import PF

_ONLY_POINTING = {"and", "what", "about", "how", "tell", "me", "is", "s"}  # "and the second one?" asks nothing more


def _phrase_pattern(phrases: list[str], bare_only: frozenset[str] = frozenset()) -> re.Pattern[str] | None:
    """The phrases, each perhaps after "the" and before "one", "project", "work" or "result" ("that work"), but
    those of `bare_only` alone ("does it work with": "it work" is no phrase)."""
    if not phrases:
        return None
    ordered = sorted(phrases, key=len, reverse=True)
    with_noun = "|".join(re.escape(p) for p in ordered if p.lower() not in bare_only) or "(?!)"
    bare = "|".join(re.escape(p) for p in ordered if p.lower() in bare_only) or "(?!)"
    return re.compile(rf"(?<![\w'])(?:the\s+)?(?:(?:{with_noun})(?:\s+(?:one|project|work|result))?|(?:{bare}))"
                      rf"(?![\w'])", re.I)  # fmt: skip


def resolve(engine: Engine, question: str, previous: Plan, today: date, joined: bool = False) -> str:
    """The question as it stands alone after `previous`; `joined` when both were asked as one ("which chip is in
    Widgeteer, and what was the board drawn in"): a second half naming nothing is then about the first's subject."""
    refs = engine.references
    ordinals: dict[str, int] = {str(k): int(v) for k, v in (refs.get("ordinals") or {}).items()}
    follow_on = sorted(refs.get("follow_on") or [], key=len, reverse=True)
    linked = engine.linker.link(question)
    words = [t.word for t in tokenize(question)]

    # "the most recent one": a result of the previous plan, by its dates
    if previous.results and not linked.entities:
        for key, newest in (("newest", True), ("oldest", False)):
            by_date = _phrase_pattern([str(p) for p in refs.get(key) or []])
            found = by_date.search(question) if by_date is not None else None
            dated = [r for r in previous.results if engine.entities.get(r.iri) and engine.entities[r.iri].start]
            if found and dated:
                pick = (max if newest else min)(dated, key=lambda r: engine.entities[r.iri].start or "")
                rest = [t.word for t in tokenize(question.replace(found.group(), " "))]
                if all(w in _ONLY_POINTING | {"the", "one", "which"} for w in rest):
                    return f"tell me about {pick.label}"
                if len(dated) == 1:  # "where was the latest one?" after the one workshop given in several places:
                    return question.replace(found.group(), f"{found.group()} of {pick.label}")  # its latest time
                return question.replace(found.group(), pick.label)

    # "the second one": a result of the previous plan, by position, among those listed after the thing asked about
    # ("Rust projects" lists Rust, then its works: the second one is the second work)
    m = _phrase_pattern(list(ordinals))
    results = previous.results
    if m is not None and results and not linked.entities:
        found = m.search(question)
        rest = [t.word for t in tokenize(question.replace(found.group(), " "))] if found else []
        if found and len(found.group().split()) == 1 and not all(w in _ONLY_POINTING for w in rest):
            found = None  # "how long did that last?": an ordinal alone points back only in a question of nothing else
        if found:
            if len(results) > 1 and results[0].iri == previous.entity and (  # the thing the previous question
                    previous.entity in engine.linker.link(previous.normalized).entities):  # named  # fmt: skip
                results = results[1:]
            word = next(w for w in found.group().lower().split() if w in ordinals)
            n = ordinals[word]
            index = n - 1 if n > 0 else len(results) + n
            if 0 <= index < len(results):
                label = results[index].label
                if all(w in _ONLY_POINTING for w in rest):
                    return f"tell me about {label}"
                return question.replace(found.group(), label)

    # "how many came to the rotterdam one?" after a list of exhibitions: the one result the name says
    one = _one_named(engine, question, previous, linked)
    if one is not None:
        return one

    # "and in 2022?", "and the year after?": the previous question, in the new period
    moved = _other_period(engine, question, previous, today, linked.entities)
    if moved is not None:
        return moved

    # "which one was in Madrid?" after "which talks has she given": which of that kind
    of_them = _which_of_kind(engine, question, previous, today)
    if of_them is not None:
        return of_them

    # "and before that?" after "what came before Widget?" answered with one thing: the same relation, from it
    chained = _chained(engine, question, previous, linked.entities, follow_on)
    if chained is not None:
        return chained

    # "and Go?": the previous question, with the new name in place of the old one
    # ("and Kotlin?" too: a technology she does not use takes the old name's place, and is then pivoted on)
    lowered = question.lower().strip()
    named = linked if linked.entities else engine.absent_linker.link(question)
    if named.mentions and any(lowered.startswith(f) for f in follow_on):
        person = engine.by_name.get(engine.kb.site.person)
        before = engine.linker.link(previous.normalized)
        mentions = [m for m in before.mentions if not (person and m.iris == [person.iri])]  # "what has Ada built
        if not mentions:  # in Rust?": the name to replace is Rust
            mentions = engine.absent_linker.link(previous.normalized).mentions
        if len(mentions) == 1 and len(named.mentions) == 1:
            old = mentions[0]
            return previous.normalized[: old.start] + named.mentions[0].text + previous.normalized[old.end :]
        if not linked.entities:
            return question  # "and Kotlin?" after a question naming nothing to replace: a question of its own

    # "its stack", "compare it with Gadgeteer": the thing the previous plan was about
    bare = frozenset(str(p).lower() for p in refs.get("pronouns_alone") or [])
    pronouns = _phrase_pattern(list(refs.get("pronouns") or []), bare)
    about = _subject(engine, previous, question)
    roles = [r.iri for r in previous.results if engine.entities.get(r.iri) and engine.entities[r.iri].kind == "role"]
    subject = engine.entities.get(previous.entity or "")
    if _follows(engine, previous, "role") and len(roles) == 1 and (subject is None or subject.kind not in (
            "work", "role", "person")):  # fmt: skip
        about = roles[0]  # "what did she do in Madrid", "how long did that last?": the one role found there (or at
        # the hearing-aid company, a theme named beside the place)
    if pronouns is not None and about in engine.entities and about not in linked.entities:
        label = engine.entities[about or ""].display
        found = pronouns.search(question)
        if found and engine.intents.has("naming", words):  # "why's it called that?": the name's origin, asked of
            return f"{question.rstrip(' ?')} {label}".strip()  # the subject, the question's own words kept
        if found:
            possessive = found.group().lower().endswith("its")
            return question[: found.start()] + (f"{label}'s" if possessive else label) + question[found.end() :]
    # "how many?", "and when?", "is the code public?": a question of cue words only, or naming a part of a
    # thing, borrows the previous plan's subject
    content = [w for w in words if w not in engine.stopwords]
    part = any(contains(words, p) for p in phrases(refs.get("parts")))
    elliptical = part or all(w in engine.intents.cue_words for w in content) or _in_account(
        engine, words, content, about) or _owed_amount(engine, words)  # "how big a matrix?": words of the
    # previous subject's own account; "how many teams entered?": an amount only a thing's account states
    carried = joined and about in engine.entities and engine.entities[about or ""].kind != "person"
    if (
        not linked.entities
        and about in engine.entities
        and (elliptical or carried or any(lowered.startswith(f) for f in follow_on))
    ):
        return f"{question.rstrip(' ?')} {engine.entities[about or ''].display}".strip()
    return question


_ONE_AFTER = re.compile(r"\s+one\b", re.IGNORECASE)


def _one_named(engine: Engine, question: str, previous: Plan, linked: Linked) -> str | None:
    """The question with "the X one" in place of the one result of the previous list whose name or description
    says the name X ("the rotterdam one" after a list of exhibitions, one of them in Rotterdam), else None."""
    results = [r for r in previous.results if r.iri in engine.entities]
    if len(results) < 2:
        return None
    for m in linked.mentions:
        after = _ONE_AFTER.match(question, m.end)
        if after is None:
            continue
        said = {m.text.lower(), *(engine.entities[i].label.lower() for i in m.iris if i in engine.entities)}
        told = [r for r in results if r.iri not in m.iris and any(
            s in f"{r.label} {engine.entities[r.iri].description}".lower() for s in said)]  # fmt: skip
        if len(told) == 1:
            return question[: m.start] + told[0].label + question[after.end() :]
    return None


def _owed_amount(engine: Engine, words: list[str]) -> bool:
    """Whether the words ask an amount the graph does not count ("how many teams entered?", not "how many games
    did she make"): asked with no name, it is asked of the thing just discussed."""
    quantities = engine.quantities
    amount = quantities.asked(words, engine.amount_skipped, engine.synonyms)
    if amount is None:
        return False
    class_words = frozenset().union(*(engine.class_stems.get(v, ()) for _, v in engine.classes_in(tuple(words))))
    return quantities.owed(amount, class_words)


def _follows(engine: Engine, previous: Plan, what: str) -> bool:
    """Whether a follow-up of the previous plan asks of `what` its route's declaration says (`follow_ups`)."""
    route = engine.declarations.get(previous.route)
    return route is not None and route.follow_ups == what


def _in_account(engine: Engine, words: list[str], content: list[str], about: str | None) -> bool:
    """Whether every word the question asks beyond cue words is in the previous subject's own account ("how big a
    matrix?" after a work described as computing a 400 by 400 matrix)."""
    e = engine.entities.get(about or "")
    amount = engine.quantities.asked(words, engine.amount_skipped, engine.synonyms)
    cue = set(amount.cue) if amount is not None else set()  # "how big": the form of the answer
    asked = {stem(w) for w in content if w not in engine.accounted and w not in cue}
    return e is not None and bool(asked) and asked <= set(terms(f"{e.label} {e.description or ''}"))


def _subject(engine: Engine, previous: Plan, question: str) -> str | None:
    """What the previous plan was about: its entity, but for the owner (everyone's subject) the one other thing
    the question named ("when did Ada start working on Widget"), or the one thing answered when it named none
    ("what was her final project" answered with Widget); "that talk", the first thing of that kind answered; the
    one thing a relation was answered with."""
    words = [t.word for t in tokenize(question)]
    of_kind = _of_kind_named(engine, words, previous)
    if of_kind:
        return of_kind[0]
    # "which talk was about the migration?" answered with the one talk among other works: "when was it given?"
    of_kind = _of_kind_named(engine, [t.word for t in tokenize(previous.normalized)], previous)
    if len(of_kind) == 1:
        return of_kind[0]
    related = [r.iri for r in previous.results if r.iri != previous.entity and r.iri in engine.entities]
    asks_relation = any(contains(words, key) for key, _ in engine.relations)  # "and what came after it?": of
    if _follows(engine, previous, "related") and len(related) == 1 and not asks_relation:  # the thing first asked about
        return related[0]  # "what replaced Widget?" answered with one thing: "what is it written in?" asks of it
    subject = engine.entities.get(previous.entity or "")
    first = engine.entities.get(previous.results[0].iri) if previous.results else None
    quoted = previous.route in engine.declarations and engine.declarations[previous.route].answer == "text"
    if quoted and first is not None and first.kind == "work" and (subject is None or subject.kind != "work"):
        return first.iri  # "why did Acme switch databases" quoted from the migration's own account (a route of
        # `answer: text`): "did anything go wrong during it?" asks of the migration, not of Acme
    if subject is not None and subject.kind != "person":
        return subject.iri
    named = [i for i in engine.linker.link(previous.normalized).entities
             if i in engine.entities and engine.entities[i].kind != "person"]  # fmt: skip
    answered = [r.iri for r in previous.results if r.iri in engine.entities]
    if len(named) == 1:
        return named[0]
    if not named and answered and (len(answered) == 1 or _follows(engine, previous, "first")) \
            and engine.entities[answered[0]].kind != "person":  # fmt: skip
        return answered[0]  # the one thing answered, or the work the question described, first of those listed
    return previous.entity


def _kind_named(engine: Engine, words: list[str]) -> tuple[tuple[str, ...], str] | None:
    """The first name of a kind of work the words hold (longest names first), with the kind's IRI."""
    return next(((key, iri) for key, (iri, kind) in engine.classes_longest_first
                 if kind == "class" and contains(words, key)), None)  # fmt: skip


def _of_kind_named(engine: Engine, words: list[str], previous: Plan) -> list[str]:
    """The previous plan's results of the first kind of work the words name, unless its own subject is one."""
    named = _kind_named(engine, words)
    if named is None:
        return []
    cls = named[1].removeprefix(PF)  # as an entity's classes name it
    of_kind = [r.iri for r in previous.results if r.iri in engine.entities
               and cls in engine.entities[r.iri].classes]  # fmt: skip
    return [] if previous.entity in of_kind else of_kind


def _which_of_kind(engine: Engine, question: str, previous: Plan, today: date) -> str | None:
    """ "which one was in Madrid?" after a question naming a kind of work ("which conference talks has he
    given"): the question asked of that kind, "which talk was in Madrid?"; after a list narrowed by a name or a
    period, that list narrowed further."""
    found = _phrase_pattern([str(p) for p in engine.references.get("which_of_them") or []])
    m = found.match(question.strip()) if found is not None else None
    if m is None:
        return None
    named = _kind_named(engine, [t.word for t in tokenize(previous.normalized)])
    if named is None:
        return None
    rest = question.strip()[m.end():]
    # "just the ones outside holland" after "which of her projects were modelled in Grasshopper?": the list asked
    # before, narrowed, its filters kept (a technology, a place, a role, a period), when its route says its lists are
    # (`follow_ups: narrowed`), unless the question replaces one ("which of those were in Germany?" after works
    # outside a place) or the list was of one work's times
    kinds = {engine.entities[i].kind for i in engine.linker.link(previous.normalized).entities if i in engine.entities}
    new = {engine.entities[i].kind for i in engine.linker.link(rest).entities if i in engine.entities}
    period = engine.dates.parse(previous.normalized, today) is not None
    filters = kinds - {"person", "work"}
    if _follows(engine, previous, "narrowed") and (filters or period) and "work" not in kinds and not filters & new \
            and not (period and engine.dates.parse(rest, today) is not None):  # fmt: skip
        return f"{previous.normalized.rstrip(' ?.!')}{rest}"
    return f"which {' '.join(named[0])}{rest}"


def _other_period(engine: Engine, question: str, previous: Plan, today: date, named: list[str]) -> str | None:
    """A question of nothing but another period ("and in 2022?") or a year's shift ("and the year after?",
    intents.yaml references.year_shifts) after a question naming a period: that question, in the new period."""
    before = engine.dates.parse(previous.normalized, today)
    if before is None or named:
        return None
    lowered = question.lower()
    shift = _shift(engine, "year", lowered)
    unit_shift = None if shift is not None else next(
        ((u, n) for u in ("quarter", "month") if (n := _shift(engine, u, lowered)) is not None), None)
    if shift is not None:
        years = re.findall(r"(?:19|20)\d\d", before.text)
        whole = (before.start.month, before.start.day, before.end.month, before.end.day) == (1, 1, 12, 31)
        if len(years) == 1:
            moved = before.text.replace(years[0], str(int(years[0]) + shift))
        elif not years and whole and before.start.year == before.end.year:  # "last year": one calendar year
            moved = f"in {before.start.year + shift}"
        else:
            return None
    elif unit_shift is not None:  # "and the quarter before?" after "projects in Q3 2025": Q2 2025
        unit, by = unit_shift
        months = 3 if unit == "quarter" else 1
        if (before.end.year * 12 + before.end.month) - (before.start.year * 12 + before.start.month) + 1 != months:
            return None  # the previous period is no quarter (no month): nothing to shift by one
        index = before.start.year * 12 + before.start.month - 1 + by * months
        year, month = divmod(index, 12)
        moved = f"Q{month // 3 + 1} {year}" if unit == "quarter" else f"{calendar.month_name[month + 1]} {year}"
    else:
        now = engine.dates.parse(question, today)
        if now is None:
            return None
        rest = [t.word for t in tokenize(lowered.replace(now.text, " "))]
        if not all(w in _ONLY_POINTING or w in engine.stopwords for w in rest):
            return None  # "what did she build in 2022": a question of its own
        moved = now.text
    asked = engine.dates.expanded(previous.normalized, today)  # "in '24" is found as "in 2024"
    at = asked.lower().find(before.text)
    if at < 0:
        return None
    return asked[:at] + moved + asked[at + len(before.text):]


def _shift(engine: Engine, unit: str, lowered: str) -> int | None:
    """By how many of a unit the words shift a period: "the year before" -1, "the quarter after" 1 (intents.yaml
    references year_shifts, quarter_shifts, month_shifts; the longest phrase first)."""
    shifts = {str(k).lower(): int(v) for k, v in (engine.references.get(f"{unit}_shifts") or {}).items()}
    return next((shifts[k] for k in sorted(shifts, key=len, reverse=True)
                 if re.search(rf"(?<!\w){re.escape(k)}(?!\w)", lowered)), None)  # fmt: skip


def _chained(engine: Engine, question: str, previous: Plan, named: list[str], follow_on: list[str]) -> str | None:
    """ "and before that?", "and what replaced that?" after a relation answered with one related thing: the
    previous question asked of that thing ("what came before Widgeteer?")."""
    related = [r for r in previous.results if r.iri != previous.entity]
    if named or not _follows(engine, previous, "related") or len(related) != 1 \
            or previous.entity not in engine.entities:  # fmt: skip
        return None
    lowered = question.lower().strip()
    if not any(lowered.startswith(f) for f in follow_on):
        return None
    pronouns = {str(p).lower() for p in engine.references.get("pronouns") or []}
    pointing = {w for p in pronouns for w in p.split()}  # "that one": both its words point back
    asked = [t.word for t in tokenize(question)]
    before = {t.word for t in tokenize(previous.normalized)}
    rest = [w for w in asked if w not in pointing and w not in _ONLY_POINTING]
    if not any(w in pronouns for w in asked) or not rest or not set(rest) <= before:
        return None  # it must point back, and ask the same relation again
    mention = next((m for m in engine.linker.link(previous.normalized).mentions if previous.entity in m.iris), None)
    if mention is None:
        return None
    return previous.normalized[: mention.start] + related[0].label + previous.normalized[mention.end :]
