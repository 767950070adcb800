"""`python -m service COMMAND`: a thin layer over the library. Exit 0 on success, 1 on problems, 2 on usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from service import engine, snapshot
from service.bench_http import bench_http, bench_log, bench_sparql
from service.config import ROOT, setting
from service.errors import FolioError, ProblemsFound
from service.evaluate import markdown, run_all, run_suite, summary
from service.examples import Examples
from service.kb import KB, default_kb_path
from service.kb.manifest import changes, is_current, read_manifest
from service.kb.sources import Sources
from service.misses import default_since, report, text
from service.questionlog import check_settings as check_log_settings
from service.questionlog import database_url
from service.questionlog.store import open_store
from service.scaffold import init_portfolio
from service.web.server import serve


def _sources(args: argparse.Namespace) -> Sources:
    return Sources.from_settings(ontology=args.ontology, data=args.data, wiki=args.wiki, queries=args.queries)


def _kb_path(args: argparse.Namespace) -> Path:
    return Path(args.kb) if args.kb else default_kb_path()


BUILD_ONLY = frozenset({"rdflib", "owlrl", "reasonable", "pyshacl"})  # pyproject.toml's `build` extra


@contextmanager
def _build_packages() -> Iterator[None]:
    """Around the imports of the build's code: a serving install lacks its packages, and says what to install."""
    try:
        yield
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in BUILD_ONLY:
            raise
        raise FolioError(f"building and checking need the build's packages ({e.name} is not installed): "
                         "pip install 'folio-ask[build]'") from None  # fmt: skip


def cmd_build(args: argparse.Namespace) -> int:
    sources, kb = _sources(args), _kb_path(args)
    if args.if_stale and is_current(kb, sources):
        print(f"{kb} is up to date")
        _print_counts(read_manifest(kb))
        return 0
    with _build_packages():
        from service.kb.build import build  # noqa: PLC0415  # build-only packages (BUILD_ONLY)
    print(f"building {kb}")
    manifest = build(sources, kb, log=print)
    _print_counts(manifest)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    with _build_packages():
        from service.kb.check import check_inputs  # noqa: PLC0415  # build-only packages (BUILD_ONLY)
    sources, kb = _sources(args), _kb_path(args)
    checked = check_inputs(sources)
    problems = [str(p) for p in checked.problems]
    built = (kb / "manifest.json").exists()
    if built:
        problems += [f"{line} (run `python -m service build`)" for line in changes(read_manifest(kb), sources)]
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    if not built:  # a new portfolio: validating before the first build is the order `init` gives
        print(f"ok: inputs are valid; no knowledge base at {kb} yet (`python -m service build` makes it)")
        return 0
    print(f"ok: inputs are valid and {kb} is up to date")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    kb = KB.open(_kb_path(args))
    if args.json:
        print(json.dumps(kb.manifest, indent=2, sort_keys=True))
    else:
        print(f"{kb.site.name}: knowledge base at {kb.path}")
        print(f"  built {kb.manifest['built_at']}, ontology version {kb.manifest['ontology_version']}")
        _print_counts(kb.manifest)
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    planner = engine.load(KB.open(_kb_path(args), in_memory=True))
    plan = planner.plan(args.question, previous=args.previous, today=engine.today(), trace=args.trace)
    if args.json:
        print(json.dumps(plan.to_json(), indent=2, ensure_ascii=False))
        return 0
    print(
        f"{plan.intent} -> {plan.route}  [{plan.confidence.level} {plan.confidence.score}% {plan.confidence.label}]"
        f"  {plan.timing_ms:.1f} ms"
    )
    if plan.corrections:
        print("corrected: " + ", ".join(f"{a} -> {b}" for a, b in plan.corrections))
    if plan.normalized != plan.question:
        print(f"read as: {plan.normalized}")
    print()
    print(plan.answer.text if plan.answer else (plan.fallback or "(no answer)"))
    if plan.answer:
        for s in plan.answer.sources:
            print(f"  {s.id} [{s.kind}] {s.title}")
    if plan.results:
        print("\nresults: " + "; ".join(f"{r.label} ({r.type}, tier {r.tier})" for r in plan.results[:6]))
    for run in plan.sparql:
        print(f"  sparql: {run.name} ({len(run.rows)} rows, {run.ms:.2f} ms)")
    if plan.trace is not None:
        print("\nhow this answer was found:")
        for n, step in enumerate(plan.trace, 1):
            print(f"  {n:>2}. {step.stage:<10} {step.text}")
    return 0


