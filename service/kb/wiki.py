"""Wiki articles: front matter, and the split into passages.

A passage is the lead (everything before the first heading), then one passage per paragraph (or list)
under each heading. Code blocks, tables, images and raw HTML are not indexed. Each passage has a stable
id made of the article, the heading path and its position under that heading, so editing one section
leaves the ids of the others alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from service import yamlfile
from service.errors import Problem, display_path

_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)
_LINK = re.compile(r"\]\((/(?:id|wiki)/[^)\s#?]+)[^)]*\)")
_md = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Passage:
    id: str
    article: str
    entity: str
    title: str
    heading: str
    text: str
    kind: str  # "lead" or "section"
    position: int


@dataclass
class Article:
    name: str  # the entity's local name; /wiki/NAME
    entity: str
    title: str
    path: str
    markdown: str
    passages: list[Passage] = field(default_factory=list)
    links: list[tuple[str, int]] = field(default_factory=list)  # (/id/X or /wiki/X, line)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def heading_key(text: str, used: dict[str, int]) -> str:
    """A heading's key in its article (its passages' ids, its anchor on the page): its slug, with -2, -3 ...
    for a slug seen before in the same article (`used` counts them)."""
    key = slug(text)
    used[key] = used.get(key, 0) + 1
    return key if used[key] == 1 else f"{key}-{used[key]}"


def read_article(path: Path) -> tuple[Article | None, list[Problem]]:
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        return None, [Problem(shown, 0, "encoding", f"not UTF-8: {e.reason}")]
    m = _FRONT.match(text)
    if not m:
        return None, [Problem(shown, 1, "front-matter", "an article starts with front matter between --- lines")]
    try:
        front = yamlfile.load(m.group(1)) or {}
    except yaml.YAMLError as e:
        at = yamlfile.error_line(e) + 1  # the front matter starts on the line after the first ---
        return None, [Problem(shown, at, "front-matter", f"invalid YAML: {yamlfile.error_message(e)}")]
    problems = []
    if not isinstance(front, dict) or not isinstance(front.get("entity"), str) or not front["entity"].strip():
        return None, [Problem(shown, 2, "front-matter", "front matter needs `entity:` naming the entity")]
    entity = front["entity"].strip()
    title = str(front.get("title") or entity)
    body_start = text[: m.end()].count("\n")
    body = text[m.end() :]
    article = Article(name=entity.rsplit("/", 1)[-1], entity=entity, title=title, path=shown, markdown=body)
    article.passages = _passages(article, body)
    for number, line in enumerate(body.splitlines(), start=body_start + 1):
        article.links.extend((target, number) for target in _LINK.findall(line))
    if not article.passages:
        problems.append(Problem(shown, body_start + 1, "content", "the article has no text to index"))
    return article, problems


def inline_text(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            continue
    return "".join(parts).strip()


def _passages(article: Article, body: str) -> list[Passage]:
    tokens = _md.parse(body)
    lead: list[str] = []
    sections: list[tuple[str, list[str]]] = []  # (heading path, blocks)
    path: list[tuple[int, str]] = []
    depth = 0  # nesting of tables, lists and blockquotes
    in_table = False
    list_items: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            level = int(tok.tag[1])
            text = inline_text(tokens[i + 1])
            path = [(lv, t) for lv, t in path if lv < level] + [(level, text)]
            sections.append((" › ".join([article.title, *(t for _, t in path)]), []))
        elif tok.type == "table_open":
            in_table = True
        elif tok.type == "table_close":
            in_table = False
        elif tok.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0 and list_items:
                (sections[-1][1] if sections else lead).append(" ".join(list_items))
                list_items = []
        elif tok.type == "inline" and not in_table and tokens[i - 1].type == "paragraph_open":
            text = inline_text(tok)
            if not text:
                continue
            if depth:
                list_items.append(text)
            else:
                (sections[-1][1] if sections else lead).append(text)
    out: list[Passage] = []
    if lead:
        out.append(_passage(article, "lead", 0, article.title, " ".join(lead), "lead", 0))
    used: dict[str, int] = {}
    for heading, blocks in sections:
        key = heading_key(heading.split(" › ", 1)[-1], used)
        for n, text in enumerate(blocks):
            out.append(_passage(article, key, n, heading, text, "section", len(out)))
    return out


def _passage(article: Article, key: str, n: int, heading: str, text: str, kind: str, position: int) -> Passage:
    return Passage(
        id=f"{article.name}#{key}-{n}",
        article=article.name,
        entity=article.entity,
        title=article.title,
        heading=heading,
        text=text,
        kind=kind,
        position=position,
    )


def read_wiki(paths: list[Path]) -> tuple[list[Article], list[Problem]]:
    articles: list[Article] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in paths:
        article, found = read_article(path)
        problems.extend(found)
        if article is None:
            continue
        if article.name in seen:
            problems.append(
                Problem(
                    article.path,
                    2,
                    "duplicate",
                    f"{article.name} already has an article: {seen[article.name]}",
                )
            )
            continue
        seen[article.name] = article.path
        articles.append(article)
    return articles, problems
