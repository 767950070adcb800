"""A real Oxigraph server (`oxigraph serve`, from the `oxigraph` wheel) for the remote-store tests, with the
demo and Mateo built for servers of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.kb import KB
from service.kb.build import build
from service.kb.sources import Sources
from service.topology import Store, environment, oxigraph_server, virtuoso_server
from tests.conftest import demo_sources, mateo_sources, quiet
from tests.web.conftest import http, server  # noqa: F401  # the embedded server, to compare with


def built_for(store: Store, sources: Sources, kb: Path) -> Path:
    with environment(store.settings()):
        build(sources, kb, log=quiet)
    return kb


def open_remote(store: Store, kb: Path) -> KB:
    with environment({"STORE_URL": store.query}):
        return KB.open(kb)


SERVERS = {"oxigraph": oxigraph_server, "virtuoso": virtuoso_server}


@pytest.fixture(scope="module", params=sorted(SERVERS))
def engine(request: pytest.FixtureRequest) -> str:
    """Which SPARQL server stands for the remote store: every remote-store test runs on each."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def demo_store(engine: str) -> Iterator[Store]:
    with SERVERS[engine]() as store:
        yield store


@pytest.fixture(scope="module")
def mateo_store(engine: str) -> Iterator[Store]:
    with SERVERS[engine]() as store:
        yield store


@pytest.fixture(scope="module")
def remote_demo_path(demo_store: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_for(demo_store, demo_sources(), tmp_path_factory.mktemp("remote-demo") / "kb")


@pytest.fixture(scope="module")
def remote_mateo_path(mateo_store: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_for(mateo_store, mateo_sources(), tmp_path_factory.mktemp("remote-mateo") / "kb")