def _planner(args: argparse.Namespace) -> engine.Planner:
    return engine.load(KB.open(_kb_path(args), in_memory=True))


def cmd_serve(args: argparse.Namespace) -> int:
    # the workers open the KB from here: the link, not the build, so a newer build is picked up
    os.environ["KB_DIR"] = str(_kb_path(args).absolute())
    check_log_settings()
    workers = args.workers if args.workers is not None else int(setting("WORKERS"))
    serve(args.host, args.port, workers, args.access_log)
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    dest = Path(args.dir)
    profession = args.profession
    if not profession and sys.stdin.isatty():
        profession = input(f"What does {args.name} do? ({args.name} is ...) ").strip()
    if not profession:
        print("init needs what the person does: --profession 'a landscape architect'", file=sys.stderr)
        return 2
    written = init_portfolio(dest, args.name, profession, args.email, args.pronoun)
    for path in written:
        print(f"  wrote {path}")
    data, wiki = dest / "data", dest / "wiki"
    print(f"\nA portfolio for {args.name} is in {dest}. Next:")
    print(f"  python -m service validate --data {data} --wiki {wiki} --kb {dest / 'kb'}")
    print(f"  python -m service build --data {data} --wiki {wiki} --kb {dest / 'kb'}")
    print(f"  python -m service serve --kb {dest / 'kb'}")
    print("docs/DATA.md describes every file and field.")
    return 0


def cmd_synth(args: argparse.Namespace) -> int:
    from service.synth import synthesise  # noqa: PLC0415  # only this command needs the generator

    out = Path(args.out)
    written = synthesise(args.scale, out, seed=args.seed)
    p = written.portfolio
    print(f"wrote {len(written.files)} files to {out}: {len(p.works)} works, {len(p.skills)} skills, "
          f"{len(p.roles)} roles, {sum(len(w.months) for w in p.works)} active months, "
          f"{sum(len(a) for a in p.articles)} articles (scale {args.scale}, seed {args.seed})")  # fmt: skip
    print(f"  python -m service build --data {written.data} --wiki {written.wiki} --kb {out / 'kb'}")
    return 0


