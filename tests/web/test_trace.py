"""The trace on the web: `/api/ask?trace=1` adds the steps to the Plan JSON, the ask page shows them as an
ordered list under "How this answer was found", linked from every answer; a bad flag is a 422."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.web.test_browser import page  # noqa: F401  # the browser page over the demo server


def test_api_adds_the_trace_only_when_asked(http: httpx.Client) -> None:
    plain = http.get("/api/ask", params={"q": "Rust projects"}).json()
    traced = http.get("/api/ask", params={"q": "Rust projects", "trace": "1"}).json()
    assert "trace" not in plain
    stages = [s["stage"] for s in traced["trace"]]
    assert stages[0] == "linking" and stages[-1] == "confidence" and "query" in stages
    query = next(s for s in traced["trace"] if s["stage"] == "query")
    first = traced["sparql"][0]
    assert query["facts"]["query"] == first["name"] and query["facts"]["rows"] == first["rows"]
    assert {k: v for k, v in traced.items() if k not in ("trace", "timing_ms", "answer_id")} == \
        {k: v for k, v in plain.items() if k not in ("timing_ms", "answer_id")}  # fmt: skip


def test_a_post_may_ask_for_the_trace_too(http: httpx.Client) -> None:
    body = http.post("/api/ask", json={"question": "how many papers?", "trace": True}).json()
    assert any(s["stage"] == "intent" and "count" in s["text"] for s in body["trace"])


def test_a_bad_trace_flag_is_a_clear_422(http: httpx.Client) -> None:
    r = http.get("/api/ask", params={"q": "Rust projects", "trace": "maybe"})
    assert r.status_code == 422 and "trace" in r.json()["error"]["message"]
    html = http.get("/", params={"q": "Rust projects", "trace": "<x>"}, headers={"Accept": "text/html"})
    assert html.status_code == 422


def test_the_ask_page_links_to_and_shows_how_the_answer_was_found(http: httpx.Client) -> None:
    html = http.get("/", params={"q": "which works implement Geohashing?"}).text
    link = re.search(r'href="(/\?q=[^"]*trace=1#trace)"', html)
    assert link and "How this answer was found" in html and 'id="trace"' not in html
    shown = http.get(link.group(1).replace("&amp;", "&")).text
    steps = re.findall(r'<li><span class="stage">(\w+)</span>', shown)
    assert 'id="trace"' in shown and steps[0] == "linking" and steps[-1] == "confidence"
    assert "undone" in shown and "implement" in shown


def test_a_visitor_opens_how_the_answer_was_found(page: Page) -> None:  # noqa: F811
    page.goto("/")
    page.get_by_label("Ask about her work").fill("which works implement Geohashing?")
    page.keyboard.press("Enter")
    expect(page.locator("section.answer")).to_be_visible()
    page.get_by_role("link", name="How this answer was found").click()
    expect(page).to_have_url(re.compile(r"trace=1#trace$"))
    steps = page.locator("#trace ol.steps li")
    expect(steps.first).to_contain_text("linking")
    expect(steps.last).to_contain_text("confidence")
    expect(page.locator("#trace")).to_contain_text("undone")
