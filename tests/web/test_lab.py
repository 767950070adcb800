"""GET /lab over the real server: the techniques side by side as a page without script, the same as JSON, a clear
4xx for bad input, and in the browser, the lab opened from an answer."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.test_browser import page  # noqa: F401  # the browser page fixture, one for both modules

NAMES = ["Plain keyword search", "Query rewriting with the synonym table", "Graph hops", "Whole-article retrieval",
         "Multi-query with rank fusion", "Meaning search", "Parent document", "Chunk sizes"]  # fmt: skip
HTML = {"Accept": "text/html"}


def test_lab_page_shows_every_technique_with_steps_scores_and_formulas(http: httpx.Client) -> None:
    r = http.get("/lab", params={"q": "how much did Lantern cost"}, headers=HTML)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    shown = r.text
    assert "<script" not in shown  # a plain GET form and server-rendered results: nothing needs JavaScript
    assert '<form class="ask" action="/lab" method="get"' in shown
    assert 'value="how much did Lantern cost"' in shown
    assert shown.count('<section class="technique') == len(NAMES)
    for name in NAMES:
        assert f". {name}</h2>" in shown
    assert "ln(1 + (N − n + 0.5) / (n + 0.5))" in shown and "1 / (60 + rank)" in shown
    assert re.search(r"1/6\d \(wording 1\)", shown), "fused scores show their 1/(60 + rank) terms"
    assert "cos = " in shown  # meaning search ran, with the built-in model
    assert re.search(r'<a href="/wiki/[^"]+">', shown) and "score " in shown
    assert "Against plain search:" in shown


def test_lab_json_holds_the_same_report(http: httpx.Client) -> None:
    r = http.get("/lab", params={"q": "how much did Lantern cost", "format": "json"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    doc = r.json()
    assert doc["question"] == "how much did Lantern cost" and doc["words"]
    assert [t["name"] for t in doc["techniques"]] == NAMES
    for t in doc["techniques"]:
        assert t["formula"] and t["steps"]
        if t["off"] is None:
            assert t["hits"] and all(h["url"].startswith("/wiki/") and h["why"] for h in t["hits"])
    wiki = http.get(doc["techniques"][0]["hits"][0]["url"], headers=HTML)
    assert wiki.status_code == 200


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("", 422, "`q` is required"),
        ("?q=", 422, "`q` is required"),
        ("?q=%20%20", 422, "`q` is required"),
        ("?q=" + "a" * 600, 422, "limited to 500 characters"),
        ("?q=a%00b", 422, "control characters"),
        ("?q=%ED%A0%80", 400, "not valid UTF-8"),
        ("?q=lantern&format=xml", 422, "`format` is html or json"),
    ],
)
def test_bad_input_gets_a_clear_4xx(http: httpx.Client, query: str, status: int, says: str) -> None:
    asked = query if "format=" in query else query + ("&" if "?" in query else "?") + "format=json"
    as_json = http.get("/lab" + asked)
    assert as_json.status_code == status and says in as_json.json()["error"]["message"]
    shown = http.get("/lab" + query, headers=HTML)
    assert shown.status_code == status
    assert says in shown.text.replace("&#96;", "`") and 'action="/lab"' in shown.text  # the form, to try again


def test_every_answer_links_to_the_lab(http: httpx.Client) -> None:
    for question in ("tell me about Lantern", "what do you think about the election?"):  # answered, declined
        shown = http.get("/", params={"q": question}, headers=HTML).text
        link = re.search(r'<a href="(/lab\?q=[^"]+)">Open this question in the retrieval lab</a>', shown)
        assert link, question
        assert http.get(link.group(1), headers=HTML).status_code == 200


def test_browser_opens_the_lab_from_an_answer(page: Page) -> None:  # noqa: F811
    page.goto("/")
    page.get_by_label("Ask about her work").fill("what is the Lantern query syntax?")
    page.keyboard.press("Enter")
    expect(page.locator("section.answer")).to_be_visible()
    page.get_by_role("link", name="Open this question in the retrieval lab").click()
    expect(page).to_have_url(re.compile(r"/lab\?q=what"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Retrieval lab")
    expect(page.get_by_label("Question")).to_have_value("what is the Lantern query syntax?")
    expect(page.locator("section.technique h2")).to_have_count(len(NAMES))
    for name in NAMES:
        expect(page.get_by_role("heading", name=re.compile(re.escape(name)))).to_be_visible()
    expect(page.locator("#t-graph ol.hits a").first).to_have_attribute("href", re.compile(r"^/wiki/"))
