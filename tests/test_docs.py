"""The examples in docs/DATA.md run: the minimal portfolio builds and answers, the override examples are
accepted as written."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pyoxigraph as ox
import yaml

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


TURTLE_PREFIXES = _after("Start each file with the prefixes you use:")


def test_every_turtle_and_yaml_snippet_parses() -> None:
    """Each Turtle block (with the documented prefixes when it starts without its own) and each YAML block of
    docs/DATA.md is valid as written: an owner copies them."""
    blocks = re.findall(r"```(turtle|yaml)[^\n]*\n(.*?)```", DOC, re.S)
    assert sum(kind == "turtle" for kind, _ in blocks) >= 3 and sum(kind == "yaml" for kind, _ in blocks) >= 10
    for kind, text in blocks:
        if kind == "yaml":
            yaml.safe_load(text)  # raises with the line of the mistake
        else:
            head = "" if text.lstrip().startswith("@prefix") else TURTLE_PREFIXES
            assert ox.parse(head + text, format=ox.RdfFormat.TURTLE) is not None


def test_the_documented_contact_answer_is_given(tmp_path: Path) -> None:
    """The `canned: contact:` example of answers.yaml, in the minimal example portfolio: contact questions get
    the owner's text, with the email filled in, at High."""
    answers = next(text for text in re.findall(r"```yaml\n(# answers\.yaml.*?)```", DOC, re.S))
    data, wiki = tmp_path / "data", tmp_path / "wiki"
    (data / "lexicon").mkdir(parents=True)
    wiki.mkdir()
    (data / "site.yaml").write_text(_after("`data/site.yaml`:"), encoding="utf-8")
    (data / "portfolio.ttl").write_text(_after("`data/portfolio.ttl`:"), encoding="utf-8")
    (wiki / "Widgeteer.md").write_text(_after("`wiki/Widgeteer.md`:"), encoding="utf-8")
    canned = {"canned": yaml.safe_load(answers)["canned"]}
    (data / "lexicon" / "answers.yaml").write_text(yaml.safe_dump(canned), encoding="utf-8")
    kb = tmp_path / "kb"
    assert main(["build", "--data", str(data), "--wiki", str(wiki), "--kb", str(kb)]) == 0
    planner = engine.load(KB.open(kb, in_memory=True))
    for question in ("how can I contact her?", "is she available for work", "email"):
        plan = planner.plan(question, today=date(2026, 12, 1))
        assert plan.answer is not None and plan.confidence.label == "High", question
        assert "The way to reach Ada is email: hello@adabyte.example." in plan.answer.text, plan.answer.text
