"""plan(question): the planning order of the main seed (Algorithm 4), and everything done for every plan.

    spelling -> shortcuts -> two-turn context -> linking -> intent -> period -> passages -> first branch that
    answers -> interpretation, results with resources, the composed answer, confidence, follow-up-ready plan

Pure and deterministic: given the KB and `today`, the same question gives the same plan.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from urllib.parse import quote

from service.engine import about, career, lists, relations, routes, texts, two
from service.engine.analyse import Analyser
from service.engine.answer import compose
from service.engine.catalog import CONCEPTS
from service.engine.complete import complete
from service.engine.confidence import Scale, decide
from service.engine.engine import Engine
from service.engine.fuse import fuse
from service.engine.intents import contains, interpret
from service.engine.model import Plan, Result
from service.engine.resources import resources_for
from service.engine.state import State
from service.engine.trace import Trace, branch_name, trace_passed


class Planner:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.analyser = Analyser(engine)
        self.thing_words = {w for p in engine.thing_alone_phrases for w in p}
        # routes whose own cue words or authored phrases are the whole question, or that answer "no"
        self.unchecked = {"pivot", "ambiguous", "comparison", "lexicon_definition", "about", "recent", "career",
                          "skills", "key_works", "dates", "relation", "fact"}  # fmt: skip

    # ------------------------------------------------------------------------- public

    def plan(self, question: str, previous: Plan | str | None = None, today: date | None = None, *,
             trace: bool = False, split: bool = True, joined: bool = False) -> Plan:  # fmt: skip
        """The plan for one question; with `trace`, `plan.trace` lists every step taken (service/engine/trace.py);
        `joined` when `previous` was asked in the same question (the first of two questions in one)."""
        started = time.perf_counter()
        today = today or date.today()
        plan = Plan(question=question, normalized=question)
        if isinstance(previous, str):
            previous = self.plan(previous, today=today) if previous.strip() else None
        plan.previous = previous.question if previous else None
        tr = plan.trace = Trace() if trace else None
        q = self.analyser.analyse(plan, previous, today, tr, joined)
        normalized = plan.normalized
        st = State(engine=self.engine, plan=plan, q=q, trace=tr)
        self._dispatch(st)
        self._finish(st)
        plan.normalized = normalized
        two_ = self.engine.two
        parts = two_.split(normalized) if split and plan.route not in two_.whole_routes else None
        if parts is not None and (both := self._two(plan, parts, today, trace)) is not None:
            both.timing_ms = (time.perf_counter() - started) * 1000
            return both
        plan.timing_ms = (time.perf_counter() - started) * 1000
        return plan

    def _two(self, whole: Plan, parts: tuple[str, str], today: date, trace: bool) -> Plan | None:
        """Two questions asked in one, each answered in turn, the second as the follow-up of the first. When the
        first answer already says what the second asks, it alone; when the second finds no answer, or a weak one
        about something else, the first alone, saying so, if it is sure and the question read whole is not;
        else (None) the whole reading stands."""
        first = self.plan(parts[0], today=today, trace=trace, split=False)
        if not two.answered(first):
            return None
        then = self.plan(parts[1], previous=first, today=today, trace=trace, split=False, joined=True)
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

    def _dispatch(self, st: State) -> None:
        if (reason := self._refused(st)) is not None:
            if st.trace is not None:
                found = self.engine.private.first(st.q.said) if st.plan.route == "private" else None
                why = f"it asks “{' '.join(found)}”, a private matter" if found else reason
                st.trace.add("branch", f"declined before any branch (route {st.plan.route}): {why}",
                             route=st.plan.route, reason=why)  # fmt: skip
            return
        if st.q.linked.ambiguous and not st.q.entities:
            routes.ambiguous(st)
            if st.trace is not None:
                st.trace.add("branch", "only ambiguous names: the candidates are offered", route=st.plan.route)
            return
        key = st.q.authored_key

        def authored_answer(s: State) -> bool:
            return key is not None and about.authored(s, key)

        def contact_or_recent(s: State) -> bool:
            return s.q.kind in ("contact", "recent") and about.authored(s, s.q.kind)
        order: list[Callable[[State], bool]] = [
            lists.pivot,
            lists.comparison,
            career.place_of,
            career.events_in_place,  # "talks outside Europe": where each was held
            career.career,
            relations.dates,
            lists.count,
            relations.relation,  # "what is the lab part of": the relation asked, before the works made there
            relations.fact,  # "where was the classifier paper published": a value the question names
            relations.of_kind,  # "a talk about Widgeteer": the neighbours of the kind named
            lists.ongoing,  # "which of his projects are still active"
            lists.period,
            texts.described_work,
            lists.class_list,
            authored_answer,
            contact_or_recent,
            texts.define,
            texts.lexicon_definition,
            texts.explain,
            lists.with_all,
            lists.concept_works,
            about.person_named,
            relations.described_neighbour,  # "what does Widgeteer use to skip lookups": the one so described
            routes.entity_answer,
            lists.all_works,  # "list her projects": every work
            texts.top_passage,
        ]
        tr = st.trace
        passed: list[str] = []  # branches that did not answer, said together before the next that did
        for branch in order:
            mark = st.checkpoint()
            at = len(tr) if tr is not None else 0
            if not branch(st):
                if tr is not None:
                    if len(tr) > at:  # it read something before giving up: said after the branches before it
                        trace_passed(tr, passed, at)
                        tr.add("branch", f"{branch_name(branch)}: read the above, no answer",
                               branch=branch_name(branch), answered=False)  # fmt: skip
                    else:
                        passed.append(branch_name(branch))
                continue
            if tr is not None:
                trace_passed(tr, passed, at)
            if (st.plan.route in self.unchecked or st.addresses()) and not self._unstated(st):
                if tr is not None:
                    tr.add("branch", f"{branch_name(branch)} answers (route {st.plan.route}): kept",
                           branch=branch_name(branch), answered=True, kept=True, route=st.plan.route)  # fmt: skip
                return
            if tr is not None:
                missed = [f"a stated {kind}" for kind in self._unstated(st)] or list(st.q.ask)
                tr.add("branch", f"{branch_name(branch)} answered (route {st.plan.route}) but is undone: the answer "
                       f"does not speak to “{' '.join(missed)}”", branch=branch_name(branch), answered=True,
                       kept=False, route=st.plan.route, unaddressed=missed)  # fmt: skip
            st.rollback(mark)
        # the named work's own article, though no passage uses the question's words ("the Widgeteer migration:
        # migrated from what?" is answered by "moved the catalogue from X to Y"): said, as weak
        mark = st.checkpoint()
        # not for a yes or a no ("is Widgeteer on the app store"), nor with a word the site never uses ("iphone")
        if st.q.has("asks_what") and not st.q.unknown_rest and texts.named_work_passage(st):
            if not self._unstated(st):
                st.near = True
                if tr is not None:
                    tr.add("branch", f"texts.named_work_passage kept as weak: the best passage of {st.listed[0]}, the "
                           "work named, though it does not use the question's words",
                           branch="texts.named_work_passage", answered=True, kept=True)  # fmt: skip
                return
            st.rollback(mark)
        st.plan.route = "empty"
        if tr is not None:
            trace_passed(tr, passed, len(tr))
            tr.add("branch", "no branch answered", route="empty")

    def _unstated(self, st: State) -> list[str]:
        """The kinds of fact the portfolio rarely publishes (a price) that the question asks of something it names,
        and the answer drafted does not state in the form the kind has (abstain.yaml stated_as): "how much is the
        Widgeteer kit" is no question for the kit's overview."""
        text = " ".join(sentence for sentence, _ in st.draft.sentences)
        unstated = [kind for kind, (asked, form) in self.engine.stated_as.items()
                    if asked.found_in(st.q.said) and not form.search(text)]  # fmt: skip
        amounts, amount = self.engine.quantities, st.q.amount
        if amounts.owed(amount, st.q.class_words) and amount and not amounts.states(text, amount):
            unstated.append(amount.kind)
        return unstated

    def _refused(self, st: State) -> str | None:
        """Private matters always, opinions and chit-chat when nothing the site knows is named: why the question
        is declined (said in the trace), or None."""
        if self.engine.private.found_in(st.q.said) or self._private_topic(st):
            st.plan.route = "private"
            return "a private matter"
        if self.engine.opinion.found_in(st.q.said):
            st.plan.route = "off_topic"
            return "it asks for an opinion"
        if st.q.out_of_scope:
            st.plan.route = "off_topic"
            unknown = ", ".join(st.q.unknown_words(st.q.words))
            return f"it names nothing the site knows and uses words it never uses ({unknown})"
        if all(e.kind == "person" for e in st.q.entities) and self.engine.unnamed_opinion.found_in(st.q.said):
            # "what does Ada think about remote work": the owner named, and nothing the site knows
            st.plan.route = "off_topic"
            return "it asks what the person thinks of something the site does not cover"
        general = bool(st.q.entities) and all(e.kind in CONCEPTS for e in st.q.entities)
        about_thing = any(st.q.has(r) for r in self.engine.thing_alone) or any(
            contains(st.q.said, p) for p in self.engine.thing_alone_phrases
        )
        tied = self._tied(st, self.thing_words)
        if general and about_thing and not tied and not texts.held_beyond_names(st):
            st.plan.route = "off_topic"
            return "it asks about a general thing itself, not about the person's work with it"
        if self._unpublished(st):
            st.plan.route = "off_topic"
            return "it asks a kind of fact the portfolio never publishes"
        if self._about_a_third_party(st, tied):
            st.plan.route = "off_topic"
            return "it asks about an organisation or place itself, not about the person"
        # a task or an everyday topic, naming at most places and general things ("write me a Python function",
        # "a restaurant in Berlin"), with no word tying it to her beyond the phrase itself
        matched = [p for p in self.engine.unnamed_refusals if contains(st.q.said, p)]
        if matched:
            portfolio = [e for e in st.q.entities if e.kind != "place" and e.kind not in CONCEPTS]
            # tied to her, and naming something or held by one of her passages ("what pool depth did the paper
            # recommend"): a question about her work
            tied = self._tied(st, {w for p in matched for w in p})
            if not portfolio and not (tied and (st.q.entities or texts.held_beyond_names(st))):
                st.plan.route = "off_topic"
                return f"a task or everyday topic (“{' '.join(matched[0])}”)"
        return None

    def _private_topic(self, st: State) -> bool:
        """A private topic ("birthplace", "street", "mobile") asked about the person: a word tying the question
        to them, and no work, role or organisation named that the word could be about ("the street lamp game")."""
        topics = self.engine.private_topics
        if not topics or not any(w in topics for w in st.q.said):
            return False
        if any(e.kind in ("work", "role", "organisation") for e in st.q.entities):
            return False
        return any(w in self.engine.person_words for w in st.q.said) or any(e.kind == "person" for e in st.q.entities)

    def _tied(self, st: State, own: set[str]) -> bool:
        """A word tying the question to her or her work ("she", "projects"), other than the words of the phrase
        being judged ("created" in "who created")."""
        return any(w in self.engine.intents.topic_words and w not in own for w in st.q.words)

    def _unpublished(self, st: State) -> bool:
        """A kind of fact the portfolio never publishes (a price, an opening time, instructions, a task),
        asked with nothing tying it to her or her works (abstain.yaml unpublished_kinds)."""
        if any(w in self.engine.person_words for w in st.q.words):
            return False
        if any(e.kind in ("work", "role", "person") for e in st.q.entities):
            return False
        return self.engine.unpublished.found_in(st.q.said)

    def _about_a_third_party(self, st: State, tied: bool) -> bool:
        """Only organisations or places named, nothing tying the question to her, and something asked beyond
        the names that no excepted intent covers: a question about the third party (abstain.yaml)."""
        spec = self.engine.third_party
        kinds = set(spec.get("kinds") or [])
        if not st.q.entities or tied or any(e.kind not in kinds for e in st.q.entities) or st.q.kind == "entity":
            return False
        if any(st.q.has(rule) for rule in spec.get("except") or []) or st.q.authored_key is not None:
            return False
        if any(contains(st.q.said, key) for key, _ in self.engine.relations):  # "which university is it part of"
            return False
        if st.q.absent_named.mentions:
            return False  # "was any of the Acme stuff in Scala": a technology she may lack, asked of her work there
        asked = tuple(st.q.ask)
        # "the map showing which Lisbon stops are wheelchair friendly": what is asked describes one of her works
        return bool(asked) and not (len(asked) > 1 and texts.describes_a_work(st, asked))

    # ------------------------------------------------------------------------- finish

    def _finish(self, st: State) -> None:
        engine, plan = self.engine, st.plan
        ents = st.q.entities
        main = engine.entities.get(st.subject or "") or next((e for e in ents if e.iri in st.listed),
                                                             ents[0] if ents else None)  # fmt: skip
        if main is None and st.listed and plan.route in ("passage", "explain", "entity", "definition"):
            main = engine.entities.get(st.listed[0])
        plan.entity = main.iri if main else None
        bare_work = bool(ents and ents[0].kind == "work" and len(st.q.linked.mentions) == 1 and not st.q.cue)
        it = interpret(st.q.kind, st.q.words, counting=st.q.has("count"), bare_work=bare_work and st.q.kind == "entity",
                       named=bool(ents))  # fmt: skip
        if plan.route == "comparison":
            it = type(it)("compare", "compare")
        plan.task, plan.operation = it.task, it.operation

        if plan.route in ("passage", "explain") and st.listed:
            st.listed += [iri for iri in st.named_in_quoted() if iri not in st.listed]
        plan.results = self._results(st, it.task)
        # said, on the reading the answer rests on, of those set apart that its queries returned ("other than
        # libraries": the libraries in Rust, not every library)
        read = {c.value for run in plan.sparql for row in run.rows for c in row.values()} if st.q.excluded else set()
        left = sorted(self.analyser._label(i) for i in st.q.excluded if i in read or len(st.q.excluded) == 1)
        if left and st.draft.sentences:
            st.draft.say(engine.say("set_apart", names=routes.names(left, 8)), *st.draft.sentences[0][1])
        complete(st)
        plan.answer = compose(st.draft, st.read)
        text_routes = ("passage", "described", "explain")
        support = st.support if plan.route in text_routes and st.support else 1.0
        # named only if the text is about something the question named
        named = (bool(st.listed) and st.listed[0] in st.q.linked.entities) if plan.route in text_routes else bool(ents)
        plan.confidence = decide(
            ambiguous=plan.route == "ambiguous",
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

    def _results(self, st: State, task: str) -> list[Result]:
        engine = self.engine
        limit = int(engine.weights["results"]["limit"])
        tiers = engine.tiers
        if st.listed:
            ranked = [(iri, 1.0 / (n + 1)) for n, iri in enumerate(dict.fromkeys(st.listed))]
        else:
            lists: dict[str, list[str]] = {"linked": st.q.linked.entities, "wiki": []}
            for h in st.hits:
                if h.article in engine.by_name:
                    lists["wiki"].append(engine.by_name[h.article].iri)
            concepts = [e for e in st.q.entities if e.kind in CONCEPTS]
            if concepts and st.plan.route not in ("empty", "private", "off_topic"):
                candidate = engine.routes["candidates"].get(concepts[0].kind)
                if candidate:
                    run = st.run(candidate["query"], {candidate["param"]: concepts[0].iri})
                    lists["graph"] = [r["work"].value for r in run.rows if "work" in r]
            fusion = engine.weights["fusion"]
            weights = fusion["weights"][fusion.get("kinds", {}).get(st.q.kind, "search")]
            factors = {int(k): float(v) for k, v in fusion["tier_factor"].items()}
            ranked = fuse(lists, weights, tiers, factors, int(fusion["k"]))
            if st.trace is not None and st.plan.route not in ("private", "off_topic", "empty"):
                top = [(engine.entities[i].label if i in engine.entities else i, round(v, 4)) for i, v in ranked[:5]]
                st.trace.add("fusion", f"fused {', '.join(f'{k} {len(v)}' for k, v in lists.items())} with weights "
                             f"{weights}, tier factors {factors}, k {fusion['k']}: " +
                             (", ".join(f"{label} {score}" for label, score in top) or "nothing"),
                             inputs={k: len(v) for k, v in lists.items()}, weights=weights, tier_factors=factors,
                             k=int(fusion["k"]), top=top)  # fmt: skip
        if st.plan.route in ("private", "off_topic", "empty"):
            ranked = []
        out = []
        for iri, score in [(i, v) for i, v in ranked if i not in st.q.excluded][:limit]:
            e = engine.entities.get(iri)
            if e is None:
                continue
            resources, primary = resources_for(e, task)
            out.append(Result(e.iri, e.label, e.type, e.tier, score, resources, primary))
        return out

