"""`build`: check every input, reason, load the store, index the passages, write the manifest, then switch.

Atomic: everything is written to a new directory beside the KB (`<kb>.builds/<stamp>`), and the KB path, a
symlink, is switched to it only when every step succeeded. A failed build leaves the serving KB untouched.
"""

from __future__ import annotations

import os
import resource
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import rdflib

from service.config import path_setting, setting
from service.errors import BuildFailed, ProblemsFound
from service.kb import publish
from service.kb.check import Checked, check_inputs
from service.kb.dump import write_dumps
from service.kb.holds import Hold, try_exclusive
from service.kb.index import write_index
from service.kb.keys import dated_spans, list_ranks, name_keys
from service.kb.layout import DUMP_DIR, STORE_DIR
from service.kb.load import write_store
from service.kb.manifest import FORMAT, write_manifest
from service.kb.rdf import PF, graph_to_ntriples
from service.kb.reason import infer_cached
from service.kb.remote import shown
from service.kb.sources import Sources, digest_of

Log = Callable[[str], None]
INDEX_DIR = "index"
COPIED = ("lexicon", "queries")


class _Steps:
    def __init__(self, log: Log) -> None:
        self.log = log
        self.timings: dict[str, float] = {}
        self.memory_mb: dict[str, float] = {}  # the process's peak resident memory when each step ended

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        self.log(f"  {name} ...")
        yield
        took = time.perf_counter() - start
        self.timings[name] = round(took, 3)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
        self.memory_mb[name] = round(peak, 1)
        self.log(f"  {name}: {took:.2f} s, peak memory {peak:.0f} MB")


def builds_dir(kb: Path) -> Path:
    return kb.parent / f"{kb.name}.builds"


def build(sources: Sources, kb: Path, log: Log = print) -> dict[str, Any]:
    """Build the KB for `sources` at `kb`; returns the manifest. Raises ProblemsFound on bad input."""
    steps = _Steps(log)
    started = time.perf_counter()
    with steps.step("check inputs"):
        checked = check_inputs(sources, lambda m: log(f"    {m}"))
    if not checked.ok:
        raise ProblemsFound(checked.problems)
    assert checked.site is not None

    root = builds_dir(kb)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f") + f"-{os.getpid()}"
    stage = root / stamp
    stage.mkdir(parents=True)
    writing = Hold(stage, exclusive=True)  # pruning leaves a build alone while it is written
    target = publish.Target.from_settings()
    staged: publish.Staged | None = None
    try:
        cache = path_setting("CACHE_DIR") if setting("CACHE_DIR") else kb.parent / "cache"
        manifest, staged = _write(checked, stage, cache, steps, target, stamp)
        manifest["timings_s"] = steps.timings | {"total": round(time.perf_counter() - started, 3)}
        manifest["memory_mb"] = steps.memory_mb
        write_manifest(stage, manifest)
        if target is not None and staged is not None:
            with steps.step("switch the remote store"):
                publish.switch(target, staged)
            staged = None
        _switch(kb, stage)
    except BaseException:
        writing.release()
        shutil.rmtree(stage, ignore_errors=True)
        if target is not None and staged is not None:
            publish.drop(target, staged)
        raise
    writing.release()
    _prune(root, keep=int(setting("KEEP_BUILDS")), current=stage)
    log(f"  built {kb} in {time.perf_counter() - started:.2f} s")
    return manifest


def build_digest(digests: dict[str, dict[str, str]]) -> str:
    """One digest for every input of a build: the same inputs give the same digest on any machine, so replicas
    that built (or were copied) the same KB can tell they serve the same build as the store."""
    flat = {f"{kind}/{name}": d for kind, files in digests.items() for name, d in files.items()}
    return digest_of(flat | {"format": str(FORMAT)})[:32]


