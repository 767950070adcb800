"""The meaning model: a text's unit vector. Built in by default (`EMBEDDINGS_MODEL=builtin`): the static word
embeddings of wordllama (256 dimensions, 32,000 tokens; its wheel carries the weights and the tokenizer), read
in-process with no server and no download. An OpenAI-compatible embeddings server is the other choice
(`EMBEDDINGS_MODEL=<its model>` with `LLM_BASE_URL`).

The built-in model is what wordllama's own `embed(..., norm=True)` computes — the tokens' rows averaged, then
scaled to length one (tests/engine/test_meaning_model.py compares the two) — without importing the wordllama package,
which pulls in the Hugging Face hub client and its HTTP stack (about 35 MB more in every serving process). The
weights are mapped from the installed file, half precision as shipped: a process only reads the rows of the
tokens it meets, and every process on the machine shares them through the page cache.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from service.model_settings import Settings
from service.provider import Provider, ProviderError

# every serving process answers one request at a time on one core: numpy's BLAS threads and the tokenizer's
# thread pool would only contend with the other workers (set before numpy is first imported; an owner's own
# setting wins)
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import numpy as np  # noqa: E402

# np: the service's numpy, imported here only after the thread settings above (meaning.py, vectors.py use it)
__all__ = ["BUILTIN_NAME", "Builtin", "Model", "ModelError", "Served", "builtin", "model_name", "np",
           "open_model", "unit_rows"]

BUILTIN_NAME = "wordllama-l2-supercat-256"  # what a KB's vectors record, so another model's are never compared
WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
MAX_CHARS = 4000  # of one text: a passage's heading and text, a label, a question
BATCH = 512  # texts at once above which the tokenizer works in parallel (a build), not one by one


class ModelError(Exception):
    """The model could not embed: not installed, or the provider failed. `reason` is short and safe to show."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Vectors = Any  # a numpy float32 array, one unit row per text


@dataclass
class Builtin:
    """wordllama's static embeddings, read from its installed files."""

    name: str
    rows: Any  # np.memmap float16, (vocabulary, dims)
    tokenizer: Any  # tokenizers.Tokenizer
    lock: threading.Lock

    @property
    def dims(self) -> int:
        return int(self.rows.shape[1])

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        with self.lock:  # a Tokenizer is not documented as safe to share between threads
            if len(texts) > BATCH:  # the build's passages: in parallel
                encoded = self.tokenizer.encode_batch([t[:MAX_CHARS] for t in texts], add_special_tokens=False)
            else:  # a question, a few words: one by one, no thread pool woken on every request
                encoded = [self.tokenizer.encode(t[:MAX_CHARS], add_special_tokens=False) for t in texts]
        top = self.rows.shape[0] - 1
        for at, enc in enumerate(encoded):
            ids = np.clip(np.asarray(enc.ids, dtype=np.int64), 0, top)
            if len(ids):
                out[at] = self.rows[ids].astype(np.float32).mean(axis=0)
        return unit_rows(out)


@dataclass
class Served:
    """An OpenAI-compatible embeddings server's model."""

    name: str
    provider: Provider
    timeout: float | None = None
    batch: int = 32

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows: list[list[float]] = []
        try:
            for at in range(0, len(texts), self.batch):
                chunk = [t[:MAX_CHARS] for t in texts[at : at + self.batch]]
                rows += self.provider.embed(self.name, chunk, timeout=self.timeout)
        except ProviderError as e:
            raise ModelError(e.reason) from None
        if len({len(r) for r in rows}) > 1:
            raise ModelError("vectors of different sizes")
        return unit_rows(np.asarray(rows, dtype=np.float32).reshape(len(texts), -1))


Model = Builtin | Served


def unit_rows(matrix: Vectors) -> Vectors:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def model_name(settings: Settings) -> str | None:
    """The name a KB's vectors are recorded under for these settings, or None when meaning is off."""
    if not settings.embeddings:
        return None
    return BUILTIN_NAME if settings.builtin else settings.embeddings_model


def open_model(settings: Settings, *, timeout: float | None = None) -> Model | None:
    """The model the settings name, or None when meaning is off. ModelError when the built-in model is not
    installed (the `wordllama` package, a dependency)."""
    name = model_name(settings)
    if name is None:
        return None
    if name == BUILTIN_NAME:
        return builtin()
    return Served(name, Provider(settings.base_url, settings.api_key, timeout or settings.timeout), timeout)


@cache
def builtin() -> Builtin:
    """The built-in model, loaded once per process (about 60 ms)."""
    spec = find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("the built-in meaning model needs the wordllama package (pip install wordllama)")
    folder = Path(next(iter(spec.submodule_search_locations)))
    from tokenizers import Tokenizer  # noqa: PLC0415  # a dependency of wordllama: only with the built-in model

    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    _give_back()
    return Builtin(BUILTIN_NAME, _safetensor(folder / WEIGHTS), tokenizer, threading.Lock())


def _give_back() -> None:
    """Return to the system the heap the tokenizer's JSON was parsed in (glibc keeps freed memory for the
    process otherwise: about 4 MB of every serving process's share of the model)."""
    with contextlib.suppress(OSError, AttributeError):  # another C library: its own way
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _safetensor(path: Path) -> Any:
    """The one tensor of a safetensors file, mapped read-only: an 8-byte little-endian header length, a JSON
    header naming each tensor's dtype, shape and byte offsets, then the data."""
    with path.open("rb") as f:
        size = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(size))
    tensors = {k: v for k, v in header.items() if k != "__metadata__"}
    if len(tensors) != 1:
        raise ModelError(f"{path.name}: expected one tensor, found {len(tensors)}")
    (meta,) = tensors.values()
    dtype = {"F16": np.float16, "F32": np.float32}.get(meta["dtype"])
    if dtype is None:
        raise ModelError(f"{path.name}: unsupported dtype {meta['dtype']}")
    start, _ = meta["data_offsets"]
    return np.memmap(path, dtype=dtype, mode="r", offset=8 + size + start, shape=tuple(meta["shape"]))
