"""Content negotiation: which offered media type an Accept header prefers."""

from __future__ import annotations

from collections.abc import Mapping


def choose(accept: str, offers: Mapping[str, object], default: str) -> str | None:
    """The offered media type the Accept header prefers (q values honoured), the default for */*."""
    if not accept.strip():
        return default
    ranked = []
    for n, part in enumerate(accept.split(",")):
        media, *params = (x.strip().lower() for x in part.split(";"))
        q = 1.0
        for p in params:
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, n, media))
    for _, _, media in sorted(ranked):
        if media in offers:
            return media
        if media in ("*/*", "application/*", "text/*") and (media == "*/*" or default.startswith(media[:-1])):
            return default
    return None
