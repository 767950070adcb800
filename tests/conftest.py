"""One built demo KB for the whole session (it takes ~15 s), and helpers to copy inputs for tests that break them."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from service.engine import Planner, load
from service.kb import KB
from service.kb.build import build
from service.kb.sources import Sources
from tests.postgres import postgres, unavailable

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "fixtures" / "tiny"
MATEO = ROOT / "examples" / "mateo"  # the second demo portfolio: another person, another field, "he"


def demo_sources() -> Sources:
    return Sources(ROOT / "ontology", ROOT / "data", ROOT / "wiki", ROOT / "queries")


def copy_inputs(dest: Path, *, tiny: bool = False) -> Sources:
    """A private copy of the ontology, data, wiki and queries, for a test to edit."""
    src = Sources(ROOT / "ontology", TINY / "data", TINY / "wiki", ROOT / "queries") if tiny else demo_sources()
    for name in ("ontology", "data", "wiki", "queries"):
        shutil.copytree(getattr(src, name), dest / name)
    return Sources(dest / "ontology", dest / "data", dest / "wiki", dest / "queries")


def quiet(_message: str) -> None:
    pass


def _built(sources: Sources, factory: pytest.TempPathFactory, name: str) -> Path:
    kb = factory.mktemp(name) / "kb"
    build(sources, kb, log=quiet)
    return kb


@pytest.fixture(scope="session")
def demo_kb_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _built(demo_sources(), tmp_path_factory, "demo")


@pytest.fixture(scope="session")
def demo_kb(demo_kb_path: Path) -> Iterator[KB]:
    yield KB.open(demo_kb_path)


@pytest.fixture(scope="session")
def planner(demo_kb_path: Path) -> Planner:
    """The engine over an in-memory copy of the demo KB, as the web app runs it."""
    return load(KB.open(demo_kb_path, in_memory=True))


def mateo_sources() -> Sources:
    return Sources(ROOT / "ontology", MATEO / "data", MATEO / "wiki", ROOT / "queries")


@pytest.fixture(scope="session")
def mateo_kb_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _built(mateo_sources(), tmp_path_factory, "mateo")


@pytest.fixture(scope="session")
def mateo_planner(mateo_kb_path: Path) -> Planner:
    """The engine over the second portfolio, built only from the files its owner wrote."""
    return load(KB.open(mateo_kb_path, in_memory=True))


NOOR = ROOT / "examples" / "noor"  # the third: a landscape architect, a portfolio outside software


@pytest.fixture(scope="session")
def noor_planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    """The engine over the third portfolio, built only from the files its owner wrote."""
    kb = _built(Sources(ROOT / "ontology", NOOR / "data", NOOR / "wiki", ROOT / "queries"), tmp_path_factory, "noor")
    return load(KB.open(kb, in_memory=True))


TODAY = date(2026, 11, 30)


@pytest.fixture(scope="session")
def postgresql() -> Iterator[str]:
    """A real PostgreSQL server for the session (its own cluster in a temporary directory), or a skip that says
    why none can run here."""
    why = unavailable()
    if why:
        pytest.skip(why)
    with postgres() as url:
        yield url


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The W3C conformance counts, printed at the end of every run that included them."""
    module = sys.modules.get("tests.web.test_conformance")
    results = getattr(module, "RESULTS", None)
    if results and (results["query"] or results["update"]):
        passed, refused = results["passed"], results["refused"]
        terminalreporter.write_line(
            f"W3C SPARQL 1.1 Protocol: {passed} query tests passed, {refused} update tests refused"
        )
