"""Articles split into passages: the lead, then one per paragraph under each heading; code is never indexed."""

from __future__ import annotations

from pathlib import Path

from service.kb.wiki import read_article

ARTICLE = """---
entity: Lantern
title: Lantern
---
Lantern is a search library.
It is written in Rust.

## How it works
It keeps an inverted index.

```python
print("code is not indexed")
```

| a table | is not indexed |
|---|---|
| x | y |

- a list of
- two items

### Scoring
BM25 with k1 = 1.2.

## How it works
A second section with the same heading.
"""


def test_passages(tmp_path: Path) -> None:
    path = tmp_path / "Lantern.md"
    path.write_text(ARTICLE)
    article, problems = read_article(path)
    assert not problems and article is not None
    texts = [(p.id, p.heading, p.kind, p.text) for p in article.passages]
    assert texts == [
        ("Lantern#lead-0", "Lantern", "lead", "Lantern is a search library. It is written in Rust."),
        ("Lantern#how-it-works-0", "Lantern › How it works", "section", "It keeps an inverted index."),
        ("Lantern#how-it-works-1", "Lantern › How it works", "section", "a list of two items"),
        (
            "Lantern#how-it-works-scoring-0",
            "Lantern › How it works › Scoring",
            "section",
            "BM25 with k1 = 1.2.",
        ),
        (
            "Lantern#how-it-works-2-0",
            "Lantern › How it works",
            "section",
            "A second section with the same heading.",
        ),
    ]
    assert "code is not indexed" not in " ".join(t[3] for t in texts)


def test_passage_ids_survive_edits_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "Lantern.md"
    path.write_text(ARTICLE)
    before, _ = read_article(path)
    path.write_text(ARTICLE.replace("It is written in Rust.", "It is written in Rust, since 2021."))
    after, _ = read_article(path)
    assert before is not None and after is not None
    assert [p.id for p in before.passages] == [p.id for p in after.passages]


def test_front_matter_is_required(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_text("# no front matter\n")
    article, problems = read_article(path)
    assert article is None
    assert problems[0].line == 1 and problems[0].check == "front-matter"
