"""The Dockerfile and compose files, checked without Docker (it cannot run here): every setting a service is given
is one the image honours, every command parses, every path it needs is there, every wait has a condition that can
be met, the image runs unprivileged with its question log on a volume. And the two behaviours the files rely on,
run for real: `serve` takes its worker count from WORKERS, `build` waits for a store that starts after it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from service.bench_http import free_port, wait_until_up
from service.cli import BUILD_ONLY, _parser
from service.config import SETTINGS
from service.topology import oxigraph_server
from service.web.app import create_app
from tests.conftest import ROOT

COMPOSE = sorted(ROOT.glob("docker-compose*.yml"))
HEALTH_PREFIX = "import urllib.request; urllib.request.urlopen('http://127.0.0.1:"


def _stages() -> dict[str, dict[str, Any]]:
    """The Dockerfile's stages by name (the last also as ""): for each, its ENV, the extras it installs, its RUN
    lines, USER, VOLUME, CMD, the health check's command and the stages it copies from."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    stages: dict[str, dict[str, Any]] = {}
    out: dict[str, Any] = {}
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "FROM":
            out = {"env": {}, "extras": set(), "volumes": [], "user": "root", "run": [], "from": set()}
            stages[rest.split(" AS ")[-1] if " AS " in rest else f"stage{len(stages)}"] = stages[""] = out
        elif word == "ENV":
            out["env"] |= dict(part.split("=", 1) for part in shlex.split(rest))
        elif word == "RUN":
            out["run"] += [part.strip() for part in rest.split("&&")]
            for arg in shlex.split(rest):
                if arg.startswith(".[") and arg.endswith("]"):
                    out["extras"] |= set(arg[2:-1].split(","))
        elif word == "COPY" and "--from=" in rest:
            out["from"].add(rest.split("--from=")[1].split()[0])
        elif word == "USER":
            out["user"] = rest.strip()
        elif word == "VOLUME":
            out["volumes"] += yaml.safe_load(rest)
        elif word == "CMD":
            out["cmd"] = yaml.safe_load(rest)
        elif word == "HEALTHCHECK":
            out["health"] = yaml.safe_load(rest[rest.index("CMD") + 3 :])
    return stages


def _dockerfile(stage: str = "") -> dict[str, Any]:
    return _stages()[stage]


def _stage_of(service: dict[str, Any]) -> dict[str, Any]:
    """The Dockerfile stage a compose service runs."""
    built = service["build"]
    return _dockerfile(built.get("target", "") if isinstance(built, dict) else "")


def _services(path: Path) -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["services"]
    return services


def _ours(path: Path) -> dict[str, dict[str, Any]]:
    """The services built from this checkout's Dockerfile."""
    def context(built: object) -> object:
        return built.get("context") if isinstance(built, dict) else built

    return {name: s for name, s in _services(path).items() if context(s.get("build")) == "."}


def _argv(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


def _cli(argv: list[str]) -> Any:
    """The `python -m service ...` command parsed by the real CLI parser (SystemExit on anything it refuses)."""
    assert argv[:3] == ["python", "-m", "service"], argv
    return _parser().parse_args(argv[3:])


def _health_path(test: list[str]) -> tuple[int, str]:
    """The port and path a `python -c urllib...` health check asks."""
    assert test[:3] == ["CMD", "python", "-c"] and test[3].startswith(HEALTH_PREFIX), test
    port, _, rest = test[3].removeprefix(HEALTH_PREFIX).partition("/")
    return int(port), "/" + rest.split("'")[0]


def _routes() -> set[str]:
    return {getattr(r, "path", "") for r in create_app().routes}


@pytest.mark.parametrize("path", COMPOSE, ids=[p.name for p in COMPOSE])
def test_every_setting_a_service_is_given_is_one_the_image_honours(path: Path) -> None:
    for name, service in _ours(path).items():
        image = _stage_of(service)
        env = {**image["env"], **(service.get("environment") or {})}
        unknown = sorted(set(env) - set(SETTINGS))
        assert not unknown, f"{path.name} {name}: {unknown} are no settings the service reads"
        if str(env.get("LOG_DATABASE_URL", "")).startswith("postgresql"):
            extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
                "optional-dependencies"]  # fmt: skip
            assert "postgres" in image["extras"], f"{name} logs to PostgreSQL: the image must install .[postgres]"
            assert any(d.startswith("psycopg") for d in extras["postgres"])