def cmd_misses(args: argparse.Namespace) -> int:
    today = engine.today()
    since = args.since or default_since(today)
    url = args.db or database_url()
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        raise FolioError(f"no question log at {url.removeprefix('sqlite:///')}: nothing was asked yet, or --db")
    try:
        date.fromisoformat(since)
    except ValueError:
        raise FolioError(f"--since is a date, YYYY-MM-DD, not {since!r}") from None
    store = open_store(url)
    try:
        rows = store.rows(since)
    finally:
        store.close()
    doc = report(_planner(args), rows, today)
    print(json.dumps(doc, indent=2, ensure_ascii=False) if args.json else text(doc, since))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    with _build_packages():
        from service.bench import bench_build, bench_plan, bench_preview, bench_queries  # noqa: PLC0415  # it builds
        from service.kb.build import build  # noqa: PLC0415  # build-only packages (BUILD_ONLY)
    if args.what == "build":
        bench_build(_sources(args))
    elif args.what == "queries" and args.store == "remote":
        from service.topology import environment, published  # noqa: PLC0415  # the Oxigraph server: a dev tool

        with published(_sources(args)) as (folder, store):
            with environment({"STORE_URL": store.query}):
                remote = KB.open(folder)  # STORE_URL only while it opens: the other columns are the local store
            bench_queries(_kb_path(args), runs=args.runs, remote=remote)
    elif args.what == "queries":
        bench_queries(_kb_path(args), runs=args.runs)
    elif args.what == "sparql":
        kb = KB.open(_kb_path(args), in_memory=True)
        examples = Examples(kb.catalog, kb.site.entity_base + kb.site.person, kb.lexicon.extra["routes"]["routes"])
        raw = kb.lexicon.extra["query-examples"]["works-using-skill"]
        query = kb.catalog.fill("works-using-skill", examples.values(kb.catalog["works-using-skill"], raw,
                                                                     kb.site.entity_base))  # fmt: skip
        from service.bench import answer_queries  # noqa: PLC0415  # it plans every snapshot question

        workloads = {"the bench query (works-using-skill for its example skill)": [query],
                     "the stored queries as the snapshot's questions fill them": answer_queries(_planner(args))}
        return 0 if bench_sparql(_kb_path(args).resolve(), workloads, seconds=args.seconds) else 1
    elif args.what == "http":
        planner = _planner(args)
        bench_preview(planner)
        rebuild = (lambda: build(_sources(args), _kb_path(args), log=lambda _m: None)) if args.rebuilds else None
        served = _kb_path(args) if args.rebuilds else _kb_path(args).resolve()  # the link, to see new builds
        site, shape = None, ""
        if args.store == "remote":
            from service.topology import remote_site  # noqa: PLC0415  # the Oxigraph server and nginx: dev tools

            site = partial(remote_site, _sources(args), args.replicas, args.workers)
            shape = (f"Oxigraph server + {args.replicas} replicas x {args.workers} uvicorn workers behind nginx"
                     if args.replicas else f"Oxigraph server + {args.workers} uvicorn workers")  # fmt: skip
        bench_http(served.absolute(), snapshot.questions(planner), seconds=args.seconds, warm=args.warm,
                   rebuilds=args.rebuilds, rebuild=rebuild, workers=args.workers, site=site,
                   shape=shape)  # fmt: skip
    elif args.what == "log":
        bench_log(_kb_path(args).resolve(), snapshot.questions(_planner(args)), seconds=args.seconds,
                  rounds_n=args.rounds)  # fmt: skip
    elif args.what == "attack":
        from service.bench_attack import bench_attack  # noqa: PLC0415  # it needs httpx, a test tool

        return 0 if bench_attack(_kb_path(args).absolute(), requests=args.requests) else 1
    else:
        planner = _planner(args)
        # QUERY_CACHE=N keeps the last N stored-query runs across questions, as a web worker does (0 unless set)
        planner.engine.kb.catalog.keep_runs(int(os.environ.get("QUERY_CACHE", "0")))
        bench_plan(planner, rounds=args.rounds, every=args.every)
    return 0


def _fallback(planner: engine.Planner) -> Any:
    """The model fallback as run_suite's `serve` hook (service/fallback/evaluate.py), with its SPARQL pool."""
    from service.fallback.evaluate import Fallback  # noqa: PLC0415  # only with --fallback
    from service.model_settings import Settings  # noqa: PLC0415
    from service.web.sparql import new_pool, pool_source  # noqa: PLC0415

    settings = Settings.load()
    if not settings.enabled:
        raise SystemExit("eval --fallback needs LLM_ENABLED=true and LLM_BASE_URL (docs/MODEL.md)")
    kb = planner.engine.kb
    return Fallback(planner, new_pool(pool_source(kb), kb.site.entity_base), settings)


def cmd_eval(args: argparse.Namespace) -> int:
    planner = _planner(args)
    if args.all:
        for line in markdown(run_all(planner, Path(args.all))):
            print(line)
        return 0
    path = (
        Path(args.file)
        if args.file
        else ROOT / "tests" / ("search-holdout.json" if args.holdout else "search-eval.json")
    )
    fallback = _fallback(planner) if args.fallback else None
    try:
        results, today = run_suite(planner, path, holdout=args.holdout, serve=fallback)
    finally:
        if fallback is not None:
            fallback.close()
    report = summary(results)
    if fallback is not None:
        report["fallback"] = fallback.tally.to_json()
    if args.json:
        report["failures"] = [{"id": r.id, "question": r.question, "group": r.group, "problems": r.problems}
                              for r in results if not r.ok]  # fmt: skip
        print(json.dumps(report, indent=2))
    else:
        old = report.get("right_old")
        strict = "" if old is None else f" (strict; by the old measure, entities only: {old})"
        print(f"{path.name} (today = {today}): {report['right']} of {report['cases']} right{strict}")
        for group, g in report["groups"].items():
            also = f"; old {g['right_old']}" if "right_old" in g else ""
            print(f"  {group}: {g['right']} of {g['cases']} ({100 * g['right'] / g['cases']:.0f} %{also})")
        print(f"  MRR {report['mrr']}; planning p50 {report['plan_ms_p50']} ms, p95 {report['plan_ms_p95']} ms")
        if fallback is not None:
            f = report["fallback"]
            print(f"  fallback: {f['offered']} weak/none plans offered, {f['verified']} verified, {f['rejected']} "
                  f"rejected {f['rejected_why']}, {f['failed']} failed {f['failed_why']}; rounds {f['rounds']}; "
                  f"{f['ms_p50']} ms p50, {f['ms_max']} ms max")  # fmt: skip
        for r in results:
            if not r.ok:
                print(f"  FAIL {r.id} [{r.group}] {r.question!r}: {'; '.join(r.problems)}")
    failed = report["right"] != report["cases"]
    return 1 if failed and not args.holdout else 0


