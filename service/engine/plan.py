"""plan(question): the question analysed once, the route declarations' ways tried in order, and what is done for
every plan (the main seed's Algorithm 4).

    analyse (analyse.py: spelling, shortcuts, two-turn context, names set apart, linking, intent, period, search
    words) -> the matcher (matcher.py: the first way of the route declarations whose step answers and whose
    answer passes its route's checks) -> interpretation, results with resources, completion, the composed
    answer, confidence; a question that asks two things in one is planned as two

Pure and deterministic: given the KB and `today`, the same question gives the same plan.
"""

from __future__ import annotations

import time
from datetime import date
from urllib.parse import quote

from service.engine import routes, two
from service.engine.analyse import Analyser
from service.engine.answer import compose
from service.engine.catalog import CONCEPTS
from service.engine.complete import complete
from service.engine.confidence import Scale, decide
from service.engine.engine import Engine
from service.engine.fuse import fuse
from service.engine.intents import interpret
from service.engine.matcher import Matcher
from service.engine.model import Plan, Result
from service.engine.resources import resources_for
from service.engine.state import Runs, State
from service.engine.trace import Trace
from service.language.declarations import Route


class Planner:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.analyser = Analyser(engine)
        self.matcher = Matcher(engine.declarations)

    # ------------------------------------------------------------------------- public

    def plan(self, question: str, previous: Plan | str | None = None, today: date | None = None, *, trace: bool = False,
             split: bool = True, joined: bool = False, runs: Runs | None = None) -> Plan:  # fmt: skip
        """The plan for one question; with `trace`, `plan.trace` lists every step taken (service/engine/trace.py);
        `joined` when `previous` was asked in the same question (the first of two questions in one); `runs`: the
        stored queries already run for the question this one is part of."""
        runs = {} if runs is None else runs
        started = time.perf_counter()
        today = today or date.today()
        plan = Plan(question=question, normalized=question)
        if isinstance(previous, str):
            previous = self.plan(previous, today=today, runs=runs) if previous.strip() else None
        plan.previous = previous.question if previous else None
        tr = plan.trace = Trace() if trace else None
        q = self.analyser.analyse(plan, previous, today, tr, joined)
        normalized = plan.normalized
        st = State(engine=self.engine, plan=plan, q=q, trace=tr, runs=runs)
        self.matcher.match(st, self._unstated)
        self._finish(st)
        plan.normalized = normalized
        whole = self.engine.declarations[plan.route].whole
        parts = self.engine.two.split(normalized) if split and not whole else None
        if parts is not None and (both := self._two(plan, parts, today, trace, runs, previous)) is not None:
            both.timing_ms = (time.perf_counter() - started) * 1000
            return both
        plan.timing_ms = (time.perf_counter() - started) * 1000
        return plan

    def _two(self, whole: Plan, parts: tuple[str, str], today: date, trace: bool, runs: Runs,
             previous: Plan | None = None) -> Plan | None:  # fmt: skip
        """Two questions asked in one, each answered in turn, the first after the question before them ("what's the
        firmware written in, and on which chip?" after a question about Loom), the second as the follow-up of the
        first. When the
        first answer already says what the second asks, it alone; when the second finds no answer, or a weak one
        about something else, the first alone, saying so, if it is sure and the question read whole is not;
        else (None) the whole reading stands."""
        first = self.plan(parts[0], previous=previous, today=today, trace=trace, split=False, runs=runs)
        if not two.answered(first):
            return None
        then = self.plan(parts[1], previous=first, today=today, trace=trace, split=False, joined=True, runs=runs)
        second: Plan | None = then
        unanswered = ""
        if two.answered(then) and self.engine.two.adds_nothing(first, then, whole.normalized, self.engine.stopwords):
            second = None  # "when was the paper published, and where": the first answer said where
        elif not two.answered(then) or then.answer == first.answer or (
                then.confidence.level == "weak" and not two.about_first(first, then)):
            sure = ("exact", "strong")
            if first.confidence.level not in sure or whole.confidence.level in sure:
                return None
            second, unanswered = None, self.engine.say("second_not_covered", part=parts[1])
        both = two.joined(whole, first, second, unanswered)
        if trace:
            both.trace = Trace()
            how = "" if second else ": only the first answered" if unanswered else ": the first answer says both"
            both.trace.add("split", f"two questions in one: “{parts[0]}”, then “{parts[1]}”{how}",
                           parts=list(parts), answered=2 if second else 1)  # fmt: skip
            both.trace.extend([*(first.trace or ()), *((second.trace or ()) if second else ())])
        return both

    def understand(self, plan: Plan, today: date) -> State:
        """What the engine read in a planned question (its names, words, period), for reports on it."""
        q = self.analyser.read(plan.question, plan.normalized, today)
        return State(engine=self.engine, plan=Plan(question=plan.question, normalized=plan.normalized), q=q)

    # ----------------------------------------------------------------------- branches

    def _unstated(self, st: State) -> list[str]:
        """The kinds of fact the portfolio rarely publishes (a price) that the question asks of something it names,
        and the answer drafted does not state in the form the kind has (abstain.yaml stated_as): "how much is the
        Widgeteer kit" is no question for the kit's overview."""
        text = " ".join(sentence for sentence, _ in st.draft.sentences)
        unstated = [kind for kind, (asked, form) in self.engine.stated_as.items()
                    if asked.found_in(st.q.said) and not form.search(text)]  # fmt: skip
        amounts, amount = self.engine.quantities, st.q.amount
        quoted = self.engine.declarations[st.plan.route].answer == "text"
        if amounts.owed(amount, st.q.class_words, quoted=quoted) and amount and not amounts.states(text, amount):
            unstated.append(amount.kind)
        return unstated

    # ------------------------------------------------------------------------- finish

    def _finish(self, st: State) -> None:
        engine, plan = self.engine, st.plan
        route = engine.declarations[plan.route]
        ents = st.q.entities
        main = engine.entities.get(st.subject or "") or next((e for e in ents if e.iri in st.listed),
                                                             ents[0] if ents else None)  # fmt: skip
        if main is None and st.listed and route.subject == "listed":
            main = engine.entities.get(st.listed[0])
        plan.entity = main.iri if main else None
        bare_work = bool(ents and ents[0].kind == "work" and len(st.q.linked.mentions) == 1 and not st.q.cue)
        it = interpret(st.q.kind, st.q.words, counting=st.q.has("count"),
                       bare_work=bare_work and st.q.kind == "entity", named=bool(ents))  # fmt: skip
        if route.task:
            it = type(it)(route.task, route.task)
        plan.task, plan.operation = it.task, it.operation

        if route.names_in_passages and st.listed:
            st.listed += [iri for iri in st.named_in_quoted() if iri not in st.listed]
        plan.results = self._results(st, route, it.task)
        # said, on the reading the answer rests on, of those set apart that its queries returned ("other than
        # libraries": the libraries in Rust, not every library)
        read = {c.value for run in plan.sparql for row in run.rows for c in row.values()} if st.q.excluded else set()
        left = sorted(self.analyser._label(i) for i in st.q.excluded if i in read or len(st.q.excluded) == 1)
        if left and st.draft.sentences:
            st.draft.say(engine.say("set_apart", names=routes.names(left, 8)), *st.draft.sentences[0][1])
        complete(st, route.complete)
        plan.answer = compose(st.draft, st.read)
        text = route.answer == "text"
        support = st.support if text and st.support else 1.0
        # named only if the text is about something the question named
        named = (bool(st.listed) and st.listed[0] in st.q.linked.entities) if text else bool(ents)
        plan.confidence = decide(
            ambiguous=route.confidence == "ambiguous",
            exact_route=st.exact,
            answered=plan.answer is not None,
            named=named,
            support=support,
            strong_support=float(engine.weights["confidence"]["strong_support"]),
            terms=len(st.q.terms),
            strong_min_terms=int(engine.weights["confidence"]["strong_min_terms"]),
            scale=Scale.of(engine.weights["confidence"].get("scores")),
            hedged=st.near,
        )
        plan.hedged = st.near
        if st.trace is not None:
            c = plan.confidence
            st.trace.add("confidence", f"confidence {c.level} ({c.score}, {c.label}): route {plan.route}, "
                         f"{'an exact route' if st.exact else 'not an exact route'}, "
                         f"{'answered' if plan.answer else 'no answer'}, {'named' if named else 'not named'}, "
                         f"support {support:.2f} (strong from {engine.weights['confidence']['strong_support']}), "
                         f"{len(st.q.terms)} search words", level=c.level, score=c.score, exact=st.exact,
                         answered=plan.answer is not None, named=named, support=round(support, 3),
                         terms=len(st.q.terms))  # fmt: skip
        if plan.confidence.level == "none":
            plan.answer = None
            email = engine.kb.site.contact_email
            subject = quote(engine.say("contact_subject"))
            body = quote(plan.question.encode("utf-8", "replace"))
            plan.contact_url = f"mailto:{email}?subject={subject}&body={body}"
            plan.fallback = engine.say("not_covered")

    def _results(self, st: State, route: Route, task: str) -> list[Result]:
        engine = self.engine
        limit = int(engine.weights["results"]["limit"])
        tiers = engine.tiers
        if route.declines:  # declined or unanswered: no results, nothing searched for them
            return []
        if st.listed:
            ranked = [(iri, 1.0 / (n + 1)) for n, iri in enumerate(dict.fromkeys(st.listed))]
        else:
            lists: dict[str, list[str]] = {"linked": st.q.linked.entities, "wiki": []}
            for h in st.hits:
                if h.article in engine.by_name:
                    lists["wiki"].append(engine.by_name[h.article].iri)
            if engine.meaning is not None:  # the meaning model's nearest passages (service/engine/meaning.py)
                lists["meaning"] = [engine.by_name[a].iri for a in engine.meaning.articles(engine.passages, st.q.asked)
                                    if a in engine.by_name]  # fmt: skip
            concepts = [e for e in st.q.entities if e.kind in CONCEPTS]
            if concepts:
                candidate = engine.routes["candidates"].get(concepts[0].kind)
                if candidate:
                    run = st.run(candidate["query"], {candidate["param"]: concepts[0].iri})
                    lists["graph"] = [r["work"].value for r in run.rows if "work" in r]
            fusion = engine.weights["fusion"]
            weights = fusion["weights"][fusion.get("kinds", {}).get(st.q.kind, "search")]
            factors = {int(k): float(v) for k, v in fusion["tier_factor"].items()}
            ranked = fuse(lists, weights, tiers, factors, int(fusion["k"]))
            if st.trace is not None:
                top = [(engine.entities[i].label if i in engine.entities else i, round(v, 4)) for i, v in ranked[:5]]
                st.trace.add("fusion", f"fused {', '.join(f'{k} {len(v)}' for k, v in lists.items())} with weights "
                             f"{weights}, tier factors {factors}, k {fusion['k']}: " +
                             (", ".join(f"{label} {score}" for label, score in top) or "nothing"),
                             inputs={k: len(v) for k, v in lists.items()}, weights=weights, tier_factors=factors,
                             k=int(fusion["k"]), top=top)  # fmt: skip
        st.plan.ranked = [(i, v) for i, v in ranked if i not in st.q.excluded and i in engine.entities]
        return self._made(st.plan.ranked[:limit], task)

    def _made(self, ranked: list[tuple[str, float]], task: str) -> list[Result]:
        out = []
        for iri, score in ranked:
            e = self.engine.entities[iri]
            resources, primary = resources_for(e, task)
            out.append(Result(e.iri, e.label, e.type, e.tier, score, resources, primary))
        return out

    def page(self, plan: Plan, number: int, size: int) -> list[Result]:
        """The plan's results numbered `number` (from 1) in pages of `size`: every result the answer has, not only
        the first the plan lists."""
        if number == 1 and plan.results and [r.iri for r in plan.results] == [i for i, _ in plan.ranked[:size]]:
            return plan.results
        start = (number - 1) * size
        if not plan.ranked:  # a plan made without a ranking (a model's answer): its own results
            return plan.results[start : start + size]
        return self._made(plan.ranked[start : start + size], plan.task)

