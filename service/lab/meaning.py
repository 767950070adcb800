"""f. Meaning search: the question's vector against every passage's, by the meaning model (built in by default,
docs/MODEL.md). HyDE, which first has a language model write a pretend answer, is not run: the lab asks no
model to write."""

from __future__ import annotations

from service.config import SETTINGS, setting
from service.lab.asked import Asked
from service.lab.model import Step, Technique

_ON = ("1", "on", "true", "yes")


def provider_off(name: str) -> str:
    """Why meaning search cannot run."""
    if name not in SETTINGS or setting(name).strip().lower() not in _ON:
        return f"off: the meaning model is switched off ({name})"
    return "off: the knowledge base has no vectors of this meaning model (build it again with the model on)"


def meaning(asked: Asked) -> Technique:
    t = Technique(
        "meaning",
        "Meaning search",
        "Meaning search compares embeddings (lists of numbers that stand for a text's meaning) instead of words: the "
        "question's and every passage's, made by the same model, so a passage can match without sharing a word.",
        "similarity = cos(embedding(question), embedding(passage))",
        shown=asked.tuning.shown,
    )
    model = asked.engine.meaning
    if model is None:
        t.off = provider_off(asked.tuning.meaning_setting)
        t.steps = [Step(f"Nothing was run: {t.off}.")]
        return t
    vector = model.vector(asked.question)
    if vector is None:
        t.off = "off: the meaning model did not answer in time (it is asked again after a cool-down)"
        t.steps = [Step(f"Nothing was run: {t.off}.")]
        return t
    found = model.nearest(vector, asked.tuning.depth)
    t.steps = [
        Step(f"Embedded the question with {model.model.name}: one vector of {len(vector)} numbers, length one."),
        Step(f"Compared it with the {len(model.docs)} passages' vectors, made at build; kept the best {t.shown}."),
    ]
    t.ranking = [asked.passage_hit(doc, score, f"cos = {score:.3f}") for doc, score in found]
    return t
