"""A wiki article as HTML: every heading with the id its passages' links end in, and a table of contents.

A passage's link is /wiki/NAME#SLUG, SLUG being the slug of the heading it sits under (service/kb/wiki.py,
`slug`; service/engine/state.py builds the links), so each heading's id is that same slug; a heading that
repeats one before it in the article gets -2, -3 ... (only the first can be a link's target).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from service.kb.wiki import heading_key, inline_text

TOC_LEVELS = ("h2", "h3")  # the headings the table of contents lists (an article's title is its h1)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    id: str


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: list[Heading]


def _heading_ids(state: StateCore) -> None:
    used: dict[str, int] = {}
    toc: list[Heading] = state.env.setdefault("toc", [])
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = inline_text(tokens[i + 1])
        key = heading_key(text, used)
        token.attrSet("id", key)
        if token.tag in TOC_LEVELS:
            toc.append(Heading(int(token.tag[1]), text, key))


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.core.ruler.push("heading_ids", _heading_ids)
    return md


_md = _markdown()


def render(body: str) -> Rendered:
    """The article's body (after its title line) as HTML, and its headings for the table of contents."""
    env: dict[str, Any] = {}
    html = _md.render(body, env)
    toc: Sequence[Heading] = env.get("toc", [])
    return Rendered(html, list(toc))
