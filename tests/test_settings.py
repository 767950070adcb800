"""Every setting is documented in the README, with its default."""

from __future__ import annotations

from service.config import SETTINGS
from tests.conftest import ROOT


def test_every_setting_is_documented() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in SETTINGS:
        assert f"`{name}`" in readme, name
