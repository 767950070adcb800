"""`python -m service bench build|queries`: the project's own measurements, printed as Markdown tables."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from service.kb import KB
from service.kb.build import build
from service.kb.sources import Sources
from service.queries import example_values


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


def bench_queries(kb_path: Path, runs: int = 200, out: Callable[[str], None] = print) -> None:
    """Each stored query with its example parameters, on the on-disk store and on an in-memory copy."""
    disk = KB.open(kb_path)
    memory = KB.open(kb_path, in_memory=True)
    examples = disk.lexicon.extra.get("query-examples") or {}
    out(f"{runs} runs each after 20 warm-up runs; times in ms (median / p95); rows as returned.\n")
    out("| query | rows | in memory p50 | p95 | on disk p50 | p95 |")
    out("|---|---|---|---|---|---|")
    for name in sorted(disk.catalog):
        values = example_values(disk.catalog[name], examples.get(name) or {}, disk.site.entity_base)
        cells = []
        rows = 0
        for kb in (memory, disk):
            for _ in range(20):
                kb.catalog.run(name, values)
            times = []
            for _ in range(runs):
                run = kb.catalog.run(name, values)
                times.append(run.ms)
                rows = len(run.rows)
            cells.append(f"{statistics.median(times):.2f} | {percentile(times, 0.95):.2f}")
        out(f"| {name} | {rows} | {cells[0]} | {cells[1]} |")
