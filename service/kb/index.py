"""The passage index: Whoosh, one document per passage, with title, heading and body fields."""

from __future__ import annotations

from pathlib import Path

from whoosh import index as windex
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import ID, NUMERIC, TEXT, Schema

from service.kb.wiki import Article


def schema() -> Schema:
    analyzer = StemmingAnalyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        article=ID(stored=True),
        entity=ID(stored=True),
        kind=ID(stored=True),
        position=NUMERIC(stored=True),
        title=TEXT(analyzer=analyzer, stored=True),
        heading=TEXT(analyzer=analyzer, stored=True),
        body=TEXT(analyzer=analyzer, stored=True),
    )


def write_index(articles: list[Article], directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    ix = windex.create_in(str(directory), schema())
    writer = ix.writer()
    count = 0
    for article in articles:
        for p in article.passages:
            writer.add_document(
                id=p.id,
                article=p.article,
                entity=p.entity,
                kind=p.kind,
                position=p.position,
                title=p.title,
                heading=p.heading,
                body=p.text,
            )
            count += 1
    writer.commit()
    return count


def open_index(directory: Path) -> windex.Index:
    return windex.open_dir(str(directory), readonly=True)
