"""YAML as editors expect it: `on`, `no`, `yes` and `off` are words, not booleans (YAML 1.2 rules)."""

from __future__ import annotations

import re
from typing import Any

import yaml


class _Loader(yaml.SafeLoader):
    pass


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)
