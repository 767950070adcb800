"""Wiki pages: every source link lands on its heading, a table of contents, and "ask this article" (seed 003),
over real HTTP and in real Chromium, on both portfolios."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from service.engine.plan import Planner
from service.fallback.evidence import passage_url
from service.kb import KB
from service.web.article import ask_article
from tests.web.conftest import SHOTS

# per portfolio: an article, a question it answers (and the heading that answers it), one it does not cover
ARTICLES = {
    "demo": ("Tidewise", "why simulated annealing?", "design-decisions", "what do you think about the election?"),
    "mateo": ("AriaFirmware", "how does the firmware work?", "how-it-works", "what is his favourite football club?"),
}


# questions no article of either portfolio covers (seed 003's adversarial list): every article must decline them
OFF_TOPIC = ["what do you think about the election?", "should I buy bitcoin?", "tell me a joke",
             "who will win the war?", "what licence does the linux kernel use?", "what is the capital of France?",
             "what is her phone number?"]  # fmt: skip


@pytest.mark.parametrize("which", ["planner", "mateo_planner"])
def test_each_article_answers_its_own_headings_and_declines_what_it_does_not_cover(
    request: pytest.FixtureRequest, which: str
) -> None:
    """Seed 003's two lists, made from the KB: a section's own heading, asked of its article, lands on that
    section; off-topic questions fall through to the contact on every article."""
    planner: Planner = request.getfixturevalue(which)
    engine = planner.engine
    by_article: dict[str, set[str]] = {}
    for p in engine.kb.passages:
        if p.kind != "lead":
            by_article.setdefault(p.article, set()).add(p.heading.split(" › ")[-1])
    landed = asked = declined = refused = 0
    for name, headings in by_article.items():
        for heading in headings:
            asked += 1
            landed += ask_article(engine, name, heading).section == heading
        for question in OFF_TOPIC:
            refused += 1
            declined += ask_article(engine, name, question).passage is None
    assert landed / asked >= 0.95, (landed, asked)  # 581 of 601 and 90 of 92 when written
    assert declined / refused >= 0.99, (declined, refused)  # 888 of 889 and 154 of 154


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(v for k, v in attrs if k == "id" and v)


def ids_of(html: str) -> set[str]:
    parser = _Ids()
    parser.feed(html)
    return parser.ids


@pytest.fixture(params=["demo", "mateo"])
def portfolio(request: pytest.FixtureRequest) -> tuple[str, str, Path]:
    """(name, base URL, KB path) of each portfolio."""
    name = request.param
    server = request.getfixturevalue("server" if name == "demo" else "mateo_server")
    kb = request.getfixturevalue("demo_kb_path" if name == "demo" else "mateo_kb_path")
    return name, server, kb


def test_every_passage_link_has_its_heading_on_the_page(portfolio: tuple[str, str, Path]) -> None:
    """The link an answer gives for each passage (/wiki/NAME#slug) names an element of the article's page."""
    _, server, path = portfolio
    kb = KB.open(path)
    pages: dict[str, set[str]] = {}
    missing = []
    with httpx.Client(base_url=server, timeout=30) as http:
        for p in kb.passages:
            url = passage_url(p)
            page, _, anchor = url.partition("#")
            if page not in pages:
                pages[page] = ids_of(http.get(page).text)
            if anchor and anchor not in pages[page]:
                missing.append(url)
    assert len(pages) == len(kb.articles) and not missing, missing[:5]


def test_wiki_page_has_a_table_of_contents(portfolio: tuple[str, str, Path]) -> None:
    name, server, _ = portfolio
    article, _, heading, _ = ARTICLES[name]
    html = httpx.get(f"{server}/wiki/{article}").text
    toc = re.search(r'<nav class="toc".*?</nav>', html, re.S)
    assert toc is not None and f'href="#{heading}"' in toc.group(0)
    assert f'<h2 id="{heading}">' in html


def test_ask_this_article_without_javascript(portfolio: tuple[str, str, Path]) -> None:
    """The form is answered on the server: the best passage with its badge, or not covered with the contact."""
    name, server, _ = portfolio
    article, question, heading, off_topic = ARTICLES[name]
    answered = httpx.get(f"{server}/wiki/{article}", params={"q": question}).text
    assert "Answered from this article" in answered and f'href="#{heading}"' in answered
    declined = httpx.get(f"{server}/wiki/{article}", params={"q": off_topic}).text
    assert "Not covered: this article does not answer that" in declined
    assert re.search(r'class="contact" href="mailto:hello@[a-z]+\.example\?subject=', declined)


def test_article_api(portfolio: tuple[str, str, Path]) -> None:
    name, server, _ = portfolio
    article, question, heading, off_topic = ARTICLES[name]
    with httpx.Client(base_url=server, timeout=30) as http:
        doc = http.get("/api/article", params={"name": article, "q": question}).json()
        assert doc["answered"] and doc["passage"]["url"] == f"/wiki/{article}#{heading}" and doc["score"] >= 38
        assert doc["label"] in ("High", "Medium", "Low")
        off = http.get("/api/article", params={"name": article, "q": off_topic}).json()
        assert not off["answered"] and off["passage"] is None and off["contact_url"].startswith("mailto:")
        assert http.get("/api/article", params={"name": "Nothing", "q": "why"}).status_code == 404
        assert http.get("/api/article", params={"name": article}).status_code == 422
        assert http.get("/api/article", params={"q": "why"}).status_code == 422
        assert http.get("/api/article", params={"name": article, "q": "x" * 501}).status_code == 422
        assert "/api/article" in http.get("/openapi.json").json()["paths"]
        for bad in ("x" * 501, "why%01", "%ED%A0%80"):  # the page refuses what the API refuses, never a 500
            assert http.get(f"/wiki/{article}?q={bad}").status_code in (400, 422), bad


@pytest.fixture
def page(browser: Browser, portfolio: tuple[str, str, Path]) -> Iterator[Page]:
    context = browser.new_context(base_url=portfolio[1], viewport={"width": 1100, "height": 900})
    p = context.new_page()
    yield p
    context.close()


def _at_top(page: Page, heading: str) -> None:
    target = page.locator(f"[id='{heading}']")
    expect(target).to_be_in_viewport()
    assert page.evaluate("document.querySelector(':target')?.id") == heading
    box = target.bounding_box()
    assert box is not None and box["y"] < 60, box  # scrolled to the heading, not left at the top of the article
    assert page.evaluate("window.scrollY") > 100


def test_a_source_link_lands_on_its_heading(page: Page, portfolio: tuple[str, str, Path]) -> None:
    name = portfolio[0]
    article, _, heading, _ = ARTICLES[name]
    page.goto(f"/wiki/{article}")
    # the answer page's source link for a passage under that heading
    link = page.evaluate("(h) => location.origin + location.pathname + '?from=x#' + h", heading)
    page.goto(link)
    _at_top(page, heading)
    page.goto(f"/wiki/{article}")
    page.locator("nav.toc").get_by_role("link").nth(1).click()  # the table of contents too
    assert page.evaluate("document.querySelector(':target')?.tagName") == "H2"
    if name == "demo":
        page.goto("/?q=why did she choose simulated annealing for Tidewise")
        cited = page.locator("details.source").filter(has_text="simulated annealing")  # the passage, not the graph
        cited.locator("summary").click()
        cited.get_by_role("link", name="Read the full article").click()
        expect(page).to_have_url(re.compile(r"/wiki/Tidewise\?from=\w+#design-decisions$"))
        _at_top(page, "design-decisions")
        page.goto(f"/wiki/{article}")
        page.screenshot(path=str(SHOTS / "wiki-article-toc.png"))


def test_the_article_ask_box_answers_and_abstains(page: Page, portfolio: tuple[str, str, Path]) -> None:
    name = portfolio[0]
    article, question, heading, off_topic = ARTICLES[name]
    page.goto(f"/wiki/{article}")
    page.evaluate("window.stayed = true")  # gone if the page reloads
    box = page.get_by_label(re.compile("Your question about"))
    box.press_sequentially(question, delay=30)
    # before it is sent, the strip under the box shows the section the words so far match
    expect(page.locator("#article_preview [role=option]")).to_have_attribute("data-href", f"#{heading}")
    expect(page.locator("#article_preview")).to_contain_text(re.compile(r"\d+ % · (High|Medium|Low) match"))
    box.press("Enter")
    answer = page.locator(".article-answer")
    expect(answer.locator(".badge")).to_contain_text("Answered from this article")
    expect(answer.locator(".badge")).to_contain_text(re.compile(r"\d+ % · (High|Medium|Low) match"))
    expect(answer.locator("blockquote")).not_to_be_empty()
    assert page.evaluate("window.stayed") is True
    expect(page).to_have_url(re.compile(r"\?q=.+#ask_article$"))
    if name == "demo":
        page.locator(".article-ask").screenshot(path=str(SHOTS / "article-ask.png"))
    answer.get_by_role("link", name=re.compile("Read it in the article")).click()
    _at_top(page, heading)
    box.fill(off_topic)
    box.press("Enter")
    expect(answer.locator(".badge")).to_have_text(re.compile(r"\d+ % · No match"))
    expect(answer).to_contain_text("this article does not answer that")
    expect(answer.locator("a.contact")).to_have_attribute("href", re.compile(r"^mailto:hello@\w+\.example\?subject="))
