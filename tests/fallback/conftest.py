"""The simulated model server for the fallback's tests, and a SPARQL worker pool over the demo KB."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from service.engine import Planner
from service.engine.model import Plan
from service.fallback import run
from service.fallback.tools import SparqlResult, SparqlRunner, pool_runner
from service.kb.layout import STORE_DIR
from service.model_settings import Settings
from service.sparql.pool import Limits, Pool
from service.web.sparql import prefixes
from tests.simllm import Sim, simulated

TODAY = date(2026, 11, 30)
WEAK = "how big was the team she led at tessellate"  # the engine finds nothing: confidence none, route empty


@pytest.fixture(scope="session")
def sim() -> Iterator[Sim]:
    with simulated() as s:
        yield s


@pytest.fixture
def model(sim: Sim) -> Iterator[Sim]:
    sim.reset()
    run.COOLING.reset()
    yield sim
    sim.reset()
    run.COOLING.reset()


def settings(sim: Sim, **changes: Any) -> Settings:
    base = Settings(llm_enabled=True, base_url=sim.url, api_key="sk-test", model="sim-model", timeout=2.0,
                    embeddings_enabled=False, embeddings_model="")  # fmt: skip
    return Settings(**{**vars(base), **changes})


@pytest.fixture(scope="module")
def sparql_pool(demo_kb_path: Path) -> Iterator[Pool]:
    from service.kb import KB  # noqa: PLC0415

    kb = KB.open(demo_kb_path)
    pool = Pool(str(kb.path / STORE_DIR), prefixes(kb.site.entity_base), Limits(size=1, timeout=3, sandbox=False))
    yield pool
    pool.close()


@pytest.fixture
def ask(planner: Planner, sparql_pool: Pool, model: Sim) -> Any:
    """ask(question, *replies, **settings changes) -> run.Outcome, with the model scripted."""

    def go(question: str, *replies: dict[str, Any], runner: SparqlRunner | None = None, previous: str | None = None,
           **changes: Any) -> run.Outcome:  # fmt: skip
        model.script(*replies)
        plan = planner.plan(question, previous=previous, today=TODAY)
        return asyncio.run(run.answer(plan, planner.engine, settings(model, **changes),
                                      runner or pool_runner(sparql_pool)))  # fmt: skip

    return go


def unchanged(outcome: run.Outcome, planner: Planner, question: str) -> bool:
    plan: Plan = planner.plan(question, today=TODAY)
    mine, theirs = outcome.plan.to_json(), plan.to_json()
    mine.pop("timing_ms"), theirs.pop("timing_ms")
    return mine == theirs and "generated" not in mine


async def refuse_all(query: str) -> SparqlResult:
    return SparqlResult(403, "refused")
