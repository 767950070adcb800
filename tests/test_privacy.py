"""Nothing private anywhere in what the site publishes: no phone numbers, birth dates or home addresses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFUSALS = ROOT / "data" / "lexicon" / "abstain.yaml"  # names private topics in order to refuse them
PUBLISHED = sorted(
    p
    for d in ("data", "wiki", "ontology")
    for p in (ROOT / d).rglob("*")
    if p.suffix in {".ttl", ".md", ".yaml"} and p != REFUSALS
)
PATTERNS = {
    "phone number": re.compile(r"(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,4}\b"),
    "birth date": re.compile(r"\b(?:born on|date of birth|birthday|birthdate|birth date)\b", re.I),
    "home address": re.compile(r"\b(?:lives at|\d{1,4},? (?:rua|street|strasse|straße|avenue))\b", re.I),
    "age": re.compile(r"\b(?:she|ines) is \d{2} years old\b", re.I),
}


@pytest.mark.parametrize("path", PUBLISHED, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_private(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for what, pattern in PATTERNS.items():
        m = pattern.search(text)
        assert not m, f"{path.name}: looks like a {what}: {m.group() if m else ''!r}"


def test_the_only_email_is_the_public_contact() -> None:
    emails = {e for p in PUBLISHED for e in re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", p.read_text(encoding="utf-8"))}
    assert emails <= {"hello@inescalder.example"}, emails