@pytest.mark.parametrize("path", COMPOSE, ids=[p.name for p in COMPOSE])
def test_every_command_parses_and_every_path_it_needs_is_there(path: Path) -> None:
    services = _services(path)
    routes = _routes()
    for name, service in _ours(path).items():
        image = _stage_of(service)
        env = {**image["env"], **(service.get("environment") or {})}
        args = _cli(_argv(service.get("command") or image["cmd"]))
        if args.command in ("build", "validate"):
            assert "build" in image["extras"], f"{name} builds in a stage without the build's packages"
        mounts = {m.split(":")[1]: m for m in service.get("volumes", [])}
        kb = Path(getattr(args, "kb", None) or env["KB_DIR"])
        builders = [image, *(_dockerfile(stage) for stage in image["from"])]  # the KB built here or copied in
        built_in = kb == Path(image["env"]["KB_DIR"]) and any("python -m service build" in r for b in builders
                                                              for r in b["run"])  # fmt: skip
        if args.command in ("build", "serve") and not built_in:  # the KB lives on a volume the service mounts
            assert any(kb.is_relative_to(target) for target in mounts), f"{name}: {kb} is on no volume it mounts"
            if args.command == "build":
                assert not mounts[next(t for t in mounts if kb.is_relative_to(t))].endswith(":ro")
        for mount in service.get("volumes", []):
            source = mount.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), f"{name} mounts {source}, which is not in the checkout"
        if "healthcheck" in service:
            port, health = _health_path(service["healthcheck"]["test"])
            assert health in routes and port == args.port, f"{name}: its health check asks {port}{health}"
    for service in services.values():  # nginx's upstreams are the replicas, on the port they serve
        for mount in service.get("volumes", []):
            if mount.endswith("nginx.conf:ro") or "nginx" in mount:
                conf = (ROOT / mount.split(":")[0]).read_text(encoding="utf-8")
                upstreams = re.findall(r"(?m)^\s*server\s+([\w.-]+):(\d+)", conf)
                assert upstreams
                for host, port in upstreams:
                    assert host in services and _cli(_argv(services[host]["command"])).port == int(port)


@pytest.mark.parametrize("path", COMPOSE, ids=[p.name for p in COMPOSE])
def test_every_wait_has_a_condition_that_can_be_met(path: Path) -> None:
    services = _services(path)
    for name, service in services.items():
        depends = service.get("depends_on") or {}
        assert isinstance(depends, dict), f"{name}: depends_on without conditions waits for nothing but a start"
        for target, how in depends.items():
            condition = how["condition"]
            if condition == "service_healthy":
                assert "healthcheck" in services[target] or target in _ours(path), f"{name} waits on {target}"
            elif condition == "service_completed_successfully":
                assert services[target].get("restart") == "no", f"{target} runs once"
            else:  # only the build may wait on a mere start: it waits for the store to answer itself (STORE_WAIT)
                assert condition == "service_started" and _cli(_argv(service["command"])).command == "build"
                env = service["environment"]
                assert urlsplit(env["STORE_URL"]).hostname == target and int(env["STORE_WAIT"]) > 0


def test_the_image_runs_unprivileged_with_its_question_log_on_a_volume() -> None:
    image = _dockerfile()
    assert image["user"] not in ("root", "0", ""), "the image serves as root"
    assert any(run.startswith("useradd") and image["user"] in shlex.split(run) for run in image["run"])
    assert all(stage["user"] == image["user"] for stage in _stages().values()), "every stage ends unprivileged"
    url = image["env"]["LOG_DATABASE_URL"]
    log = Path(url.removeprefix("sqlite:///"))  # as service/questionlog reads it
    assert url.startswith("sqlite:///") and log.is_absolute() and str(log.parent) in image["volumes"]
    assert _cli(image["cmd"]).workers is None  # the image's WORKERS decides
    assert _health_path(["CMD", *image["health"]])[1] in _routes()
    embedded = _ours(ROOT / "docker-compose.embedded.yml")["web"]
    assert any(m.split(":")[1] == str(log.parent) for m in embedded["volumes"])


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in found.read_text().split()] if found.exists() else []


