"""The house's shape: no import cycle among service/ modules (imports inside functions and for type checking
included), and no import that runs upward from a lower part to a higher one."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

SERVICE = ROOT / "service"

# a part (a module or a package, by its dotted prefix) -> the parts it must never import
UPWARD: dict[str, tuple[str, ...]] = {
    "service.kb": ("service.engine", "service.fallback", "service.web", "service.sparql.", "service.lab",
                   "service.cli", "service.questionlog", "service.misses", "service.evaluate"),
    "service.queries": ("service.engine", "service.fallback", "service.web", "service.sparql.", "service.kb.build"),
    "service.language": ("service.engine", "service.kb", "service.fallback", "service.web", "service.sparql."),
    "service.engine": ("service.fallback", "service.web", "service.sparql.", "service.lab", "service.cli",
                       "service.questionlog", "service.misses", "service.evaluate", "service.bench"),
    "service.sparql.": ("service.engine", "service.fallback", "service.web", "service.lab", "service.cli"),
    "service.provider": ("service.",),
    "service.sparql_safety": ("service.",),
    "service.sparql_text": ("service.",),
    "service.text": ("service.",),
}  # fmt: skip


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    modules = {_name(p): p for p in SERVICE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # every import, at any depth
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _within(name: str, part: str) -> bool:
    return name.startswith(part) if part.endswith(".") else name == part or name.startswith(part + ".")


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []


def test_no_import_runs_upward() -> None:
    wrong = [f"{name} imports {dep}" for name, deps in sorted(_graph().items()) for part, never in UPWARD.items()
             if _within(name, part) for dep in sorted(deps) if any(_within(dep, n) for n in never)]  # fmt: skip
    assert wrong == []


def test_the_checks_see_a_cycle_and_an_upward_import() -> None:
    """The two checks above can fail: a made-up cycle is found, and so is an engine module importing the web."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    graph = _graph()
    assert "service.engine.plan" in graph and "service.engine.state" in graph["service.engine.plan"]
    assert any(_within("service.web.app", n) for n in UPWARD["service.engine"])
