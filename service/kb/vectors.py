"""The passages' vectors for meaning search, made at build time by the meaning model (service/embedding.py: built
in by default, or an embeddings server) and stored in the KB with the model's name: `vectors/meta.json` (model,
dims, ids) and `vectors/vectors.f32` (unit vectors in the order of the ids). service/engine/meaning.py reads
them at question time."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from service.embedding import ModelError, np, open_model
from service.kb.wiki import Article, Passage
from service.model_settings import Settings

DIR = "vectors"


def passage_text(heading: str, text: str) -> str:
    return f"{heading}\n{text}"


def embed_passages(articles: Sequence[Article], stage: Path, log: Callable[[str], None]) -> None:
    """The build's step (EMBEDDINGS_ENABLED, on by default): the passages' vectors, made with the model."""
    settings = Settings.load()
    n = write_vectors([p for a in articles for p in a.passages], stage, settings, log)
    if n:
        log(f"    {n} passages embedded")


def write_vectors(passages: Sequence[Passage], stage: Path, settings: Settings, log: Callable[[str], None]) -> int:
    """Embed every passage and write `vectors/` into the build: meta.json (model, dims, ids) and vectors.f32
    (unit vectors, in the order of the ids). A model that fails leaves the KB without vectors (said)."""
    try:
        model = open_model(settings)
        if model is None:
            log("    not made: EMBEDDINGS_ENABLED is off, or an embeddings server is named without LLM_BASE_URL")
            return 0
        vectors = model.embed([passage_text(p.heading, p.text) for p in passages])
    except ModelError as e:
        log(f"    embeddings not made ({e.reason}): meaning search is off for this build")
        return 0
    (stage / DIR).mkdir(exist_ok=True)
    (stage / DIR / "vectors.f32").write_bytes(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
    meta = {"model": model.name, "dims": int(vectors.shape[1]), "ids": [p.id for p in passages]}
    (stage / DIR / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return len(passages)
