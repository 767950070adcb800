"""`python -m service bench build|queries`: the project's own measurements, printed as Markdown tables."""

from __future__ import annotations

import gc
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from service import snapshot
from service.engine.plan import Planner
from service.engine.preview import preview
from service.examples import Examples
from service.kb import KB
from service.kb.build import build
from service.kb.sources import Sources
from service.web.memory import FREEZE_EVERY


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_build(sources: Sources, out: Callable[[str], None] = print) -> None:
    """A full build (reasoning included) and a wiki-only rebuild, each into a fresh directory."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["CACHE_DIR"] = str(root / "cache")  # an empty cache: the full build reasons
        full = _timed(lambda: build(sources, root / "kb", log=lambda _m: None))
        wiki = root / "wiki"
        shutil.copytree(sources.wiki, wiki)
        first = sorted(wiki.rglob("*.md"))[0]
        first.write_text(first.read_text(encoding="utf-8") + "\nOne more paragraph for the benchmark.\n")
        edited = Sources(sources.ontology, sources.data, wiki, sources.queries)
        wiki_only = _timed(lambda: build(edited, root / "kb", log=lambda _m: None))
        del os.environ["CACHE_DIR"]
    out("| build | seconds |")
    out("|---|---|")
    out(f"| full (parse, SHACL, OWL 2 RL reasoning, store, index) | {full:.1f} |")
    out(f"| wiki-only change (reasoning read from the cache) | {wiki_only:.1f} |")


def bench_queries(kb_path: Path, runs: int = 200, out: Callable[[str], None] = print,
                  remote: KB | None = None) -> None:  # fmt: skip
    """Each stored query with its example parameters, on an in-memory copy of the store, on the on-disk
    store, and on a remote store when one is given (the same build published to a SPARQL server)."""
    disk = KB.open(kb_path)
    memory = KB.open(kb_path, in_memory=True)
    columns = [("in memory", memory), ("on disk", disk)] + ([("remote", remote)] if remote is not None else [])
    examples = disk.lexicon.extra.get("query-examples") or {}
    person = disk.site.entity_base + disk.site.person
    resolver = Examples(memory.catalog, person, memory.lexicon.extra["routes"]["routes"])
    out(f"{runs} runs each after {min(20, runs)} warm-up runs; times in ms (median / p95); rows as returned.\n")
    out("| query | rows | " + " | ".join(f"{label} p50 | p95" for label, _ in columns) + " |")
    out("|---|---|" + "---|---|" * len(columns))
    for name in sorted(disk.catalog):
        values = resolver.values(disk.catalog[name], examples.get(name) or {}, disk.site.entity_base)
        cells = []
        rows = 0
        for _, kb in columns:
            for _ in range(min(20, runs)):
                kb.catalog.run(name, values)
            times = []
            for _ in range(runs):
                run = kb.catalog.run(name, values)
                times.append(run.ms)
                rows = len(run.rows)
            cells.append(f"{statistics.median(times):.2f} | {percentile(times, 0.95):.2f}")
        out(f"| {name} | {rows} | {' | '.join(cells)} |")


def answer_queries(planner: Planner, today: date = date(2026, 11, 30)) -> list[str]:
    """Every distinct SPARQL text the plans of the snapshot's generated questions run, in the order first run: the
    queries a visitor sends to /sparql from an answer's "run this query"."""
    seen: dict[str, None] = {}
    for q in snapshot.questions(planner):
        for run in planner.plan(q, today=today).sparql:
            seen.setdefault(run.query, None)
    return list(seen)


def bench_plan(planner: Planner, rounds: int = 3, out: Callable[[str], None] = print, every: int = 1) -> None:
    """plan() over every generated snapshot question (or every `every`-th), after one warm-up round; times from
    plan.timing_ms."""
    today = date(2026, 11, 30)
    qs = snapshot.questions(planner)[:: max(1, every)]
    for q in qs:
        planner.plan(q, today=today)
    # as a serving worker does (service/web/app.py, memory.py): the KB and caches frozen out of the collector,
    # and young cycles collected every FREEZE_EVERY plans, so no full collection walks them mid-plan
    gc.collect()
    gc.freeze()
    times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for n, q in enumerate(qs, 1):
            plan = planner.plan(q, today=today)
            times.setdefault(plan.route, []).append(plan.timing_ms)
            if n % FREEZE_EVERY == 0:
                gc.collect(1)
                gc.freeze()
    gc.unfreeze()
    all_plans = [t for ts in times.values() for t in ts]
    out(f"{len(qs)} questions x {rounds} rounds after a warm-up round, the collector as in a serving worker; "
        "ms per plan()\n")
    out("| route | plans | p50 | p95 |")
    out("|---|---|---|---|")
    for route, ts in sorted(times.items(), key=lambda kv: -len(kv[1])):
        out(f"| {route} | {len(ts)} | {statistics.median(ts):.2f} | {percentile(ts, 0.95):.2f} |")
    out(f"| **all** | {len(all_plans)} | {statistics.median(all_plans):.2f} | {percentile(all_plans, 0.95):.2f} |")


def bench_preview(planner: Planner, out: Callable[[str], None] = print) -> None:
    """preview() in process over every third-character prefix of the snapshot questions, as typed."""
    typed = [q[:n] for q in snapshot.questions(planner)[:400] for n in range(3, len(q) + 1, 3)]
    for text in typed:
        preview(planner, text)
    times = []
    for text in typed:
        start = time.perf_counter()
        preview(planner, text)
        times.append((time.perf_counter() - start) * 1000)
    out(f"preview() in process over {len(typed)} typed prefixes: p50 {statistics.median(times):.2f} ms, "
        f"p95 {percentile(times, 0.95):.2f} ms, p99 {percentile(times, 0.99):.2f} ms")  # fmt: skip