@pytest.fixture
def served_with_workers(demo_kb_path: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    env = os.environ | {"WORKERS": "2", "QUESTION_LOG": "off", "SPARQL_WORKERS": "1",
                        "LOG_DATABASE_URL": f"sqlite:///{tmp_path / 'q.sqlite3'}"}  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "service", "serve", "--port", str(port), "--kb", str(demo_kb_path)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        wait_until_up(f"http://127.0.0.1:{port}/healthz", 60)
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


Served = tuple[subprocess.Popen[bytes], str]


def test_serve_starts_as_many_web_workers_as_the_setting_says(served_with_workers: Served) -> None:
    proc, base = served_with_workers
    assert httpx.get(base + "/healthz").json()["status"] == "ok"

    def workers() -> list[int]:  # uvicorn's workers are spawned children of its supervisor
        return [c for c in _children(proc.pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]

    deadline = time.monotonic() + 30
    while len(workers()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(workers()) == 2


def test_build_waits_for_a_store_that_starts_after_it(tmp_path: Path) -> None:
    """The compose file starts the store and the build together; the store's image has no health check, so the
    build waits for it to answer. And a store that never answers fails the build clearly, within STORE_WAIT."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = os.environ | {"STORE_URL": base + "/query", "STORE_UPDATE_URL": base + "/update",
                        "STORE_GSP_URL": base + "/store", "CACHE_DIR": str(tmp_path / "cache")}  # fmt: skip
    never = subprocess.run([sys.executable, "-m", "service", "build", "--kb", str(tmp_path / "never")], check=False,
                           env=env | {"STORE_WAIT": "1"}, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert never.returncode != 0 and "did not answer within 1 s (STORE_WAIT)" in never.stdout + never.stderr
    build = subprocess.Popen([sys.executable, "-m", "service", "build", "--kb", str(tmp_path / "kb")],
                             env=env | {"STORE_WAIT": "120"}, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)  # fmt: skip
    time.sleep(4)  # the build checks and reasons first, then finds no store and waits
    assert build.poll() is None, "the build gave up before the store started"
    with oxigraph_server(port=port) as store:
        out, _ = build.communicate(timeout=600)
        assert build.returncode == 0, out.decode()
        count = httpx.post(store.query, data={"query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"},
                           headers={"accept": "text/csv"}).text.split()[-1]  # fmt: skip
        assert int(count) > 10_000  # the demo's graphs were published to the late store


BUILD_ONLY_STUB = 'raise ModuleNotFoundError("No module named {0!r} (not in a serving install)", name={0!r})\n'


def test_the_serving_install_holds_nothing_only_the_build_needs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    serving = {re.split(r"[=<>\[]", d)[0].lower() for d in project["dependencies"]}
    build = {re.split(r"[=<>\[]", d)[0].lower() for d in project["optional-dependencies"]["build"]}
    assert build == set(BUILD_ONLY) and not serving & build
    image = _dockerfile()
    assert "build" not in image["extras"], "the image that serves installs the build's packages"


Env = dict[str, str]


@pytest.fixture
def without_build_packages(tmp_path: Path) -> Env:
    """An environment in which the build's packages cannot be imported, by any process it starts."""
    for name in BUILD_ONLY:
        (tmp_path / "hidden" / name).mkdir(parents=True)
        (tmp_path / "hidden" / name / "__init__.py").write_text(BUILD_ONLY_STUB.format(name), encoding="utf-8")
    return os.environ | {"PYTHONPATH": str(tmp_path / "hidden"), "QUESTION_LOG": "off", "SPARQL_WORKERS": "1"}


def test_a_site_serves_everything_without_the_build_packages(demo_kb_path: Path, without_build_packages: Env) -> None:
    """The pages, the API, /sparql, entity IRIs, dumps: all served by a process (and its workers) that cannot
    import the reasoner, SHACL or rdflib; `build` there says what to install."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "service", "serve", "--port", str(port), "--kb", str(demo_kb_path)],
                            env=without_build_packages, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        wait_until_up(base + "/healthz", 60)
        person = httpx.get(base + "/.well-known/void", headers={"accept": "text/turtle"})
        assert person.status_code == 200
        select = "SELECT ?w WHERE { ?w a <https://folio.example/ns#Work> } LIMIT 3"
        construct = "CONSTRUCT { ?w a ?c } WHERE { ?w a ?c } LIMIT 3"
        entity = httpx.get(base + "/api/ask", params={"q": "tell me about Lantern"}).json()["interpretation"]["entity"]
        for path, params, accept in (
            ("/", {"q": "Rust projects"}, "text/html"), ("/api/ask", {"q": "what did she build in Q3 2025?"}, "*/*"),
            ("/api/preview", {"q": "lant"}, "*/*"), ("/sparql", {"query": select}, "application/sparql-results+json"),
            ("/sparql", {"query": construct}, "text/turtle"), (urlsplit(entity).path, {}, "text/turtle"),
            (urlsplit(entity).path, {}, "text/html"), ("/dump/", {}, "application/json"), ("/wiki/Lantern", {}, "*/*"),
            ("/console", {"query": select}, "text/html"), ("/lab", {"q": "how does lantern rank"}, "text/html"),
        ):  # fmt: skip
            response = httpx.get(base + path, params=params, headers={"accept": accept}, timeout=30)
            assert response.status_code == 200, (path, response.status_code, response.text[:300])
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()[-2000:]
    built = subprocess.run([sys.executable, "-m", "service", "build", "--kb", str(demo_kb_path.parent / "never")],
                           env=without_build_packages, capture_output=True, text=True, check=False,
                           timeout=120)  # fmt: skip
    assert built.returncode == 1 and "pip install 'folio-ask[build]'" in built.stderr
