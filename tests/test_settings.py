"""Every setting is documented in the README, with its default."""

from __future__ import annotations

import ast
import sys

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


SERVING = {"pyoxigraph", "owlrl", "rdflib", "pyshacl", "whoosh", "markdown_it", "yaml", "rapidfuzz", "spellchecker",
           "jinja2", "markupsafe", "starlette", "uvicorn", "mimeparse", "numpy", "service"}  # fmt: skip


def test_serving_imports_only_what_scripts_up_installs() -> None:
    """`scripts/up` installs the project without its test extras: no module of the service may import a test
    tool at import time (a command that needs one imports it when it runs)."""
    offenders = []
    for path in sorted((ROOT / "service").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # top-level imports only
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])  # fmt: skip
            for name in names:
                top = name.split(".")[0]
                if top and top not in SERVING and top not in sys.stdlib_module_names and top != "__future__":
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == ["service/bench_attack.py: httpx"]  # run only by `bench attack`, with the test tools
