"""The fallback's and meaning search's settings, read once from service/config.py."""

from __future__ import annotations

from dataclasses import dataclass

from service.config import setting

_TRUE = ("1", "true", "on", "yes")


@dataclass(frozen=True)
class Settings:
    llm_enabled: bool
    base_url: str
    api_key: str
    model: str
    timeout: float
    embeddings_enabled: bool
    embeddings_model: str

    @classmethod
    def load(cls) -> Settings:
        try:
            timeout = float(setting("LLM_TIMEOUT"))
        except ValueError:
            timeout = 20.0
        return cls(
            llm_enabled=setting("LLM_ENABLED").strip().lower() in _TRUE,
            base_url=setting("LLM_BASE_URL").strip().rstrip("/"),
            api_key=setting("LLM_API_KEY").strip(),
            model=setting("LLM_MODEL").strip(),
            timeout=max(0.1, min(timeout, 300.0)),
            embeddings_enabled=setting("EMBEDDINGS_ENABLED").strip().lower() in _TRUE,
            embeddings_model=setting("EMBEDDINGS_MODEL").strip(),
        )

    @property
    def enabled(self) -> bool:
        """The fallback runs only when it is switched on and has somewhere to go: a key or a URL alone sends
        nothing."""
        return self.llm_enabled and bool(self.base_url)

    @property
    def builtin(self) -> bool:
        """The meaning model is the built-in one (EMBEDDINGS_MODEL=builtin, the default, or empty)."""
        return self.embeddings_model in ("", "builtin")

    @property
    def embeddings(self) -> bool:
        """Meaning is on: the built-in model, or a server's model with somewhere to go."""
        return self.embeddings_enabled and (self.builtin or bool(self.base_url))
