"""`eval --holdout --fallback`: the held-out set with the model fallback on, against whatever provider the
LLM_* settings name (the simulated one: `python -m tests.simllm`). Counts the weak/none plans offered to the
model, how many came back verified, and how many were rejected or failed, and why."""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from service.engine.model import Plan
from service.engine.plan import Planner
from service.fallback import run
from service.fallback.tools import pool_runner
from service.model_settings import Settings
from service.sparql.pool import Pool


@dataclass
class Tally:
    offered: int = 0
    verified: int = 0
    rejected_n: int = 0
    failed_n: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    ms: list[float] = field(default_factory=list)
    rounds: Counter[int] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        return {
            "offered": self.offered,
            "verified": self.verified,
            "rejected": self.rejected_n,
            "failed": self.failed_n,
            "rejected_why": dict(self.rejected.most_common()),
            "failed_why": dict(self.failed.most_common()),
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "ms_p50": round(statistics.median(self.ms), 1) if self.ms else 0.0,
            "ms_max": round(max(self.ms), 1) if self.ms else 0.0,
        }


def _kind(reason: str) -> str:
    """A rejection's kind, without the particular name or number ("the number 347 is not ...": "number")."""
    for word in ("phone", "birth", "number", "duration", "technical term", "acronym", "name", "negation", "word",
                 "valid source", "did not know", "tools", "provider"):  # fmt: skip
        if word in reason:
            return word
    return reason[:40]


class Fallback:
    """A `serve` hook for run_suite: one event loop and one SPARQL worker pool for the whole suite."""

    def __init__(self, planner: Planner, pool: Pool, settings: Settings, *, owns_pool: bool = True) -> None:
        self.planner, self.settings, self.tally, self.pool = planner, settings, Tally(), pool
        self.owns_pool = owns_pool
        self.loop = asyncio.new_event_loop()
        self.runner = pool_runner(pool)

    def __call__(self, plan: Plan) -> Plan:
        if not run.eligible(plan):
            return plan
        self.tally.offered += 1
        out = self.loop.run_until_complete(run.answer(plan, self.planner.engine, self.settings, self.runner))
        self.tally.ms.append(out.ms)
        self.tally.rounds[out.rounds] += 1
        if out.status == "verified":
            self.tally.verified += 1
        elif out.status == "failed":
            self.tally.failed_n += 1
            self.tally.failed.update({_kind(r) for r in out.reasons})
        else:  # a rejection may have several reasons: each kind is counted once per answer
            self.tally.rejected_n += 1
            self.tally.rejected.update({_kind(r) for r in out.reasons})
        return out.plan

    def close(self) -> None:
        self.loop.close()
        if self.owns_pool:
            self.pool.close()
