"""The generic matcher: every route declaration's ways (service/language/routes/*.yaml), tried in precedence order.

A way whose conditions hold for the analysed question runs its step; a step that answers sets the route it answers
as. The answer is kept when it does what the route's `checks` ask (it speaks to what the question asks beyond its
names; it states a fact of the kind asked, a price in money, an amount in its unit), else it is undone and the
next way is tried. A route with no checks (a refusal, the choice between ambiguous names) ends planning at once.
When no way answers, the route is `empty`.
"""

from __future__ import annotations

from collections.abc import Callable

from service.engine.conditions import applies
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
                st.near = way.hedged
                if tr is not None:
                    how = "kept as weak: the best passage of the work named, though it does not use the question's " \
                          "words" if way.hedged else "kept"  # fmt: skip
                    tr.add("branch", f"{way.step} answers (route {st.plan.route}): {how}", branch=way.step,
                           answered=True, kept=True, route=st.plan.route, declaration=way.route,
                           precedence=way.precedence)  # fmt: skip
                return
            if tr is not None:
                what = [f"a stated {kind}" for kind in missed] or list(st.q.ask)
                tr.add("branch", f"{way.step} answered (route {st.plan.route}) but is undone: the answer does not "
                       f"speak to “{' '.join(what)}”", branch=way.step, answered=True, kept=False,
                       route=st.plan.route, unaddressed=what, declaration=way.route,
                       precedence=way.precedence)  # fmt: skip
            st.rollback(mark)
        st.plan.route = "empty"
        if tr is not None:
            trace_passed(tr, passed, len(tr))
            tr.add("branch", "no branch answered", route="empty")


def _final(st: State, way: Way, route: Route) -> None:
    assert st.trace is not None
    if route.refuses:
        st.trace.add("branch", f"declined before any branch (route {route.name}): {st.reason}", route=route.name,
                     reason=st.reason, branch=way.step, declaration=way.route)  # fmt: skip
    else:
        st.trace.add("branch", f"{way.step} answers (route {route.name}): kept, nothing to check", route=route.name,
                     branch=way.step, declaration=way.route)  # fmt: skip
