"""data/site.yaml: the portfolio's name, its person, the base of its entity IRIs, its public contact."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from service import yamlfile
from service.errors import Problem, display_path

SITE_FILE = "site.yaml"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]+$")


@dataclass(frozen=True)
class Site:
    name: str
    person: str
    entity_base: str
    contact_email: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def load_site(data_dir: Path) -> tuple[Site | None, list[Problem]]:
    path = data_dir / SITE_FILE
    shown = display_path(path)
    if not path.exists():
        return None, [Problem(shown, 0, "site", "missing: name, person, entity_base and contact_email")]
    try:
        doc = yamlfile.load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        return None, [Problem(shown, (mark.line + 1) if mark else 0, "yaml", str(e).splitlines()[0])]
    problems = [
        Problem(shown, 0, "site", f"`{key}:` is required")
        for key in ("name", "person", "entity_base", "contact_email")
        if not isinstance(doc.get(key), str) or not doc[key].strip()
    ]
    if problems:
        return None, problems
    if not re.match(r"^https?://\S+[/#]$", doc["entity_base"]):
        problems.append(Problem(shown, 0, "site", "entity_base is an http(s) IRI ending in / or #"))
    if not _EMAIL.match(doc["contact_email"]):
        problems.append(Problem(shown, 0, "site", "contact_email is a public email address"))
    site = Site(doc["name"].strip(), doc["person"].strip(), doc["entity_base"].strip(), doc["contact_email"].strip())
    return (None if problems else site), problems
