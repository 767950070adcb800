"""The passages' vectors for meaning search, made at build time (EMBEDDINGS_ENABLED) through the provider and
stored in the KB with the model's name: `vectors/meta.json` (model, dims, ids) and `vectors/vectors.f32` (unit
vectors in the order of the ids). service/engine/meaning.py reads them at question time."""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path

from service.kb.wiki import Article, Passage
from service.model_settings import Settings
from service.provider import Provider, ProviderError

DIR = "vectors"
BATCH = 32


def passage_text(heading: str, text: str) -> str:
    return f"{heading}\n{text}"[:4000]


def embed_passages(articles: Sequence[Article], stage: Path, log: Callable[[str], None]) -> None:
    """The build's step (with EMBEDDINGS_ENABLED): the passages' vectors, made with EMBEDDINGS_MODEL."""
    settings = Settings.load()
    if not settings.embeddings:
        log("    not made: EMBEDDINGS_ENABLED needs LLM_BASE_URL and EMBEDDINGS_MODEL")
        return
    n = write_vectors([p for a in articles for p in a.passages], stage, settings, log)
    log(f"    {n} passages embedded with {settings.embeddings_model}")


def write_vectors(passages: Sequence[Passage], stage: Path, settings: Settings, log: Callable[[str], None]) -> int:
    """Embed every passage and write `vectors/` into the build: meta.json (model, dims, ids) and vectors.f32
    (unit vectors, in the order of the ids). A provider that fails leaves the KB without vectors (said)."""
    provider = Provider(settings.base_url, settings.api_key, settings.timeout)
    vectors: list[list[float]] = []
    try:
        for at in range(0, len(passages), BATCH):
            batch = passages[at : at + BATCH]
            vectors += provider.embed(settings.embeddings_model, [passage_text(p.heading, p.text) for p in batch])
    except ProviderError as e:
        log(f"    embeddings not made ({e.reason}): meaning search is off for this build")
        return 0
    dims = len(vectors[0]) if vectors else 0
    if any(len(v) != dims for v in vectors):
        log("    embeddings not made (vectors of different sizes): meaning search is off for this build")
        return 0
    (stage / DIR).mkdir()
    flat = array("f")
    for v in vectors:
        flat.extend(unit(v))
    (stage / DIR / "vectors.f32").write_bytes(flat.tobytes())
    meta = {"model": settings.embeddings_model, "dims": dims, "ids": [p.id for p in passages]}
    (stage / DIR / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return len(vectors)


def unit(v: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]
