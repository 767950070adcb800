"""The ask page as a visitor uses it, in real Chromium, on both portfolios: on a 390 px phone, the preview
strip while typing, example questions, and a follow-up read after the question before it through the URL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.conftest import SHOTS

PHONE: ViewportSize = {"width": 390, "height": 844}
# links inside running text (WCAG 2.5.8's inline exception: a link in a sentence) need not be 44 px tall
INLINE = ".answer-text a, blockquote a, #article_body li a, #article_body td a"
TALL_ENOUGH = """(inline) => {
  const inSentence = (e) => {
    const box = e.closest('p, td, dd');
    if (!box) { return false; }
    let rest = box.textContent;
    for (const a of box.querySelectorAll('a, label')) { rest = rest.replace(a.textContent, ''); }
    return /\\p{L}/u.test(rest);
  };
  return [...document.querySelectorAll('a, button, input, summary, label:has(input)')]
    .filter((e) => e.offsetParent !== null && !e.closest('.skip') && !e.matches(inline) && !inSentence(e)
      && !e.matches('label input'))  // a checkbox's target is its whole label
    .map((e) => ({what: e.outerHTML.slice(0, 80), height: e.getBoundingClientRect().height}))
    .filter((e) => e.height < 44);
}"""
PLACEHOLDER_FITS = """() => {
  const input = document.getElementById('q'), style = getComputedStyle(input);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {text: input.placeholder, width: ctx.measureText(input.placeholder).width, room};
}"""
ARTICLE = {"demo": "/wiki/Tidewise?q=why+simulated+annealing", "mateo": "/wiki/AriaFirmware?q=how+does+it+work"}
TYPED = {"demo": "simulated annealing", "mateo": "beamforming"}
FOLLOW = {"demo": ("Rust projects", "and Go?", "Go projects"), "mateo": ("C projects", "and Rust?", "Rust projects")}


@pytest.fixture(params=["demo", "mateo"])
def portfolio(request: pytest.FixtureRequest) -> tuple[str, str]:
    name = request.param
    return name, request.getfixturevalue("server" if name == "demo" else "mateo_server")


@pytest.fixture
def phone(browser: Browser, portfolio: tuple[str, str]) -> Iterator[Page]:
    context = browser.new_context(base_url=portfolio[1], viewport=PHONE, device_scale_factor=2)
    p = context.new_page()
    yield p
    context.close()


@pytest.fixture
def page(browser: Browser, portfolio: tuple[str, str]) -> Iterator[Page]:
    context = browser.new_context(base_url=portfolio[1], viewport={"width": 1100, "height": 900})
    p = context.new_page()
    yield p
    context.close()


def _one_line_header(page: Page) -> None:
    header = page.locator("header.site").bounding_box()
    assert header is not None and header["height"] <= 60, header  # one row of 44 px targets, not two
    tops = {round(b["y"]) for b in (a.bounding_box() for a in page.locator("header.site a").all()) if b}
    assert len(tops) == 1, tops
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_phone_layout(phone: Page, portfolio: tuple[str, str]) -> None:
    """At 390 x 844: the header is one line, the placeholder is whole, every tap target is at least 44 px tall."""
    name = portfolio[0]
    phone.goto("/")
    _one_line_header(phone)
    fits = phone.evaluate(PLACEHOLDER_FITS)
    assert fits["text"] and fits["width"] <= fits["room"], fits
    assert phone.evaluate(TALL_ENOUGH, INLINE) == []
    example = phone.locator("nav.examples-asked a.chip").first
    example.click()
    expect(phone.locator("section.answer")).to_be_visible()
    _one_line_header(phone)
    assert phone.evaluate(TALL_ENOUGH, INLINE) == []
    if name == "demo":
        phone.screenshot(path=str(SHOTS / "phone-ask.png"))
    phone.locator("details.source summary").first.click()
    assert phone.evaluate(TALL_ENOUGH, INLINE) == []
    for other in (ARTICLE[name], "/console", "/?q=what do you think about the election?"):
        phone.goto(other)
        _one_line_header(phone)
        assert phone.evaluate(TALL_ENOUGH, INLINE) == [], other
    phone.get_by_role("link", name="About").click()  # the person's entity page
    _one_line_header(phone)
    assert phone.evaluate(TALL_ENOUGH, INLINE) == []


def test_examples_on_the_home_page_and_in_the_not_covered_answer(page: Page) -> None:
    page.goto("/")
    examples = page.locator("nav.examples-asked a.chip")
    expect(examples).not_to_have_count(0)
    first = examples.first.inner_text()
    examples.first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(first)
    expect(page.locator(".answer .badge")).not_to_contain_text("No match")
    page.goto("/?q=" + "what do you think about the election?")
    expect(page.locator(".badge")).to_contain_text("No match")
    expect(page.locator(".answer nav.examples-asked a.chip")).not_to_have_count(0)


def test_a_follow_up_reads_the_previous_question_from_the_url(page: Page, portfolio: tuple[str, str]) -> None:
    first, second, read_as = FOLLOW[portfolio[0]]
    page.goto("/?q=" + first)
    expect(page.get_by_label(f"Read my next question after “{first}”")).to_be_checked()
    page.get_by_role("combobox").fill(second)
    page.get_by_role("button", name="Ask").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(second)
    expect(page.locator("p.note")).to_contain_text(f"Read as “{read_as}”, after “{first}”")
    shared = page.url
    assert parse_qs(urlparse(shared).query) == {"q": [second], "previous": [first]}
    page.goto(shared)  # a shared link keeps its context
    expect(page.locator("p.note")).to_contain_text(f"after “{first}”")
    # the next one is read after what this one was read as
    expect(page.get_by_label(f"Read my next question after “{read_as}”")).to_be_checked()
    # starting afresh: the question on its own
    page.get_by_label(re.compile("Read my next question after")).uncheck()
    page.get_by_role("combobox").fill(second)
    page.get_by_role("button", name="Ask").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(second)
    assert "previous" not in parse_qs(urlparse(page.url).query)
    expect(page.locator("section.answer")).not_to_contain_text(f"after “{first}”")
    page.get_by_role("link", name="Start afresh").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("section.answer")).to_have_count(0)


def test_preview_strip_shows_the_top_matches_and_stays_steady(page: Page, portfolio: tuple[str, str]) -> None:
    """The strip lists a few matches, each leading to its page; it asks once typing pauses, and a word still being
    typed never blanks what it shows."""
    page.goto("/")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/preview" in r.url else None)
    page.evaluate("""() => { window.states = [];
      new MutationObserver(() => window.states.push(document.getElementById('preview').innerText))
        .observe(document.getElementById('preview'), {childList: true, subtree: true, characterData: true}); }""")
    box = page.get_by_role("combobox")
    typed = TYPED[portfolio[0]]
    box.press_sequentially(typed, delay=40)
    links = page.locator("#preview [role=option]")
    expect(links).to_have_count(3)  # weights.yaml article_ask.preview
    for n in range(links.count()):
        assert re.match(r"^/(wiki|id)/\w+", links.nth(n).get_attribute("data-href") or "")
    assert len(asked) < len(typed) / 2  # debounced: not one request per keystroke
    states = page.evaluate("window.states")
    seen = next(i for i, s in enumerate(states) if " % · " in s)  # the first matches shown
    assert all("No match" not in s and s.strip() for s in states[seen:]), states
    links.first.click()
    expect(page).to_have_url(re.compile(r"/(wiki|id)/"))
