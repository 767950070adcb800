"""`init DIR`: a minimal new portfolio that validates, builds, serves and answers "who is ...?".

The files in this folder are the templates: one person, one place, one organisation and role, one skill, one
work, one article and one lexicon file, with `{name}`-style fields filled from the command's options.
"""

from __future__ import annotations

import re
from pathlib import Path

from service.errors import FolioError

DIR = Path(__file__).parent


def _local(name: str) -> str:
    """ "Ada Byte" -> "AdaByte": a local name is letters and digits, starting with a letter."""
    parts = re.findall(r"[A-Za-z0-9]+", name)
    local = "".join(p[:1].upper() + p[1:] for p in parts)
    return local if local[:1].isalpha() else "Person" + local


def init_portfolio(
    dest: Path, name: str, profession: str, email: str | None = None, pronoun: str = "they"
) -> list[Path]:
    """Write a minimal portfolio into `dest` (which must not exist or be empty); returns the files written.
    `profession` completes "NAME is ...": "a landscape architect"."""
    if dest.exists() and any(dest.iterdir()):
        raise FolioError(f"{dest} is not empty: choose a new folder for the portfolio")
    person = _local(name) or "Person"
    host = f"{person.lower()}.example"
    fields = {
        "name": name.strip(),
        "short": name.split(maxsplit=1)[0] if name.split() else person,
        "person": person,
        "person_lower": person.lower(),
        "host": host,
        "email": email or f"hello@{host}",
        "pronoun": pronoun,
        "profession": profession.strip().rstrip("."),
    }
    written = []
    for template in sorted(p for p in DIR.rglob("*") if p.is_file() and p.suffix in (".yaml", ".ttl", ".md")):
        target = dest / template.relative_to(DIR)
        text = template.read_text(encoding="utf-8")
        for key, value in fields.items():
            text = text.replace("{" + key + "}", value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
