"""Plans for the web: planning is a pure function of (KB, question, previous question, today), so a small LRU
cache per worker serves repeated questions without planning them again ($PLAN_CACHE entries, 0 turns it off)."""

from __future__ import annotations

from collections import OrderedDict
from datetime import date

from starlette.requests import Request

from service import engine
from service.config import setting
from service.engine.model import Plan
from service.engine.plan import Planner


class PlanCache:
    def __init__(self, planner: Planner, size: int) -> None:
        self.planner = planner
        self.size = size
        self._plans: OrderedDict[tuple[str, str | None, date], Plan] = OrderedDict()
        self.hits = self.misses = 0

    def clear(self) -> None:
        self._plans.clear()

    def plan(self, question: str, previous: str | None, today: date) -> Plan:
        key = (question, previous, today)
        found = self._plans.get(key)
        if found is not None:
            self._plans.move_to_end(key)
            self.hits += 1
            return found
        self.misses += 1
        # the previous question was most likely just asked, and its plan is here
        before = self.plan(previous, None, today) if previous and previous.strip() else None
        plan = self.planner.plan(question, previous=before, today=today)
        if self.size:
            self._plans[key] = plan
            if len(self._plans) > self.size:
                self._plans.popitem(last=False)
        return plan


    def traced(self, question: str, previous: str | None, today: date) -> Plan:
        """The plan with its trace: planned afresh (a traced plan is never cached), the same plan otherwise."""
        before = self.plan(previous, None, today) if previous and previous.strip() else None
        return self.planner.plan(question, previous=before, today=today, trace=True)


def plan_for(request: Request, question: str, previous: str | None, *, trace: bool = False) -> Plan:
    cache: PlanCache = request.app.state.plans
    if trace:
        return cache.traced(question, previous, engine.today())
    return cache.plan(question, previous, engine.today())


def new_cache(planner: Planner) -> PlanCache:
    planner.engine.kb.catalog.keep_runs(int(setting("QUERY_CACHE")))
    return PlanCache(planner, int(setting("PLAN_CACHE")))
