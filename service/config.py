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
        Setting("CACHE_DIR", "", "Reasoning results, keyed by the digest of ontology + data; empty: a folder `cache` "
                "beside the knowledge base's (var/cache for var/kb), never the checkout's for a portfolio elsewhere."),
        Setting(
            "REASONER",
            "auto",
            "The OWL 2 RL reasoner: reasonable (fast), owlrl (the reference) or auto (reasonable when installed).",
        ),
        Setting("TODAY", "", "Plan questions as if today were this date (YYYY-MM-DD); empty means the real date."),
        Setting("PLAN_CACHE", "4096", "How many plans each web worker keeps for repeated questions (0: none)."),
        Setting(
            "QUERY_CACHE",
            "2048",
            "How many stored-query runs each web worker keeps for plans that repeat them (0: none).",
        ),
        Setting("MISSES_WAIT", "0.8", "Seconds the owner's misses page waits for a new report when the log changed; "
                "then it shows the last one while the new one is made."),
        Setting("SPARQL_WORKERS", "2", "Worker processes that run console and /sparql queries."),
        Setting("SPARQL_TIMEOUT", "10", "Seconds a /sparql query may run before its worker is killed and replaced."),
        Setting(
            "SPARQL_ROW_CAP", "10000", "Rows (or triples) a /sparql result is cut to; the cut is said in a header."
        ),
        Setting("SPARQL_MAX_BODY", "65536", "Bytes a /sparql request body may have."),
        Setting(
            "SPARQL_CACHE_MB",
            "32",
            "Megabytes of /sparql and console answers each web worker keeps for the build it serves, so a query "
            "asked again is answered without running (none that calls NOW, RAND, UUID, STRUUID or BNODE); 0: none.",
        ),
        Setting(
            "SPARQL_CLIENT_LIMIT",
            "4",
            "Queries one client may have running or waiting at once, across every web worker; more get 429.",
        ),
        Setting(
            "SPARQL_MEMORY_MB",
            "1024",
            "Memory (address space) a query may use in a SPARQL worker, on top of "
            "the store it opened; past it the query stops.",
        ),
        Setting("SPARQL_MAX_RESPONSE", "16777216", "Bytes a /sparql result may have; a longer one is cut and says so."),
        Setting("SPARQL_QUEUE", "64", "Queries that may wait for a SPARQL worker in each web worker; more get 503."),
        Setting("SPARQL_QUEUE_WAIT", "5", "Seconds a query may wait for a SPARQL worker; then 503 with Retry-After."),
        Setting(
            "SPARQL_FAIR_SHARE",
            "0.5",
            "Seconds a /sparql query runs before, when every worker is busy, a waiting "
            "query of a client that used less query time may stop it (503 with Retry-After); 0: never.",
        ),
        Setting(
            "SPARQL_CLIENT_BUDGET",
            "60",
            "Seconds of query time a client may have used lately (decaying over "
            "SPARQL_BUDGET_WINDOW), across every web worker; past it, 429 with Retry-After. 0: no budget.",
        ),
        Setting(
            "SPARQL_BUDGET_WINDOW",
            "60",
            "Seconds over which a client's use of query time decays (the time "
            "constant: a query weighs a third of its time after one window).",
        ),
        Setting(
            "SPARQL_SANDBOX",
            "on",
            "Cut SPARQL workers off the network (network namespace and seccomp, as the host allows); off for tests.",
        ),
        Setting(
            "FORWARDED_ALLOW_IPS",
            "",
            "Proxies whose X-Forwarded-For gives the client address (comma-separated IPs, or *); none by default.",
        ),
        Setting("HEADER_TIMEOUT", "10", "Seconds a client may take to send a request's headers before it is closed."),
        Setting("BODY_TIMEOUT", "30", "Seconds a client may take to send a request's body before it is closed."),
        Setting("MAX_CONNECTIONS", "1000", "Open connections and requests a web worker takes; more get 503."),
        Setting("RELOAD_INTERVAL", "2", "Seconds between looks for a newer build, served without a restart."),
        Setting("CACHE_MAX_AGE", "300", "Seconds a read-only response (page, entity, dump) may be cached."),
        Setting("QUESTION_LOG", "on", "Log each answered question (no address, no identifier); off writes nothing."),
        Setting(
            "LOG_DATABASE_URL",
            "",
            "Where the question log goes: sqlite:///PATH (default var/log/questions.sqlite3) or postgresql://...",
        ),
        Setting("LOG_RETENTION_DAYS", "90", "Days a logged question is kept; older rows are deleted."),
        Setting("LOG_MAX_ROWS", "500000", "Rows the question log keeps at most; past it the oldest go."),
        Setting("LOG_CLIENT_PER_MINUTE", "20", "Questions one client may add to the log a minute; more go unlogged."),
        Setting("ADMIN_TOKEN", "", "The owner's token for /-/misses (bearer header or login form); empty: no page."),
        Setting("OWNER_SESSION_HOURS", "12", "Hours the owner's login cookie is valid."),
        Setting("LOGIN_ATTEMPTS", "5", "Wrong owner tokens one client may send per LOGIN_WINDOW."),
        Setting("LOGIN_ATTEMPTS_ALL", "50", "Wrong owner tokens all clients together may send per LOGIN_WINDOW."),
        Setting("LOGIN_WINDOW", "900", "Seconds over which wrong owner tokens are counted (per web worker)."),
        Setting("WORKERS", "1", "Web worker processes `serve` starts (its --workers option, when given, wins)."),
        Setting("ACCESS_LOG", "off", "Log one line per request (method, path, status, time; no address or question)."),
        Setting("KEEP_BUILDS", "2", "How many finished builds to keep beside the current one's predecessor."),
        Setting(
            "STORE_URL",
            "",
            "A SPARQL 1.1 query endpoint that holds the KB's graphs instead of the embedded store (http://.../query).",
        ),
        Setting("STORE_UPDATE_URL", "", "The remote store's SPARQL update endpoint, for `build` (the switch)."),
        Setting("STORE_GSP_URL", "", "The remote store's Graph Store Protocol endpoint, for `build` (the upload)."),
        Setting("STORE_TIMEOUT", "10", "Seconds the engine waits for the remote store to answer a stored query."),
        Setting("STORE_BUILD_TIMEOUT", "600", "Seconds `build` waits for the remote store to take an upload."),
        Setting("STORE_WAIT", "60", "Seconds `build` waits for a remote store that does not answer yet (starting)."),
        Setting("LLM_ENABLED", "false", "Answer weak and unanswered questions with a language model, verified."),
        Setting("LLM_BASE_URL", "", "The OpenAI-compatible provider (http://127.0.0.1:11434/v1); empty: none."),
        Setting("LLM_API_KEY", "", "The provider's bearer key, when it needs one (never logged, never shown)."),
        Setting("LLM_MODEL", "", "The chat model the fallback asks (the provider's name for it)."),
        Setting("LLM_TIMEOUT", "20", "Seconds one provider call may take before the fallback gives up."),
        Setting("EMBEDDINGS_ENABLED", "true", "The meaning model (built in, or a server's), vectors made at build."),
        Setting("EMBEDDINGS_MODEL", "builtin", "builtin (in-process), or the provider's model (with LLM_BASE_URL)."),
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
