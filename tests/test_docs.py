"""The examples in docs/DATA.md run: the minimal portfolio builds and answers, the override examples are
accepted as written."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from service import engine
from service.cli import main
from service.kb import KB
from service.kb.lexicon import load_lexicon
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "DATA.md").read_text(encoding="utf-8")


def _after(caption: str) -> str:
    """The code block right after a caption line such as "`data/site.yaml`:"."""
    m = re.search(re.escape(caption) + r"\s*\n+```\w*\n(.*?)```", DOC, re.S)
    assert m, f"no code block after {caption!r} in docs/DATA.md"
    return m.group(1)


def test_the_minimal_example_builds_and_answers(tmp_path: Path) -> None:
    data, wiki = tmp_path / "data", tmp_path / "wiki"
    data.mkdir()
    wiki.mkdir()
    (data / "site.yaml").write_text(_after("`data/site.yaml`:"), encoding="utf-8")
    (data / "portfolio.ttl").write_text(_after("`data/portfolio.ttl`:"), encoding="utf-8")
    (wiki / "Widgeteer.md").write_text(_after("`wiki/Widgeteer.md`:"), encoding="utf-8")
    kb = tmp_path / "kb"
    assert main(["build", "--data", str(data), "--wiki", str(wiki), "--kb", str(kb)]) == 0
    planner = engine.load(KB.open(kb, in_memory=True))
    plan = planner.plan("who is Ada Byte?", today=date(2026, 12, 1))
    assert plan.route == "about" and plan.answer is not None
    assert "Ada Byte is a software engineer" in plan.answer.text
    assert "Widgeteer" in planner.plan("what are her key works?", today=date(2026, 12, 1)).answer.text  # type: ignore[union-attr]


def test_the_override_examples_are_valid(tmp_path: Path) -> None:
    blocks = re.findall(r"```yaml\n# data/lexicon/([\w-]+\.yaml)\n(.*?)```", DOC, re.S)
    assert {name for name, _ in blocks} >= {"intents.yaml", "messages.yaml", "weights.yaml"}
    for name, text in blocks:
        (tmp_path / name).write_text(text, encoding="utf-8")
    lex, problems = load_lexicon(sorted(tmp_path.glob("*.yaml")))
    assert problems == []
    assert "commission" in lex.extra["intents"]["contact"]["mentions"]
    assert lex.extra["weights"]["confidence"]["answer_floor"] == 0.55
