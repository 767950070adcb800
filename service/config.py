"""Every setting, declared once: name, default and help. Read from the environment when asked, never at import."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    help: str

    def get(self) -> str:
        return os.environ.get(self.name, self.default)


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "KB_DIR",
            str(ROOT / "var" / "kb"),
            "Where the built knowledge base lives (a symlink to the current build).",
        ),
        Setting("ONTOLOGY_DIR", str(ROOT / "ontology"), "The ontology and SHACL shapes (*.ttl)."),
        Setting("DATA_DIR", str(ROOT / "data"), "The portfolio's graph (*.ttl) and its lexicon (lexicon/*.yaml)."),
        Setting("WIKI_DIR", str(ROOT / "wiki"), "The wiki articles (**/*.md with front matter)."),
        Setting("QUERIES_DIR", str(ROOT / "queries"), "The stored SPARQL queries (*.rq)."),
        Setting("CACHE_DIR", str(ROOT / "var" / "cache"), "Reasoning results, keyed by the digest of ontology + data."),
        Setting("TODAY", "", "Plan questions as if today were this date (YYYY-MM-DD); empty means the real date."),
        Setting("PLAN_CACHE", "4096", "How many plans each web worker keeps for repeated questions (0: none)."),
        Setting(
            "QUERY_CACHE",
            "2048",
            "How many stored-query runs each web worker keeps for plans that repeat them (0: none).",
        ),
        Setting("SPARQL_WORKERS", "2", "Worker processes that run console and /sparql queries."),
        Setting("SPARQL_TIMEOUT", "10", "Seconds a /sparql query may run before its worker is killed and replaced."),
        Setting(
            "SPARQL_ROW_CAP", "10000", "Rows (or triples) a /sparql result is cut to; the cut is said in a header."
        ),
        Setting("SPARQL_MAX_BODY", "65536", "Bytes a /sparql request body may have."),
        Setting("SPARQL_CLIENT_LIMIT", "4", "Queries one client may have running at once; more get 429."),
        Setting("KEEP_BUILDS", "2", "How many finished builds to keep beside the current one's predecessor."),
    )
}


def setting(name: str) -> str:
    """The value of a declared setting; a typo is an error, not a silent default."""
    try:
        return SETTINGS[name].get()
    except KeyError:
        raise KeyError(f"Setting {name!r} is not declared in service/config.py") from None


def path_setting(name: str) -> Path:
    return Path(setting(name)).expanduser()
