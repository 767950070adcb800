"""YAML as editors expect it: `on`, `no`, `yes` and `off` are words, not booleans (YAML 1.2 rules)."""

from __future__ import annotations

import re
from typing import Any

import yaml

# libyaml's parser when PyYAML was built with it (its wheels are): several times faster at start-up
_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
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


Path = tuple[str | int, ...]


def load_with_lines(text: str) -> tuple[Any, dict[Path, int]]:
    """The document, and the 1-based line of every key and list item by its path (("contact", "mentions", 2)),
    so a problem deep in a file is reported at its own line."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        document = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: dict[Path, int] = {}

    def walk(n: yaml.Node | None, path: Path) -> None:
        if n is None:
            return
        lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            for key, value in n.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else str(key.start_mark.line)
                lines[(*path, name)] = key.start_mark.line + 1
                walk(value, (*path, name))
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                lines[(*path, i)] = item.start_mark.line + 1
                walk(item, (*path, i))

    walk(node, ())
    return document, lines


def error_line(e: yaml.YAMLError) -> int:
    """The 1-based line a YAML error points at (0 when it says none)."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    return mark.line + 1 if mark is not None else 0


def error_message(e: yaml.YAMLError) -> str:
    """A YAML error in one line: what is wrong, without the dump of the surrounding text."""
    problem = getattr(e, "problem", None)
    context = getattr(e, "context", None)
    parts = [p for p in (context, problem) if p]
    return ", ".join(parts) if parts else str(e).splitlines()[0]
