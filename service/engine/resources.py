"""Resources of an entity with their roles, and the primary action the task asks for (main seed, 5.5).

About exists for every entity (its wiki article, else its entity page). Live exists only for an explicit
live URL and source only for a repository; a general URL is never offered as live. Only http(s) addresses
without credentials are offered.
"""

from __future__ import annotations

import re

from service.engine.catalog import Entity
from service.engine.model import Resource

_SAFE = re.compile(r"^https?://[^/@\s]+(/\S*)?$", re.IGNORECASE)
_PRIMARY = {"navigate": "live", "source": "source"}


def safe_url(url: str | None) -> bool:
    return bool(url) and _SAFE.match(url or "") is not None


def about_url(entity: Entity) -> str:
    return f"/wiki/{entity.name}" if entity.has_article else f"/id/{entity.name}"


def resources_for(entity: Entity, task: str) -> tuple[list[Resource], str]:
    """The entity's resources, the primary one first, and the primary role."""
    found = [Resource("about", about_url(entity))]
    if safe_url(entity.live):
        found.append(Resource("live", entity.live or ""))
    if safe_url(entity.repository):
        found.append(Resource("source", entity.repository or ""))
    wanted = _PRIMARY.get(task, "about")
    primary = wanted if any(r.role == wanted for r in found) else "about"
    found.sort(key=lambda r: r.role != primary)
    return found, primary
