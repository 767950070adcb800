"""The passage index: Whoosh, one document per passage, with title, heading and body fields.

Text is analysed by the engine's own tokenizer and stemmer (service/engine/text.py), so the index and the
questions agree on what a word is. Stop words are kept in the index and dropped from questions.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.analysis import Token, Tokenizer
from whoosh.fields import ID, NUMERIC, TEXT, Schema

from service.kb.wiki import Article
from service.text import terms


class FolioTokenizer(Tokenizer):  # type: ignore[misc]
    """Whoosh's side of service.text.terms."""

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for n, term in enumerate(terms(value)):
            token.text = term
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = term
            if positions:
                token.pos = start_pos + n
            yield token


def schema() -> Schema:
    analyzer = FolioTokenizer()
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
