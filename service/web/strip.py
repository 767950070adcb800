"""The preview strip's matches: the engine's best match so far, then the next best articles, as links.

The engine's preview (service/engine/preview.py) says the one best match and its score; the strip also lists
the few articles that come next for the same words, each linked to the section that holds them best, so a
visitor can open one before asking. How many: `article_ask.preview` in weights.yaml.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.engine.model import Plan
from service.engine.plan import Planner
from service.engine.preview import preview
from service.engine.retrieve import search_articles
from service.fallback.evidence import passage_url
from service.text import query_terms


def strip(planner: Planner, text: str, plan_of: Callable[[str], Plan] | None = None) -> dict[str, Any]:
    """/api/preview's answer: the engine's preview, plus `matches` (label, url, kind), the best first."""
    engine = planner.engine
    shown = preview(planner, text, plan_of)
    body = shown.to_json()
    if shown.best is None:
        return body | {"matches": []}
    limit = int(engine.weights["article_ask"]["preview"])
    floor = float(engine.weights["wiki_hits"]["min_coverage"])
    terms = query_terms(shown.query, engine.search_stopwords)
    found = search_articles(engine.passages, terms, engine.synonyms, engine.weights["article"], limit=limit)
    sections = {f"/wiki/{h.article}": passage_url(h.best.passage) for h in found if h.coverage >= floor}
    label, url = shown.best["label"], shown.best["url"]
    if any(h.best.passage.heading == label and f"/wiki/{h.article}" == url for h in found):
        url = sections.get(url, url)  # the best match is a section: link it, not the top of its article
    matches = [{"label": label, "url": url, "kind": shown.best["type"]}]
    for hit in found:
        page = f"/wiki/{hit.article}"
        if len(matches) < limit and page in sections and all(m["url"].partition("#")[0] != page for m in matches):
            matches.append({"label": hit.best.passage.heading, "url": sections[page], "kind": "Article"})
    return body | {"matches": matches}
