"""The misses report (main seed §11): what visitors asked that the engine answered badly, for an owner to act on.

From the question log: the questions the engine declined, answered weakly, or answered with a route the
visitor then rephrased within a minute (a next question whose `previous` is this one and that says much the
same thing), grouped by the question as the engine read it, with counts and the last time asked. For each
group, what the engine saw (words the site never uses, names they are close to by spelling, technologies the
graph lacks) and a suggested change to the owner's data: an alias, an absent technology, a synonym, an
article. Suggestions are never applied: the owner decides. The most asked questions come last.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from service.engine.model import Plan
from service.engine.plan import Planner
from service.engine.state import State
from service.text import query_terms, words

REPHRASE_SECONDS = 60
REPHRASE_OVERLAP = 0.25  # a follow-up ("and in 2024?", "what did she build with it?") shares none
NEAR_NAME = 0.34  # normalized edit distance under which an unknown word is taken for a misspelt name
CLOSE_ARTICLE = 0.8  # share of the question's words an article must hold to be the place to answer it
BY_DESIGN = {"private"}  # declined on purpose (a phone number, a birth date): not a miss


@dataclass
class Group:
    key: str  # the question as the engine read it, lower case
    examples: list[str] = field(default_factory=list)
    count: int = 0
    last: str = ""
    outcomes: Counter[str] = field(default_factory=Counter)  # "declined", "weak", "rephrased"
    routes: Counter[str] = field(default_factory=Counter)
    saw: list[str] = field(default_factory=list)
    suggest: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"question": self.key, "examples": self.examples[:3], "count": self.count, "last_asked": self.last,
                "outcomes": dict(self.outcomes), "routes": dict(self.routes), "saw": self.saw,
                "suggest": self.suggest}  # fmt: skip


def _parse(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def _rephrased(rows: list[dict[str, Any]], stopwords: frozenset[str]) -> dict[str, str]:
    """Answers the visitor asked again in other words within a minute (told by the next question's `previous`),
    with the new wording: the two share a quarter of their content words, where a follow-up ("and in 2024?")
    shares none."""
    out: dict[str, str] = {}
    by_question: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_question[r["question"]].append(r)
    for r in rows:
        if not r["previous"] or r["channel"] == "followup":
            continue
        at = _parse(r["asked_at"])
        before = [p for p in by_question.get(r["previous"], [])
                  if 0 <= (at - _parse(p["asked_at"])).total_seconds() <= REPHRASE_SECONDS]  # fmt: skip
        a, b = set(query_terms(r["question"], stopwords)), set(query_terms(r["previous"], stopwords))
        if before and a and b and len(a & b) / len(a | b) >= REPHRASE_OVERLAP:
            out[before[-1]["answer"]] = r["question"]
    return out


class Analyst:
    """What the engine sees in a question, and what change to the owner's data would help it."""

    def __init__(self, planner: Planner, today: date) -> None:
        self.planner, self.today = planner, today
        engine = planner.engine
        # every name and each longer word of a name, with what it names ("brightwater": three things)
        # (a whole name means its own entity only)
        self.names: dict[str, list[str]] = defaultdict(list)
        for e in engine.entities.values():
            for key in {e.display.lower(), e.label.lower()}:
                self.names[key].append(e.name)
        whole = set(self.names)
        for e in engine.entities.values():
            for w in words(e.label):
                if len(w) >= 5 and w not in whole and w not in engine.stopwords and e.name not in self.names[w]:
                    self.names[w].append(e.name)
        self._plans: dict[tuple[str, str | None], Plan] = {}

    def plan(self, question: str, previous: str | None) -> Plan:
        key = (question, previous)
        if key not in self._plans:
            self._plans[key] = self.planner.plan(question, previous=previous, today=self.today)
        return self._plans[key]

    def look(self, plan: Plan, asked_again: str | None = None) -> tuple[list[str], list[dict[str, str]]]:
        """What the engine saw in the question, and the changes that would help; `asked_again` is the wording
        a visitor tried next, when they did."""
        engine = self.planner.engine
        st: State = self.planner.understand(plan, self.today)
        unknown = list(dict.fromkeys(w for w in st.q.cue if st.q.unknown_words([w])))
        content = [w for w in dict.fromkeys(st.q.cue) if w not in engine.stopwords and w not in engine.intents.filler]
        q = st.q
        saw = [self._names(st), f"read as a {q.kind} question" + (f" about {q.period.text}" if q.period else "")]
        if plan.results:
            saw.append(f"answered by the {plan.route} route, first {plan.results[0].label}")
        if plan.route == "off_topic":
            saw.append("judged outside the portfolio: chit-chat, an opinion, a task or someone else")
            aliases = [a for a in (self._alias(w) for w in unknown) if a is not None]
            if aliases:  # a name misspelt past the engine's corrections reads as chit-chat: a real miss
                return saw, aliases
            uses = f" that uses {', '.join(repr(w) for w in unknown)}" if unknown else ""
            return saw, [{"file": "wiki/", "change": f"nothing, unless this is about your work: then an article{uses}",
                          "why": "declining is right for questions the portfolio does not cover"}]  # fmt: skip
        if unknown:
            saw.append("words the site never uses: " + ", ".join(unknown))
        absent = engine.absent_linker.link(plan.normalized).entities
        if absent:
            saw.append("technologies the graph lacks: " + ", ".join(absent))
        hits = st.hits
        saw.append(f"best passage: {hits[0].title} ({hits[0].coverage:.0%} of the question's words)" if hits
                   else "no passage holds enough of the question's words")  # fmt: skip
        suggest = [self._for_word(w, plan.question) for w in unknown]
        if asked_again is not None:
            saw.append(f"asked again within a minute as {asked_again!r}")
            if not suggest:
                return saw, [{"file": "", "change": f"compare: python -m service ask {plan.question!r}, "
                              f"then {asked_again!r}", "why": "the visitor was not satisfied with the first answer: "
                              "the second wording's words may belong in synonyms.yaml, or the first answer lacks a "
                              "fact"}]  # fmt: skip
        linked = [e for e in st.q.entities if not e.has_article and e.kind != "person"]
        if not unknown and linked:
            e = linked[0]
            why = f"{e.label} has no article, so how and why questions about it get no answer"
            suggest.append({"file": f"wiki/{e.name}.md", "change": f"an article about {e.label}", "why": why})
        if not suggest:
            about = " ".join(content) or plan.normalized
            where = f"wiki/{hits[0].article}.md" if hits and hits[0].coverage >= CLOSE_ARTICLE else "wiki/"
            suggest.append({"file": where, "change": f"a passage that says what visitors ask: {about!r}",
                            "why": "every word is known, but no passage answers it"})  # fmt: skip
        return saw, suggest

    @staticmethod
    def _names(st: State) -> str:
        found = st.q.entities
        if not found:
            return "no name of the site"
        return "names: " + ", ".join(f"{e.label} ({e.kind})" for e in found)

    def _alias(self, w: str) -> dict[str, str] | None:
        """An alias, when the word is close by spelling to a name of the site."""
        near = process.extractOne(w, list(self.names), scorer=DamerauLevenshtein.normalized_distance,
                                  score_cutoff=NEAR_NAME)  # fmt: skip
        if near is None:
            return None
        by_name = self.planner.engine.by_name
        meant = sorted(self.names[near[0]], key=lambda n: len(by_name[n].label) if n in by_name else 99)
        others = f"  # or {', '.join(meant[1:4])}" if len(meant) > 1 else ""
        return {"file": "data/lexicon/aliases.yaml", "change": f"{w}: {meant[0]}{others}",
                "why": f"{w!r} is close to the name {near[0]!r} by spelling"}  # fmt: skip

    def _for_word(self, w: str, question: str) -> dict[str, str]:
        """The change a word the site never uses asks for: an alias of a name it is close to by spelling, an
        absent technology when it reads like a name, or else a synonym."""
        alias = self._alias(w)
        if alias is not None:
            return alias
        original = next((t.strip("?,.!") for t in question.split() if t.lower().strip("?,.!") == w), w)
        if original[:1].isupper() or any(c.isdigit() for c in w) or original.endswith(("#", "++")):
            return {"file": "data/lexicon/absent.yaml",
                    "change": f"- label: {original}\n  category: ProgrammingLanguage  # or Framework, Database, Tool",
                    "why": f"{original!r} reads like a name the graph does not have: if it is a technology you do "
                           "not use, say so; if it is something of yours, add it to data/"}  # fmt: skip
        return {"file": "data/lexicon/synonyms.yaml", "change": f"- [<the word your wiki uses>, {w}]",
                "why": f"no article and no name uses {w!r}"}  # fmt: skip


MOST_PLANNED = 300  # distinct questions planned again for a report at most, the most asked first
PLAN_SECONDS = 0.3  # and the time they may take past the first PLAN_AT_LEAST: the rest are grouped by their words
PLAN_AT_LEAST = 30
MOST_GROUPS = 200  # groups of missed questions a report lists, the most missed first


def report(planner: Planner, rows: list[dict[str, Any]], today: date, top: int = 10,
           most_planned: int = MOST_PLANNED, plan_seconds: float = PLAN_SECONDS) -> dict[str, Any]:  # fmt: skip
    """The misses of the logged rows, grouped by the question as the engine read it. Only the most often asked
    questions are planned again (read, and the changes that would help them suggested): `most_planned` at most,
    and past the first PLAN_AT_LEAST only for `plan_seconds`. The rest are grouped by their own words: the
    report's cost has a bound whatever the log holds."""
    analyst = Analyst(planner, today)
    again = _rephrased(rows, planner.engine.search_stopwords or planner.engine.stopwords)
    asked: Counter[str] = Counter()
    answered: dict[str, tuple[str, str]] = {}
    by_design = 0
    often = Counter((r["question"], r["previous"]) for r in rows)
    plans: dict[tuple[str, str | None], Plan] = {}
    until = time.perf_counter() + plan_seconds
    for n, (asked_pair, _) in enumerate(often.most_common(most_planned)):
        if n >= PLAN_AT_LEAST and time.perf_counter() > until:
            break
        plans[asked_pair] = analyst.plan(*asked_pair)
    keys = {pair: " ".join(words(plans[pair].normalized if pair in plans else pair[0])) for pair in often}
    missed: dict[str, list[tuple[dict[str, Any], Plan | None, str]]] = defaultdict(list)
    for r in rows:
        pair = (r["question"], r["previous"])
        key = keys[pair]
        asked[key] += 1
        answered[key] = (r["route"], r["level"])
        if r["route"] in BY_DESIGN:
            by_design += 1
            continue
        outcome = ("declined" if r["level"] == "none" else "weak" if r["level"] == "weak"
                   else "rephrased" if r["answer"] in again else "")  # fmt: skip
        if outcome:
            missed[key].append((r, plans.get(pair), outcome))
    shown = sorted(missed, key=lambda k: (-len(missed[k]), k))[:MOST_GROUPS]  # only these are made into groups
    groups: dict[str, Group] = {}
    for key in shown:
        g = groups[key] = Group(key)
        for r, plan, outcome in missed[key]:
            g.count += 1
            g.last = max(g.last, r["asked_at"])
            g.outcomes[outcome] += 1
            g.routes[r["route"]] += 1
            if r["question"] not in g.examples:
                g.examples.append(r["question"])
            if not g.saw and not g.suggest and plan is not None:
                g.saw, g.suggest = analyst.look(plan, again.get(r["answer"]))
    ordered = sorted(groups.values(), key=lambda g: (-g.count, g.key))
    return {
        "questions": len(rows),
        "distinct": len(often),
        "planned": len(plans),
        "missed": sum(len(m) for m in missed.values()),
        "declined_by_design": by_design,
        "groups": [g.to_json() for g in ordered],
        "more_groups": len(missed) - len(shown),
        "most_asked": [
            {"question": k, "count": n, "route": answered[k][0], "level": answered[k][1]}
            for k, n in asked.most_common(top)
        ],
        "per_day": per_day(rows),
    }


def per_day(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Questions per day: answered well (exact, strong), weakly, or declined."""
    days: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        level = r["level"]
        days[r["asked_at"][:10]]["declined" if level == "none" else "weak" if level == "weak" else "right"] += 1
    return [{"day": d, **{k: c[k] for k in ("right", "weak", "declined")}} for d, c in sorted(days.items())]


def default_since(today: date) -> str:
    return (today - timedelta(days=30)).isoformat()


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def text(doc: dict[str, Any], since: str) -> str:
    private = _n(doc["declined_by_design"], "private question")
    lines = [f"Misses since {since}: {doc['missed']} of {_n(doc['questions'], 'logged question')}, in "
             f"{_n(len(doc['groups']), 'group')} (most asked first); {private} declined by design left out.",
             ""]  # fmt: skip
    for g in doc["groups"]:
        outcomes = ", ".join(f"{n} {k}" for k, n in g["outcomes"].items())
        lines.append(f"{g['count']:>4}×  {g['question']!r}   last {g['last_asked']}   {outcomes}   "
                     f"route {', '.join(g['routes'])}")  # fmt: skip
        for s in g["saw"]:
            lines.append(f"       saw: {s}")
        for s in g["suggest"]:
            change = s["change"].replace("\n", "\n" + " " * 18)
            where = f" in {s['file']}" if s["file"] else ""
            lines.append(f"       suggest{where}: {change}   ({s['why']}; accept or ignore)")
        lines.append("")
    lines.append("Most asked:")
    lines += [f"{m['count']:>4}×  {m['question']!r}  ({m['route']}, {m['level']})" for m in doc["most_asked"]]
    return "\n".join(lines)
