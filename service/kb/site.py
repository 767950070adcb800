"""data/site.yaml: the portfolio's name, its person, the base of its entity IRIs, its public contact, how the
engine speaks of the person (name as written, short name, pronoun), and the licence its data is published under."""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from service import yamlfile
from service.errors import Problem, display_path

SITE_FILE = "site.yaml"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]+$")


REQUIRED = ("name", "person", "entity_base", "contact_email")
OPTIONAL = ("person_name", "short_name", "pronoun", "base_url", "license")
_PRONOUN_FORMS = ("subject", "object", "possessive", "possessive_pronoun", "reflexive")


@dataclass(frozen=True)
class Site:
    name: str
    person: str
    entity_base: str
    contact_email: str
    person_name: str | None = None  # default: the person's rdfs:label
    short_name: str | None = None  # default: the person's pf:shortLabel, else the first word of the name
    pronoun: str | dict[str, Any] | None = None  # she, he, they (the default), or a mapping of the five forms
    base_url: str | None = None  # where the site is served; default: entity_base without its last `id/`
    license: str | None = None  # the IRI of the licence the data is published under (VoID, the dump page)

    @property
    def public_base(self) -> str:
        """The site's own address, ending in /: the sitemap, canonical links and VoID name pages under it."""
        if self.base_url:
            return self.base_url
        if self.entity_base.endswith("/id/"):
            return self.entity_base.removesuffix("id/")
        scheme, _, rest = self.entity_base.partition("://")
        return f"{scheme}://{rest.split('/', 1)[0]}/"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def load_site(data_dir: Path) -> tuple[Site | None, list[Problem]]:
    path = data_dir / SITE_FILE
    shown = display_path(path)
    if not path.exists():
        return None, [Problem(shown, 0, "site", "missing: name, person, entity_base and contact_email")]
    try:
        doc, lines = yamlfile.load_with_lines(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        return None, [Problem(shown, yamlfile.error_line(e), "yaml", yamlfile.error_message(e))]
    doc = doc or {}
    if not isinstance(doc, dict):
        return None, [Problem(shown, 1, "site", "site.yaml is a mapping of `key: value` lines")]

    def bad(key: str, message: str) -> Problem:
        return Problem(shown, lines.get((key,), 0), "site", message)

    problems = [
        bad(key, f"`{key}:` is required")
        for key in REQUIRED
        if not isinstance(doc.get(key), str) or not doc[key].strip()
    ]
    for key in doc:
        near = difflib.get_close_matches(str(key), REQUIRED + OPTIONAL, n=1, cutoff=0.7)
        if str(key) not in REQUIRED + OPTIONAL and near:
            problems.append(bad(str(key), f"`{key}:` is not a setting: did you mean `{near[0]}:`?"))
    if problems:
        return None, problems
    if not re.match(r"^https?://\S+[/#]$", doc["entity_base"]):
        problems.append(bad("entity_base", "entity_base is an http(s) IRI ending in / or #"))
    if not _EMAIL.match(doc["contact_email"]):
        problems.append(bad("contact_email", "contact_email is a public email address"))
    for key in ("person_name", "short_name"):
        if key in doc and (not isinstance(doc[key], str) or not doc[key].strip()):
            problems.append(bad(key, f"`{key}:` is a name, written as visitors should read it"))
    if "base_url" in doc and not (isinstance(doc["base_url"], str) and re.match(r"^https?://\S+/$", doc["base_url"])):
        problems.append(bad("base_url", "base_url is the site's http(s) address, ending in /"))
    if "license" in doc and not (isinstance(doc["license"], str) and re.match(r"^https?://\S+$", doc["license"])):
        problems.append(bad("license", "license is the http(s) IRI of the licence, e.g. "
                                       "https://creativecommons.org/licenses/by/4.0/"))
    pronoun = doc.get("pronoun")
    if pronoun is not None:
        if isinstance(pronoun, dict):
            missing = [f for f in _PRONOUN_FORMS if not isinstance(pronoun.get(f), str) or not pronoun[f].strip()]
            if missing:
                problems.append(bad("pronoun", "a pronoun mapping gives all five forms: " + ", ".join(_PRONOUN_FORMS)
                                    + f" (missing {', '.join(missing)})"))
        elif str(pronoun).strip().lower() not in ("she", "he", "they"):
            problems.append(bad("pronoun", "pronoun is she, he or they, or a mapping of its five forms "
                                           "(subject, object, possessive, possessive_pronoun, reflexive)"))
    if problems:
        return None, problems
    site = Site(
        doc["name"].strip(),
        doc["person"].strip(),
        doc["entity_base"].strip(),
        doc["contact_email"].strip(),
        person_name=doc["person_name"].strip() if doc.get("person_name") else None,
        short_name=doc["short_name"].strip() if doc.get("short_name") else None,
        pronoun=pronoun if isinstance(pronoun, dict) else (str(pronoun).strip().lower() if pronoun else None),
        base_url=doc["base_url"].strip() if doc.get("base_url") else None,
        license=doc["license"].strip() if doc.get("license") else None,
    )
    return site, problems