def _write(checked: Checked, stage: Path, cache: Path, steps: _Steps, target: publish.Target | None,
           stamp: str) -> tuple[dict[str, Any], publish.Staged | None]:  # fmt: skip
    sources = checked.sources
    digests = sources.digests()
    digest = build_digest(digests)
    with steps.step("reason (OWL 2 RL)"):
        key = digest_of(digests["ontology"] | {f"data/{k}": v for k, v in digests["data"].items()})
        inferred, cached = infer_cached(checked.ontology.graph, checked.data.graph, cache, key[:32])
        steps.log(f"    {len(inferred)} inferred triples{' (cached)' if cached else ''}")
        inferred += name_keys(checked.data.graph, inferred)  # the build's own additions, beside the reasoner's
        inferred += list_ranks(checked.ontology.graph, checked.data.graph, inferred)
        inferred += dated_spans(checked.ontology.graph, checked.data.graph, inferred)
    staged = None
    if target is None:
        with steps.step("load store"):
            total = write_store(stage / STORE_DIR, sources.ontology_files(), sources.data_files(), inferred)
    else:
        with steps.step(f"upload to the remote store {shown(target.gsp_url)}"):
            staged = publish.stage(target, stamp.replace(".", "-"), sources.ontology_files(), sources.data_files(),
                                   graph_to_ntriples(inferred), digest)  # fmt: skip
            total = staged.triples
    with steps.step("write the dump"):
        graphs = {"ontology": checked.ontology.graph, "stated": checked.data.graph, "inferred": inferred}
        assert checked.site is not None
        dumps = write_dumps(stage / DUMP_DIR, graphs, checked.site.entity_base)
    with steps.step("index passages"):
        passages = write_index(checked.articles, stage / INDEX_DIR)
    if setting("EMBEDDINGS_ENABLED").strip().lower() in ("1", "true", "on", "yes"):  # the meaning model, on by default
        from service.kb.vectors import embed_passages  # noqa: PLC0415

        with steps.step("embed passages"):
            embed_passages(checked.articles, stage, steps.log)
    with steps.step("copy lexicon and queries"):
        for name, files in (("lexicon", sources.lexicon_files()), ("queries", sources.query_files())):
            (stage / name).mkdir()
            for f in files:
                to = stage / name / (f"routes/{f.name}" if f.parent.name == "routes" else f.name)
                to.parent.mkdir(exist_ok=True)
                shutil.copy2(f, to)
        shutil.copy2(sources.data / "site.yaml", stage / "site.yaml")
        _write_articles(checked, stage / "wiki")
    assert checked.site is not None
    return {
        "format": FORMAT,
        "digest": digest,
        "store": "embedded" if target is None else "remote",
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ontology_version": _ontology_version(checked.ontology.graph),
        "site": checked.site.to_json(),
        "sources": {k: str(v) for k, v in vars(sources).items()},
        "inputs": digests,
        "counts": _counts(checked, inferred, total, passages),
        "dumps": dumps,
    }, staged


def _write_articles(checked: Checked, directory: Path) -> None:
    """The articles' Markdown, by name, so pages render from the KB alone."""
    directory.mkdir()
    for a in checked.articles:
        (directory / f"{a.name}.md").write_text(f"# {a.title}\n\n{a.markdown}", encoding="utf-8")


def _ontology_version(graph: rdflib.Graph) -> str:
    for _, _, v in graph.triples((None, rdflib.OWL.versionInfo, None)):
        return str(v)
    return "unversioned"


def _counts(checked: Checked, inferred: rdflib.Graph, total: int, passages: int) -> dict[str, Any]:
    assert checked.site is not None
    base = checked.site.entity_base
    data = checked.data.graph
    entities = {s for s in data.subjects(rdflib.RDF.type, None) if str(s).startswith(base)}
    per_class = Counter(str(o).rsplit("#", 1)[-1] for s, o in data.subject_objects(rdflib.RDF.type) if s in entities)
    tier = rdflib.URIRef(PF + "tier")
    tiers = Counter(int(str(o)) for o in data.objects(None, tier))
    months = list(data.objects(None, rdflib.URIRef(PF + "activeMonth")))
    graphs = (checked.ontology.graph, data, inferred)
    typed: dict[str, set[Any]] = {}
    for g in graphs:
        for s, o in g.subject_objects(rdflib.RDF.type):
            typed.setdefault(str(o), set()).add(s)
    per_property = Counter(str(p) for g in graphs for p in g.predicates())
    years = sorted({str(m)[:4] for m in months})
    return {
        "triples": {
            "ontology": len(checked.ontology.graph),
            "stated": len(data),
            "inferred": len(inferred),
            "store": total,
        },
        "entities": len(entities),
        "entities_per_class": dict(sorted(per_class.items())),
        # VoID's partitions of the whole store: typed resources per class, triples per property
        "class_partitions": {c: len(members) for c, members in sorted(typed.items())},
        "property_partitions": dict(sorted(per_property.items())),
        "works_per_tier": {str(k): v for k, v in sorted(tiers.items())},
        "activity_months": len(months),
        "activity_years": f"{years[0]}-{years[-1]}" if years else "",
        "articles": len(checked.articles),
        "passages": passages,
        "lexicon": checked.lexicon.counts(),
        "queries": len(checked.catalog),
    }


def _switch(kb: Path, stage: Path) -> None:
    """Point `kb` at `stage` with one atomic rename of a symlink."""
    kb.parent.mkdir(parents=True, exist_ok=True)
    if kb.exists() and not kb.is_symlink():
        if not (kb / "manifest.json").exists():
            raise BuildFailed(f"{kb} exists and is not a knowledge base; refusing to replace it")
        kb.rename(builds_dir(kb) / f"moved-{stage.name}")
    link = kb.parent / f".{kb.name}.switch-{os.getpid()}"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(os.path.relpath(stage, kb.parent))
    os.replace(link, kb)


def _prune(root: Path, keep: int, current: Path) -> None:
    """Remove the folders of killed builds, and finished builds beyond the `keep` newest; never one that a
    build writes or a server serves (service/kb/holds.py), and never the current one."""
    finished = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p != current):
        hold = try_exclusive(folder)
        if hold is None:
            continue  # written or served right now
        if not (folder / "manifest.json").exists():  # a build that was killed: garbage, whatever its age
            shutil.rmtree(folder, ignore_errors=True)
            hold.release()
            continue
        finished.append((folder, hold))
    for n, (folder, hold) in enumerate(reversed(finished)):  # newest first
        if n >= keep:
            shutil.rmtree(folder, ignore_errors=True)
        hold.release()
