"""Every setting is documented in the README, with its default."""

from __future__ import annotations

from service.config import SETTINGS
from tests.conftest import ROOT


def test_every_setting_is_documented() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in SETTINGS:
        assert f"`{name}`" in readme, name


def test_nothing_reads_outside_the_checkout() -> None:
    """A real user's clone has no shared folder beside it: no code, test or script may read from one."""
    offenders = []
    needles = ("../" + "shared", "parent / " + '"shared"')  # written in two parts, or this file would match
    for folder in ("service", "tests", "scripts", ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".sh", ".toml", ".yaml", ".cfg"):
                text = path.read_text(encoding="utf-8", errors="ignore")
                if any(n in text for n in needles):
                    offenders.append(str(path.relative_to(ROOT)))
    assert not offenders
