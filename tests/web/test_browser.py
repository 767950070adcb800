"""The pages in real headless Chromium (Debian's package, driven by Playwright): what a visitor sees and does."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import SHOTS


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(base_url=server, viewport={"width": 1100, "height": 900})
    p = context.new_page()
    yield p
    context.close()


def test_preview_strip_changes_while_typing(page: Page) -> None:
    page.goto("/")
    box = page.get_by_label("Ask about her work")
    box.press_sequentially("lant", delay=30)
    expect(page.locator("#preview")).to_contain_text("Lantern")
    box.fill("")
    box.press_sequentially("kanji tok", delay=30)
    expect(page.locator("#preview")).to_contain_text("Kanji")


def test_the_preview_is_a_combobox_the_arrow_keys_reach(page: Page) -> None:
    """The box owns the strip's matches as a listbox: Down and Up move through them (the box says which with
    aria-activedescendant), Escape closes the list, Enter opens the one chosen."""
    page.goto("/")
    box = page.get_by_role("combobox", name="Ask about her work")
    box.press_sequentially("simulated annealing", delay=30)
    options = page.get_by_role("listbox").get_by_role("option")
    expect(options).to_have_count(3)  # weights.yaml article_ask.preview
    expect(box).to_have_attribute("aria-expanded", "true")
    count, first = 3, options.nth(0).get_attribute("data-href") or ""
    box.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", options.nth(0).get_attribute("id") or "")
    expect(options.nth(0)).to_have_attribute("aria-selected", "true")
    box.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    expect(options.nth(0)).to_have_attribute("aria-selected", "false")
    box.press("ArrowUp")
    box.press("ArrowUp")  # from the first, Up goes round to the last
    expect(options.nth(count - 1)).to_have_attribute("aria-selected", "true")
    box.press("Escape")
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("listbox")).to_be_hidden()
    box.press("ArrowDown")  # opens it again, on the first
    expect(options.nth(0)).to_have_attribute("aria-selected", "true")
    box.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(first) + "$"))


def test_submit_shows_badge_source_chip_and_sparql(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Ask about her work").fill("what did she build in Q3 2025?")
    page.keyboard.press("Enter")
    expect(page.locator(".badge")).to_have_text("96 % · High match")
    source = page.locator("details#S1")
    expect(source).not_to_have_attribute("open", "")
    page.locator("a.cite").first.click()
    expect(source).to_have_attribute("open", "")
    expect(page.get_by_role("heading", name="SPARQL behind this answer")).to_be_visible()
    page.locator("details.query summary").first.click()
    run = page.get_by_role("link", name="Run in console").first
    expect(run).to_have_attribute("href", re.compile(r"/console\?query=.+"))
    expect(page.locator("details.query pre").first).to_contain_text("pf:activeMonth")
    page.screenshot(path=str(SHOTS / "ask-answer.png"), full_page=True)


def test_every_result_is_reachable_by_the_pager(page: Page) -> None:
    """An answer with more results than a page shows how many there are and pages through them, numbered on."""
    page.goto("/?q=list all her projects")
    heading = page.locator("#results-heading")
    expect(heading).to_contain_text(re.compile(r"1–10 of (\d+)"))
    total = int(re.search(r"of (\d+)", heading.inner_text()).group(1))  # type: ignore[union-attr]
    first = page.locator(".results ol li .result-label").all_inner_texts()
    page.get_by_role("navigation", name="Pages of results").get_by_role("link", name="Next 10").click()
    expect(heading).to_contain_text(f"11–20 of {total}")
    expect(page.locator(".results ol")).to_have_attribute("start", "11")
    second = page.locator(".results ol li .result-label").all_inner_texts()
    assert len(second) == 10 and not set(first) & set(second)
    expect(page.locator(".answer-text")).to_contain_text(f"{total} works")  # the answer above stays the same
    page.get_by_role("link", name="Previous 10").click()
    expect(heading).to_contain_text(f"1–10 of {total}")
    assert page.locator(".results ol li .result-label").all_inner_texts() == first


def test_source_chip_opens_the_cited_passage(page: Page) -> None:
    """The answer gives the graph's account of Tidewise (S1), then the passage on the choice (S2): its chip opens
    that passage."""
    page.goto("/?q=" + "why did she choose simulated annealing for Tidewise")
    page.locator("a.cite[data-source='S2']").first.click()
    passage = page.locator("details#S2")
    expect(passage).to_have_attribute("open", "")
    expect(passage.locator("blockquote")).to_contain_text("simulated annealing")
    article = passage.get_by_role("link", name="Read the full article")
    expect(article).to_have_attribute("href", re.compile(r"/wiki/.+"))


def test_abstention_offers_the_prefilled_contact_link(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Ask about her work").fill("what do you think about the election?")
    page.get_by_role("button", name="Ask").click()
    expect(page.locator(".badge")).to_have_text("0 % · No match")
    link = page.get_by_role("link", name="Ask Ines directly — your question is filled in")
    expect(link).to_have_attribute("href", re.compile(r"mailto:hello@inescalder\.example\?subject=.*election"))
    page.screenshot(path=str(SHOTS / "ask-abstention.png"), full_page=True)


def test_entity_page_and_keyboard_navigation(page: Page) -> None:
    page.goto("/id/Lantern")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lantern")
    expect(page.locator("table.facts")).to_contain_text("inferred")
    page.keyboard.press("Tab")  # the skip link comes first
    expect(page.locator("a.skip")).to_be_focused()


def test_followup_chip_asks_the_next_question(page: Page) -> None:
    page.goto("/?q=tell+me+about+Lantern")
    chip = page.locator("nav.followups a.chip").first
    text = chip.inner_text()
    chip.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(text)
    expect(page.locator(".badge")).not_to_have_text("0 % · No match")


def test_run_in_console_shows_the_same_rows(page: Page) -> None:
    page.goto("/?q=" + "Rust projects")
    answer_rows = page.locator(".sparql summary").first.inner_text()
    page.locator("details.query summary").first.click()
    page.get_by_role("link", name="Run in console").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("SPARQL console")
    heading = page.locator("#result-heading")
    expect(heading).to_contain_text("26 results")
    assert "26 rows" in answer_rows
    expect(page.locator("table.results tbody tr").first).to_contain_text("Tessera")
    page.screenshot(path=str(SHOTS / "console.png"), full_page=False)


def test_the_next_question_on_the_page_is_read_after_the_last(page: Page) -> None:
    page.goto("/?q=Rust+projects")
    page.get_by_role("combobox").fill("and Go?")
    page.get_by_role("button", name="Ask").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("and Go?")
    expect(page.locator("p.note")).to_contain_text("after “Rust projects”")
    expect(page.locator("section.results ol li").first).to_be_visible()
