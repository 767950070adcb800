"""An axe-core audit (axe-playwright-python, which ships axe-core) of the pages a visitor sees, in real
Chromium, in the light and the dark colour scheme, on both portfolios: no serious or critical finding."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

AXE = Axe()
PAGES = ["home", "answer", "not covered", "wiki", "wiki answered", "entity", "console", "dumps"]
Scheme = Literal["light", "dark"]


@pytest.fixture(params=["demo", "mateo"])
def portfolio(request: pytest.FixtureRequest) -> str:
    server: str = request.getfixturevalue("server" if request.param == "demo" else "mateo_server")
    return server


@pytest.fixture(params=["light", "dark"])
def page(request: pytest.FixtureRequest, browser: Browser, portfolio: str) -> Iterator[Page]:
    scheme: Scheme = request.param
    context = browser.new_context(base_url=portfolio, viewport={"width": 1100, "height": 900}, color_scheme=scheme)
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
    page.wait_for_load_state("networkidle")


def _serious(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = AXE.run(page).response["violations"]
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "where": [n["target"] for n in v["nodes"]][:5]}
            for v in found if v["impact"] in ("serious", "critical")]  # fmt: skip


@pytest.mark.parametrize("which", PAGES)
def test_no_serious_accessibility_findings(page: Page, which: str) -> None:
    _visit(page, which)
    assert _serious(page) == []
    assert page.locator("h1").count() == 1  # every page has one main heading (the home page had none: issue 38)
