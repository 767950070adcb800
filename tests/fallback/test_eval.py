"""`eval --holdout --fallback` against the simulated model: the weak/none plans offered, verified, rejected."""

from __future__ import annotations

from service.engine import Planner
from service.evaluate import run_suite, summary
from service.fallback.evaluate import Fallback
from service.sparql.pool import Pool
from tests.conftest import ROOT
from tests.fallback.conftest import settings
from tests.simllm import CYCLE, Sim


def test_the_holdout_with_the_fallback_counts_verified_and_rejected(planner: Planner, sparql_pool: Pool,
                                                                   model: Sim) -> None:  # fmt: skip
    model.default = CYCLE
    hook = Fallback(planner, sparql_pool, settings(model), owns_pool=False)
    try:
        results, _ = run_suite(planner, ROOT / "tests" / "search-holdout.json", holdout=True, serve=hook)
        # a second set, so that the simulated model's every behaviour is offered at least once, however many of
        # the first set's plans the engine now answers without it
        run_suite(planner, ROOT / "tests" / "search-holdout-10.json", holdout=True, serve=hook)
    finally:
        hook.close()
        model.default = []
    tally = hook.tally.to_json()
    assert tally["offered"] > 0 and tally["verified"] > 0 and tally["rejected"] > 0
    assert tally["verified"] + tally["rejected"] + tally["failed"] == tally["offered"]
    assert {"number", "name", "valid source", "phone"} <= set(tally["rejected_why"])
    assert summary(results)["cases"] == 104
