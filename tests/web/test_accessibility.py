"""An axe-core audit (axe-playwright-python, which ships axe-core) of every view, in real Chromium, in the light
and the dark colour scheme, on a desktop and a phone, on both portfolios: no moderate, serious or critical
finding. The owner's misses page is seen logged in, over questions the visitors asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.web.conftest import serving

AXE = Axe()
PAGES = ["home", "answer", "not covered", "wiki", "wiki answered", "entity", "console", "dumps", "lab", "misses"]
Scheme = Literal["light", "dark"]
TOKEN = "owner-token-for-the-accessibility-audit"
SCREENS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}
ASKED = ["Rust projects", "what is her favourite colour", "zorblatt projects", "how many cats does she have"]


@pytest.fixture(scope="module", params=["demo", "mateo"])
def portfolio(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The portfolio served with an owner's token, and a few questions in its log for the misses page."""
    kb: Path = request.getfixturevalue("demo_kb_path" if request.param == "demo" else "mateo_kb_path")
    with serving(kb, tmp_path_factory.mktemp("a11y"), ADMIN_TOKEN=TOKEN, TODAY="2026-11-30") as base:
        for question in ASKED:
            httpx.get(base + "/api/ask", params={"q": question}, timeout=30)
        yield base


@pytest.fixture(params=[(scheme, screen) for screen in SCREENS for scheme in ("light", "dark")],
                ids="-".join)  # fmt: skip
def page(request: pytest.FixtureRequest, browser: Browser, portfolio: str) -> Iterator[Page]:
    scheme: Scheme = request.param[0]
    owner = {"Authorization": f"Bearer {TOKEN}"}
    context = browser.new_context(base_url=portfolio, viewport=SCREENS[request.param[1]],  # type: ignore[arg-type]
                                  color_scheme=scheme, extra_http_headers=owner)  # fmt: skip
    p = context.new_page()
    yield p
    context.close()


def _visit(page: Page, which: str) -> None:
    """Each page reached as a visitor reaches it: the ask page's own links lead to the others."""
    page.goto("/")
    if which == "answer":
        page.locator("nav.examples-asked a.chip").first.click()
    elif which == "not covered":
        page.goto("/?q=what do you think about the election?")
    elif which in ("wiki", "wiki answered"):
        page.locator("nav.examples-asked a.chip").first.click()
        page.goto(page.locator("a[href^='/wiki/']").first.get_attribute("href") or "/")
        if which == "wiki answered":
            page.get_by_label("Your question", exact=False).fill("why")
            page.get_by_label("Your question", exact=False).press("Enter")
            page.locator(".article-answer .badge").wait_for()
    elif which == "entity":
        page.get_by_role("link", name="About").click()
    elif which == "console":
        page.goto("/console")
    elif which == "dumps":
        page.goto("/dump/")
        assert page.locator("table.dumps a[download]").count() >= 8  # the page a browser gets, not JSON
    elif which == "lab":
        page.locator("nav.examples-asked a.chip").first.click()
        page.get_by_role("link", name="Open this question in the retrieval lab").click()
        assert page.locator("section.technique").count() >= 3
    elif which == "misses":
        page.goto("/-/misses")
        assert page.locator(".miss").count() >= 1  # the owner's page, with the questions asked
    page.wait_for_load_state("networkidle")


def _serious(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = AXE.run(page).response["violations"]
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "where": [n["target"] for n in v["nodes"]][:5]}
            for v in found if v["impact"] in ("moderate", "serious", "critical")]  # fmt: skip


@pytest.mark.parametrize("which", PAGES)
def test_no_serious_accessibility_findings(page: Page, which: str) -> None:
    _visit(page, which)
    assert _serious(page) == []
    assert page.locator("h1").count() == 1  # every page has one main heading (the home page had none: issue 38)
