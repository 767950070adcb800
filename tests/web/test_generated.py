"""The model fallback over HTTP end to end: the simulated model, a real server, the API and the page; and off,
with a key set, nothing leaves the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fallback.conftest import WEAK
from tests.simllm import Sim, simulated
from tests.web.conftest import serving

QUESTIONS = [WEAK, "tell me about her hobbies", "what license does lantern use", "what is her favourite food"]


@pytest.fixture(scope="module")
def sim() -> Iterator[Sim]:
    with simulated() as s:
        yield s


@pytest.fixture(scope="module")
def on(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory, sim: Sim) -> Iterator[httpx.Client]:
    env = {"TODAY": "2026-11-30", "LLM_ENABLED": "true", "LLM_BASE_URL": sim.url, "LLM_MODEL": "sim-model",
           "LLM_TIMEOUT": "2", "SPARQL_SANDBOX": "off"}  # fmt: skip
    with serving(demo_kb_path, tmp_path_factory.mktemp("llm-on"), 1, **env) as base, \
            httpx.Client(base_url=base, timeout=30) as client:  # fmt: skip
        yield client


def test_the_api_marks_a_checked_model_answer(on: httpx.Client, sim: Sim) -> None:
    sim.script({"content": "{s1} [S1]"})
    doc = on.get("/api/ask", params={"q": WEAK}).json()
    assert doc["generated"] == {"by": "sim-model", "verified": True, "rounds": 1}
    assert doc["confidence"]["level"] == "weak" and doc["answer"]["sources"][0]["id"] == "S1"
    sim.script({"content": "{s1} The talk drew 347 people. [S1]"})
    rejected = on.get("/api/ask", params={"q": WEAK}).json()
    assert "generated" not in rejected and rejected["answer"] is None and rejected["confidence"]["level"] == "none"


def test_the_page_shows_generated_and_checked_chips_and_the_model_s_sparql(on: httpx.Client, sim: Sim) -> None:
    query = "SELECT (COUNT(?w) AS ?n) WHERE { ?w a pf:Work }"
    sim.script({"tool": "sparql", "query": query}, {"content": "The portfolio lists {value} works. [{last}]"})
    html = on.get("/", params={"q": WEAK}).text
    assert "Generated · checked" in html and "Written by a language model (sim-model)" in html
    assert 'class="cite" href="#S6"' in html and 'id="S6"' in html
    assert "(asked by the model)" in html and "COUNT(?w)" in html and "Run in console" in html


def test_model_text_is_escaped_on_the_page(on: httpx.Client, sim: Sim) -> None:
    # markup in words the evidence holds passes the checker ("u" is no word of a claim): it must reach the page
    # as text (a markup-only payload, <img src=x onerror=...>, is now refused: its words are in no source)
    sim.script({"content": "{s1} [S1] <u>{s1}</u> [S1]"})
    html = on.get("/", params={"q": WEAK}).text
    assert "Generated" in html and "<u>" not in html and "&lt;u&gt;" in html


def test_provider_failures_leave_the_plan_as_it_was(on: httpx.Client, sim: Sim) -> None:
    for reply in ({"status": 429}, {"status": 500}, {"raw": "{oops"}, {"sleep": 3, "content": "{s1} [S1]"}):
        sim.script(reply)
        response = on.get("/api/ask", params={"q": WEAK})
        assert response.status_code == 200 and "generated" not in response.json()
        assert response.json()["answer"] is None


@pytest.mark.parametrize("env", [{"LLM_API_KEY": "sk-live", "LLM_BASE_URL": "{url}"},
                                 {"LLM_API_KEY": "sk-live", "LLM_ENABLED": "true", "EMBEDDINGS_ENABLED": "true"}],
                         ids=["key-and-url-not-enabled", "enabled-without-url"])  # fmt: skip
def test_off_nothing_leaves_the_server(demo_kb_path: Path, tmp_path_factory: pytest.TempPathFactory, sim: Sim,
                                       env: dict[str, str]) -> None:  # fmt: skip
    sim.reset()
    filled = {k: v.replace("{url}", sim.url) for k, v in env.items()}
    with serving(demo_kb_path, tmp_path_factory.mktemp("llm-off"), 1, **{"TODAY": "2026-11-30", **filled}) as base:
        for q in QUESTIONS:
            assert httpx.get(base + "/api/ask", params={"q": q}, timeout=30).status_code == 200
            assert httpx.get(base + "/", params={"q": q}, timeout=30).status_code == 200
    assert sim.requests == []