def cmd_lab(args: argparse.Namespace) -> int:
    from service.lab.evaluate import default_files, evaluate, markdown, read_cases  # noqa: PLC0415  # only here

    planner = _planner(args)
    kb = planner.engine.kb
    files = [Path(f) for f in args.file] if args.file else default_files(kb)
    cases, followed = read_cases(files, set(kb.articles))
    print(f"{len(cases)} questions naming an expected article, from {', '.join(f.name for f in files)} "
          f"({followed} left out: they follow a previous question); KB {kb.site.name}\n")  # fmt: skip
    print(markdown(evaluate(planner, cases)))
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    planner = _planner(args)
    path = Path(args.file)
    if args.action == "save":
        n = snapshot.save(planner, path, engine.today())
        print(f"recorded {n} plans in {path}")
        return 0
    diffs = snapshot.check(planner, path)
    for line in diffs[:200]:
        print(line)
    print(f"{len(diffs)} difference(s)" if diffs else "no differences")
    return 1 if diffs else 0


def _print_counts(manifest: dict[str, Any]) -> None:
    c = manifest["counts"]
    t = c["triples"]
    print(
        f"  triples: {t['stated']} stated, {t['inferred']} inferred, {t['ontology']} ontology ({t['store']} in store)"
    )
    print(f"  entities: {c['entities']}  " + ", ".join(f"{k} {v}" for k, v in sorted(c["entities_per_class"].items())))
    activity = f"{c['activity_months']} months over {c['activity_years']}" if c["activity_months"] else "no monthly"
    print(f"  works per tier: {c['works_per_tier']}; activity: {activity}")
    print(f"  wiki: {c['articles']} articles, {c['passages']} passages; stored queries: {c['queries']}")
    print("  lexicon: " + ", ".join(f"{k} {v}" for k, v in sorted(c["lexicon"].items())))  # as built or as read


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, func: Callable[[argparse.Namespace], int], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument("--kb", help="the knowledge base directory (default: $KB_DIR or var/kb)")
        p.set_defaults(func=func)
        return p

    def inputs(p: argparse.ArgumentParser) -> None:
        for name in ("ontology", "data", "wiki", "queries"):
            p.add_argument(
                f"--{name}",
                type=Path,
                help=f"the {name} directory (default: ${name.upper()}_DIR or ./{name})",
            )

    p = command("build", cmd_build, "check the inputs and build the knowledge base atomically")
    inputs(p)
    p.add_argument("--if-stale", action="store_true", help="do nothing when the KB is built from these inputs")
    p = command("validate", cmd_validate, "check inputs, shapes, links, stored queries and staleness; write nothing")
    inputs(p)
    p = command("info", cmd_info, "the manifest's counts and versions")
    p.add_argument("--json", action="store_true", help="print the whole manifest as JSON")
    p = command("init", cmd_init, "write a minimal new portfolio (one person, role, work, skill, article) to DIR")
    p.add_argument("dir", help="a new or empty folder")
    p.add_argument("--name", default="Ada Byte", help="the person's name as written (default: Ada Byte)")
    p.add_argument("--email", help="the public contact address (default: hello@<name>.example)")
    p.add_argument("--pronoun", default="they", choices=["she", "he", "they"], help="default: they")
    p.add_argument("--profession", help="what the person does, completing 'NAME is ...': 'a landscape architect' "
                                        "(asked for when not given)")  # fmt: skip
    p = command("synth", cmd_synth, "write a synthetic portfolio N times the demo's size (data and wiki) to --out")
    p.add_argument("--scale", type=int, default=1, help="how many times the demo's size (default: 1)")
    p.add_argument("--out", required=True, help="a new or empty folder; gets data/ and wiki/")
    p.add_argument("--seed", type=int, default=1, help="the same scale and seed give the same files (default: 1)")
    p = command("serve", cmd_serve, "serve the web app (ask page, API, SPARQL endpoint, pages) with uvicorn")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, help="web worker processes (default: $WORKERS, else 1)")
    p.add_argument("--access-log", action="store_true",
                   help="log every request: method, path, status and time, never the client's address or the "
                        "question (costs throughput)")  # fmt: skip
    p = command("ask", cmd_ask, "plan one question and print the answer (or the whole Plan with --json)")
    p.add_argument("question")
    p.add_argument("--previous", help="the question asked before this one (two-turn context)")
    p.add_argument("--json", action="store_true", help="print the Plan as JSON")
    p.add_argument("--trace", action="store_true", help="also every step the plan took (how the answer was found)")
    p = command("eval", cmd_eval, "run the regression suite (or the held-out set) and print the figures")
    p.add_argument("--holdout", action="store_true", help="the held-out set (reports, never fails)")
    p.add_argument("--fallback", action="store_true", help="with the model fallback on, against the LLM_* "
                   "settings' provider (held-out set only): how many weak/none plans were verified or rejected")
    p.add_argument("--file", help="another suite file")
    p.add_argument("--all", metavar="DIR", help="every suite file in DIR (the regression suite and each held-out set), "
                   "one line each as a Markdown table, and confidence against right and wrong over them all")
    p.add_argument("--json", action="store_true")
    p = command("lab", cmd_lab, "the retrieval lab: each technique's recall@3, MRR and time over the suites")
    p.add_argument("action", choices=["eval"])
    p.add_argument("--file", action="append", help="a suite file (again for more; default: the portfolio's)")
    p = command("snapshot", cmd_snapshot, "record plan() for the generated questions, or check against a record")
    p.add_argument("action", choices=["save", "check"])
    p.add_argument("file")
    p = command("misses", cmd_misses, "what visitors asked that was answered badly, from the question log")
    p.add_argument("--since", help="the first day to read (YYYY-MM-DD; default: 30 days ago)")
    p.add_argument("--db", help="the log's database (default: $LOG_DATABASE_URL or var/log/questions.sqlite3)")
    p.add_argument("--json", action="store_true")
    p = command("bench", cmd_bench, "measure: build times, each stored query, or plan() over the snapshot questions")
    p.add_argument("what", choices=["build", "queries", "plan", "http", "sparql", "attack", "log"])
    p.add_argument("--seconds", type=int, default=20, help="how long each wrk run lasts (bench http, sparql)")
    p.add_argument("--store", choices=["embedded", "remote"], default="embedded",
                   help="bench http, queries: the embedded store, or also a fresh Oxigraph server the KB is built for")
    p.add_argument("--replicas", type=int, default=0, help="bench http --store remote: replicas behind nginx")
    p.add_argument("--workers", type=int, default=2, help="bench http: uvicorn workers per server")
    p.add_argument("--warm", action="store_true", help="bench http: ask every question once before measuring")
    p.add_argument("--runs", type=int, default=200, help="runs per query (bench queries)")
    p.add_argument("--every", type=int, default=1, help="bench plan: every Nth generated question (for big KBs)")
    p.add_argument("--rounds", type=int, default=3,
                   help="bench log: rounds of the log on and off, taking turns; bench plan: rounds of questions")
    p.add_argument("--rebuilds", type=int, default=0, help="bench http: build the KB this many times during the run")
    p.add_argument("--requests", type=int, default=10_000, help="bench attack: malformed requests to send")
    inputs(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        result: int = args.func(args)
        return result
    except ProblemsFound as e:
        for p in e.problems:
            print(p)
        print(f"{len(e.problems)} problem(s); nothing was built", file=sys.stderr)
        return 1
    except FolioError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
