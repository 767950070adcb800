"""The generic matcher: every route declaration's ways (service/language/routes/*.yaml), tried in precedence order.

A way whose conditions hold for the analysed question runs its step; a step that answers sets the route it answers
as. The answer is kept when it does what the route's `checks` ask (it speaks to what the question asks beyond its
names; it states a fact of the kind asked, a price in money, an amount in its unit), else it is undone and the
next way is tried. A route with no checks (a refusal, the choice between ambiguous names) ends planning at once.
When no way answers, the route is `empty`.
"""

from __future__ import annotations

from collections.abc import Callable

from service.engine.conditions import applies, holds
from service.engine.state import State
from service.engine.steps import STEPS
from service.engine.trace import trace_passed
from service.language.declarations import Route, Way

Unstated = Callable[[State], list[str]]


class Matcher:
    def __init__(self, routes: dict[str, Route]) -> None:
        self.routes = routes
        self.ways: list[Way] = sorted((w for r in routes.values() for w in r.ways),
                                      key=lambda w: (w.precedence, w.route, w.step))  # fmt: skip

    def match(self, st: State, unstated: Unstated) -> None:
        tr = st.trace
        passed: list[str] = []  # ways that did not answer and read nothing, said together before the next that did
        undone: list[Way] = []  # ways undone only for not speaking to the question's words, in order
        for way in self.ways:
            if not applies(st.q, way):
                if tr is not None:
                    passed.append(way.step)
                continue
            mark = st.checkpoint()
            at = len(tr) if tr is not None else 0
            st.way = way
            if not STEPS[way.step](st):
                if tr is not None:
                    if len(tr) > at:  # it read something before giving up: said after the ways before it
                        trace_passed(tr, passed, at)
                        tr.add("branch", f"{way.step}: read the above, no answer", branch=way.step, answered=False,
                               declaration=way.route, precedence=way.precedence)  # fmt: skip
                    else:
                        passed.append(way.step)
                continue
            if tr is not None:
                trace_passed(tr, passed, at)
            if st.plan.route not in way.routes:
                raise AssertionError(f"{way.step} answered as {st.plan.route!r}, which {way.route}.yaml does not "
                                     f"declare (also: {', '.join(way.also) or 'none'})")  # fmt: skip
            route = self.routes[st.plan.route]
            if not route.checks:
                if tr is not None:
                    _final(st, way, route)
                return
            checks = route.checks - {"addresses"} if way.hedged else route.checks
            missed = unstated(st) if "stated" in checks else []
            if not missed and ("addresses" not in checks or st.addresses()):
                st.near = st.near or way.hedged  # a step may hedge its own answer (a name no vocabulary knows)
                if tr is not None:
                    how = "kept as weak: the best passage of the work named, though it does not use the question's " \
                          "words" if way.hedged else "kept"  # fmt: skip
                    tr.add("branch", f"{way.step} answers (route {st.plan.route}): {how}", branch=way.step,
                           answered=True, kept=True, route=st.plan.route, declaration=way.route,
                           precedence=way.precedence)  # fmt: skip
                return
            if not missed:
                undone.append(way)
            if tr is not None:
                what = [f"a stated {kind}" for kind in missed] or list(st.q.ask)
                tr.add("branch", f"{way.step} answered (route {st.plan.route}) but is undone: the answer does not "
                       f"speak to “{' '.join(what)}”", branch=way.step, answered=True, kept=False,
                       route=st.plan.route, unaddressed=what, declaration=way.route,
                       precedence=way.precedence)  # fmt: skip
            st.rollback(mark)
        if tr is not None:
            trace_passed(tr, passed, len(tr))
        if self._bridge(st, undone) or (st.engine.meaning is not None and self._by_meaning(st, unstated)):
            return
        st.plan.route = "empty"
        if tr is not None:
            tr.add("branch", "no branch answered", route="empty")

    def _by_meaning(self, st: State, unstated: Unstated) -> bool:
        """Route choice by meaning, when no way answered: the route whose `meaning:` question is nearest this
        one, near enough and clearly nearer than the next route's (weights.yaml meaning.route, route_margin); its
        ways tried whatever their `when`, never against their `unless`, and kept as weak when they list something
        and state what the route must (a route's "none" is no answer to a question only guessed to be its)."""
        meaning, weights = st.engine.meaning, st.engine.weights["meaning"]
        near = meaning.nearest_routes(st.q.asked, self.routes)
        if not near or near[0][1] < float(weights["route"]):
            return False
        if len(near) > 1 and near[0][1] - near[1][1] < float(weights["route_margin"]):
            return False
        name, score, example = near[0]
        # a route with no ways of its own is the answer of a question with one answer (answers.yaml)
        ways = self.routes[name].ways or (Way(name, "about.answer_of_route", 0.0),)
        for way in sorted(ways, key=lambda w: w.precedence):
            if any(holds(st.q, c) for c in way.unless):
                continue
            if _kept_as_weak(st, way, lambda: bool(st.listed) and not (
                    "stated" in self.routes[st.plan.route].checks and unstated(st))):  # fmt: skip
                if st.trace is not None:
                    st.trace.add("meaning", f"route {name} chosen by meaning: nearest its question “{example}” "
                                 f"({score:.2f}); {way.step} answers, kept as weak", route=name, example=example,
                                 cosine=round(score, 3), branch=way.step)  # fmt: skip
                return True
        return False

    @staticmethod
    def _bridge(st: State, undone: list[Way]) -> bool:
        """Meaning where words fail: when no way answered, the first answer undone only because the question's
        word is not the answer's own, drafted again and kept as weak when the meaning model bridges the two
        (State.bridged), or when it quotes the section of the kind the question asks for of the thing it names
        (State.by_section): it may not say what was asked. Nothing is embedded for a question some way answered."""
        for way in undone:
            if _kept_as_weak(st, way, lambda: st.by_section() or st.bridged()):
                if st.trace is not None:
                    st.trace.add("branch", f"{way.step} answers (route {st.plan.route}): kept as weak, its words "
                                 "bridged to the question's by meaning", branch=way.step, answered=True, kept=True,
                                 route=st.plan.route, declaration=way.route, precedence=way.precedence)  # fmt: skip
                return True
        return False


def _kept_as_weak(st: State, way: Way, keep: Callable[[], bool]) -> bool:
    """Run the way's step as a last resort: kept, weak and never exact, when it answers as its route and `keep`
    holds of what it drafted; else forgotten."""
    mark = st.checkpoint()
    st.way = way
    if STEPS[way.step](st) and st.plan.route in way.routes and keep():
        st.near, st.exact = True, False
        return True
    st.rollback(mark)
    return False


def _final(st: State, way: Way, route: Route) -> None:
    assert st.trace is not None
    if route.refuses:
        st.trace.add("branch", f"declined before any branch (route {route.name}): {st.reason}", route=route.name,
                     reason=st.reason, branch=way.step, declaration=way.route)  # fmt: skip
    else:
        st.trace.add("branch", f"{way.step} answers (route {route.name}): kept, nothing to check", route=route.name,
                     branch=way.step, declaration=way.route)  # fmt: skip
