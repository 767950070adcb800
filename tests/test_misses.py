"""The misses report on both portfolios: what an owner reads about the questions their site answered badly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.engine import Planner
from service.misses import report, text
from service.questionlog.store import COLUMNS, SqliteStore
from tests.asked import asked
from tests.conftest import TODAY

# per portfolio: a name misspelt past the engine's corrections and the entity it means, the person's pronouns,
# a question with a word neither site uses, a question it answers well, and one asked again in other words
CASES = {
    "demo": {"misspelt": "tell me about Tesssserra", "means": "Tessera", "they": "she", "their": "her",
             "good": "Rust projects", "first": "what hardware did she build",
             "again": "which hardware projects has she made"},
    "mateo": {"misspelt": "tell me about Pippistrrrelle", "means": "Pipistrelle", "they": "he", "their": "his",
              "good": "C++ projects", "first": "what sensors did he use", "again": "which sensors does he work with"},
}  # fmt: skip


Reported = tuple[dict[str, Any], dict[str, str]]


@pytest.fixture(scope="module", params=sorted(CASES))
def reported(request: pytest.FixtureRequest, planner: Planner, mateo_planner: Planner,
             tmp_path_factory: pytest.TempPathFactory) -> Reported:  # fmt: skip
    """The report over nine questions asked of one portfolio, one of them in other words 20 s later."""
    engine, case = (planner if request.param == "demo" else mateo_planner), CASES[request.param]
    questions = [
        (case["misspelt"], None),
        (case["good"], None),
        (f"how many gizmos did {case['they']} wrangle", None),
        (case["misspelt"], None),
        (f"what is {case['their']} phone number", None),
        (case["good"], None),
        (case["first"], None),
        (case["again"], case["first"]),  # with the first as its previous question: asked again
        (case["good"], None),
    ]
    rows = _through_sqlite(asked(engine, questions, TODAY), tmp_path_factory.mktemp("log"))
    return report(engine, rows, TODAY), case


def _through_sqlite(rows: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """The rows as the report reads them: written to and read back from a real SQLite log."""
    store = SqliteStore(str(tmp_path / "questions.sqlite3"))
    store.insert([tuple(r[c] for c in COLUMNS) for r in rows])
    read = store.rows("2000-01-01")
    store.close()
    return read


def _group(doc: dict[str, Any], asked_as: str) -> dict[str, Any]:
    found = [g for g in doc["groups"] if asked_as in g["examples"]]
    assert found, f"no group for {asked_as!r} in {[g['question'] for g in doc['groups']]}"
    group: dict[str, Any] = found[0]
    return group


def test_a_misspelt_name_is_grouped_with_its_count_and_an_alias_is_suggested(reported: Reported) -> None:
    doc, case = reported
    group = _group(doc, case["misspelt"])
    assert group["count"] == 2 and group["outcomes"] == {"declined": 2}
    assert group["last_asked"] == "2026-11-30T09:01:00Z"  # the later of the two
    alias = [s for s in group["suggest"] if s["file"] == "data/lexicon/aliases.yaml"]
    assert alias and alias[0]["change"].endswith(f": {case['means']}"), group["suggest"]


def test_words_no_article_uses_are_named_and_a_synonym_suggested(reported: Reported) -> None:
    doc, case = reported
    group = _group(doc, f"how many gizmos did {case['they']} wrangle")
    assert any("gizmo" in s and "never uses" in s for s in group["saw"]), group["saw"]
    assert {s["file"] for s in group["suggest"]} == {"data/lexicon/synonyms.yaml"}


def test_a_question_asked_again_within_a_minute_is_a_miss_of_its_route(reported: Reported) -> None:
    doc, case = reported
    group = _group(doc, case["first"])
    assert group["outcomes"] == {"rephrased": 1} and group["routes"]
    assert f"asked again within a minute as {case['again']!r}" in group["saw"]
    assert not any(case["again"] in g["examples"] for g in doc["groups"])  # the second answer was not asked again


def test_private_questions_are_declined_by_design_not_misses(reported: Reported) -> None:
    doc, _ = reported
    assert doc["declined_by_design"] == 1
    assert not any("phone" in g["question"] for g in doc["groups"])


def test_the_most_asked_questions_come_with_how_they_were_answered(reported: Reported) -> None:
    doc, case = reported
    top = doc["most_asked"][0]
    assert top["count"] == 3 and top["question"] == " ".join(case["good"].lower().split())
    assert top["level"] in ("exact", "strong")
    # the day: three good answers, the one asked again and its second wording, four declined (one private)
    assert doc["questions"] == 9 and doc["per_day"] == [{"day": "2026-11-30", "right": 5, "weak": 0, "declined": 4}]


def test_the_text_report_says_what_was_seen_and_suggested(reported: Reported) -> None:
    doc, case = reported
    out = text(doc, "2026-11-01")
    assert out.startswith(f"Misses since 2026-11-01: {doc['missed']} of 9 logged questions")
    assert "saw: words the site never uses: gizmo" in out
    assert f": {case['means']}" in out and "accept or ignore" in out
    assert "Most asked:" in out


def test_a_flooded_log_plans_only_the_most_asked_questions(planner: Planner) -> None:
    """Issue 39, point 4: 5,000 distinct declined questions are all counted, but only the 300 most asked are
    planned again (read, with changes suggested): the report's cost has a bound whatever the log holds."""
    often = asked(planner, [("how many gizmos did she wrangle", None)] * 3, TODAY)
    rows = often + [{**often[0], "answer": f"{n:016x}", "question": f"zorblatt number {n} please"}
                    for n in range(5000)]  # fmt: skip
    doc = report(planner, rows, TODAY)
    assert doc["questions"] == 5003 and doc["distinct"] == 5001 and doc["planned"] == 300
    assert doc["missed"] == 5003
    gizmos = next(g for g in doc["groups"] if "gizmos" in g["question"])
    assert gizmos["count"] == 3 and gizmos["suggest"]  # the most asked one is read and helped
