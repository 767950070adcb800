"""The two tools a model may call: `search_wiki(query)` (five passages, BM25) and `sparql(query)` (through
the read-only worker pool of /sparql, with its limits and refusals; never in this process). What a tool
returns joins the evidence with new S-numbers; the text sent back to the model is capped."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import quote

from service.engine.engine import Engine
from service.fallback.evidence import Evidence, add_passage, best_passages
from service.queries import QueryRun
from service.sparql import pool as workers
from service.sparql_safety import Refused, check

MAX_QUERY = 4000  # characters of a model's SPARQL
MAX_ARG = 200  # characters of a search
ROW_CAP = 50
MAX_RESULT = 3000  # characters of a result kept as evidence
ACCEPT = "text/tab-separated-values, application/n-triples;q=0.9"


@dataclass
class SparqlResult:
    """What the pool said: 200 and a body, or an error status and message (a refusal, a limit)."""

    status: int
    text: str
    rows: int = 0
    truncated: bool = False


SparqlRunner = Callable[[str], Awaitable[SparqlResult]]


def schemas() -> list[dict[str, Any]]:
    doc: list[dict[str, Any]] = json.loads(resources.files("service.fallback").joinpath("tools.json").read_text())
    return doc


def pool_runner(pool: workers.Pool, client: str = "eval") -> SparqlRunner:
    """The pool directly (for `eval`): the same refusals as /sparql (checked first), the pool's limits."""

    async def run(query: str) -> SparqlResult:
        try:
            check(query)
        except Refused as e:
            return SparqlResult(e.status, str(e))
        try:
            outcome = await pool.run(workers.Request(query=query, accept=ACCEPT, row_cap=ROW_CAP,
                                                     max_bytes=64 * 1024), client)  # fmt: skip
        except workers.QueryTimeout:
            return SparqlResult(503, "the query ran past the time limit and was stopped")
        except workers.Busy:
            return SparqlResult(503, "every SPARQL worker is busy")
        return from_outcome(outcome)

    return run


def from_outcome(outcome: workers.Outcome) -> SparqlResult:
    if outcome.status != 200:
        return SparqlResult(outcome.status, outcome.message)
    return SparqlResult(200, outcome.body.decode("utf-8", "replace"), outcome.rows, outcome.truncated)


@dataclass
class Toolbox:
    engine: Engine
    evidence: Evidence
    sparql_runner: SparqlRunner
    runs: list[QueryRun]  # the SPARQL the model ran, shown like any other

    async def call(self, name: str, raw_arguments: object) -> str:
        """Run one tool call; the text to send back (new evidence, or why nothing was run)."""
        try:
            args = json.loads(raw_arguments) if isinstance(raw_arguments, str) else raw_arguments
        except json.JSONDecodeError:
            return "error: the arguments are not JSON"
        query = args.get("query") if isinstance(args, dict) else None
        if not isinstance(query, str) or not query.strip():
            return 'error: give {"query": "..."}'
        if name == "search_wiki":
            return self.search(query[:MAX_ARG])
        if name == "sparql":
            if len(query) > MAX_QUERY:
                return f"error: a query may have at most {MAX_QUERY} characters"
            return await self.sparql(query)
        return f"error: no tool named {name[:40]!r}"

    def search(self, query: str) -> str:
        added = [item for p in best_passages(self.engine, query, 5) if (item := add_passage(self.evidence, p))]
        if not added:
            return "no new passages"
        return "\n\n".join(i.shown() for i in added)

    async def sparql(self, query: str) -> str:
        started = time.perf_counter()
        result = await self.sparql_runner(query)
        ms = (time.perf_counter() - started) * 1000
        if result.status != 200:
            return f"error {result.status}: {result.text[:300]}"
        rows: list[dict[str, Any]] = [{} for _ in range(result.rows)]
        self.runs.append(QueryRun("model", "(asked by the model)", query, [], rows, ms, result.truncated))
        text = result.text[:MAX_RESULT]
        url = "/console?query=" + quote(query, safe="")
        item = self.evidence.add("graph", f"SPARQL result ({result.rows} rows)", url, text, f"sparql:{query}")
        if item is None:
            return "the evidence is full (or this query was run already)"
        return f"[{item.id}] graph · SPARQL result ({result.rows} rows{', cut' if result.truncated else ''})\n" + text
