"""f. HyDE and meaning (embedding) search: they need a meaning-search provider, and run only when one is on."""

from __future__ import annotations

from service.config import SETTINGS, setting
from service.lab.asked import Asked
from service.lab.model import Step, Technique

_ON = ("1", "on", "true", "yes")


def provider_off(name: str) -> str | None:
    """Why meaning search cannot run, or None when the provider is configured and on."""
    if name not in SETTINGS or setting(name).strip().lower() not in _ON:
        return f"off: no meaning-search provider is configured ({name})"
    return f"off: {name} is on, but the lab has no meaning-search client yet"


def meaning(asked: Asked) -> Technique:
    name = asked.tuning.meaning_setting
    t = Technique(
        "meaning",
        "HyDE and meaning search",
        "Meaning search compares embeddings (lists of numbers that stand for a text's meaning) instead of words; "
        "HyDE first writes a pretend answer and searches for passages that mean the same. Both need a model.",
        "similarity = cos(embedding(question or pretend answer), embedding(passage))",
        shown=asked.tuning.shown,
    )
    t.off = provider_off(name)
    t.steps = [Step(f"Nothing was run: {t.off}.")]
    return t
