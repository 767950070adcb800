"""The engine's language (service/language/): shipped with the code, free of any one person, and overridable
by an owner's data/lexicon/ files with the documented rules."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import rdflib

from service import language
from service.kb.lexicon import load_lexicon
from service.voice import Pronoun, Voice
from tests.conftest import ROOT

PF = "https://folio.example/ns#"


def _strings(doc: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(doc, str):
        return [(path, doc)]
    if isinstance(doc, dict):
        return [x for k, v in doc.items() for x in _strings(v, f"{path}.{k}")]
    if isinstance(doc, list):
        return [x for v in doc for x in _strings(v, path)]
    return []


def test_every_engine_file_ships_and_loads() -> None:
    for stem in language.STEMS:
        assert (language.DIR / f"{stem}.yaml").is_file(), stem
        assert language.engine_doc(stem) is not None, stem


def _booleans_in_lists(doc: Any, path: str = "") -> list[str]:
    if isinstance(doc, dict):
        return [x for k, v in doc.items() for x in _booleans_in_lists(v, f"{path}.{k}")]
    if isinstance(doc, list):
        return [path for v in doc if isinstance(v, bool)] + [x for v in doc for x in _booleans_in_lists(v, path)]
    return []


def test_no_list_of_words_holds_a_boolean() -> None:
    """A bare true or false in a list of words is read as a boolean, not as the word: it must be quoted."""
    for stem in language.STEMS:
        assert _booleans_in_lists(language.engine_doc(stem)) == [], stem
    for path in sorted((language.DIR / "routes").glob("*.yaml")):
        assert _booleans_in_lists(language.engine_doc(f"routes/{path.stem}")) == [], path.name


def test_the_engine_language_names_no_person() -> None:
    """Cue phrases say $they / $them / $their / $person; a pronoun appears only in lists of every pronoun."""
    person_words = {"she", "her", "hers", "herself", "ines", "calder"}
    for stem in ("intents", "abstain", "answers", "messages", "stopwords", "dates", "weights", "routes"):
        for where, text in _strings(language.engine_doc(stem)):
            words = set(re.findall(r"[a-z]+", text.lower()))
            if words & person_words:
                siblings = {w for _, t in _strings(language.engine_doc(stem)) for w in t.lower().split()
                            if where and _ == where}  # fmt: skip
                assert {"he", "they"} <= siblings, f"{stem}.yaml {where}: {text!r} names one person"


def test_no_demo_name_in_the_engine() -> None:
    """No work, organisation, role, place or person of the demo portfolio is named in Python or engine data."""
    g = rdflib.Graph()
    for f in (ROOT / "data").glob("*.ttl"):
        g.parse(f)
    kinds = {PF + k for k in ("Person", "Organisation", "EducationalOrganisation", "Role", "Project", "SideWork",
                              "Paper", "Component")}  # fmt: skip
    names = {str(label) for s, o in g.subject_objects(rdflib.RDF.type) if str(o) in kinds
             for label in g.objects(s, rdflib.RDFS.label)}  # fmt: skip
    names = {n for n in names if len(n) > 4 and n not in ("Speller", "Component")}
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in sorted(names)))
    found = []
    for path in (ROOT / "service").rglob("*"):
        if path.suffix in (".py", ".yaml", ".html", ".js") and path.name != "technologies.yaml":
            for m in pattern.finditer(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}: {m.group()}")
    for path in (ROOT / "queries").glob("*.rq"):
        found += [f"{path.name}: {m.group()}" for m in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert not found


def _lexicon(tmp_path: Path, files: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    lex, problems = load_lexicon(sorted(tmp_path.glob("*.yaml")))
    return lex.extra, [str(p) for p in problems]


def test_an_owner_extends_replaces_and_removes(tmp_path: Path) -> None:
    extra, problems = _lexicon(tmp_path, {
        "intents.yaml": "contact:\n  mentions+: [commission, commissions]\n  unless: [never]\n",
        "stopwords.yaml": "words-: [about]\nwords+: [gosh]\n",
        "weights.yaml": "confidence:\n  answer_floor: 0.55\n",
        "answers.yaml": "about:\n  - key: who\n    text: Written by the owner.\n",
    })  # fmt: skip
    assert problems == []
    engine_contact = language.engine_doc("intents")["contact"]
    contact = extra["intents"]["contact"]
    assert contact["mentions"] == engine_contact["mentions"] + ["commission", "commissions"]
    assert contact["unless"] == ["never"]
    assert "about" not in extra["stopwords"]["words"] and "gosh" in extra["stopwords"]["words"]
    assert extra["weights"]["confidence"]["answer_floor"] == 0.55
    assert extra["weights"]["confidence"]["strong_support"] == language.engine_doc("weights")["confidence"][
        "strong_support"
    ]
    who = next(a for a in extra["answers"]["about"] if a["key"] == "who")
    assert who["text"] == "Written by the owner." and who["route"] == "person" and who["questions"]


def test_a_full_old_style_file_still_works(tmp_path: Path) -> None:
    """A portfolio that copied the engine's files, as the first version asked, stays valid."""
    extra, problems = _lexicon(tmp_path, {
        "stopwords.yaml": "- a\n- the\n",
        "abstain.yaml": "her_words: [she, her, portfolio]\n",
    })  # fmt: skip
    assert problems == []
    assert extra["stopwords"] == {"words": ["a", "the"]}
    assert extra["abstain"]["person_words"] == ["she", "her", "portfolio"]


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("contact:\n  mentions+: [a]\n  mentons: [b]\n", 3, "not a setting"),
        ("contact:\n  mentions: commission\n", 2, "expected a list"),
        ("order-: [nothing]\n", 1, "not in the engine's list"),
    ],
)
def test_a_wrong_override_is_reported_at_its_line(tmp_path: Path, text: str, line: int, says: str) -> None:
    _, problems = _lexicon(tmp_path, {"intents.yaml": text})
    assert len(problems) == 1 and f"intents.yaml:{line}: [lexicon]" in problems[0] and says in problems[0]


def test_a_misnamed_file_is_pointed_out(tmp_path: Path) -> None:
    _, problems = _lexicon(tmp_path, {"intent.yaml": "contact: {}\n"})
    assert problems and "did you mean intents.yaml" in problems[0]


def test_phrases_read_every_pronoun_and_the_person_s_names() -> None:
    voice = Voice.of({"pronoun": "he"}, "Mateo Varga")
    found = voice.expand("where does $they work")
    assert {"where does she work", "where does he work", "where do they work", "where does mateo work",
            "where does mateo varga work"} <= set(found)  # fmt: skip
    assert "start of his career" in voice.expand("start of $their career")
    assert "mateo s career" in " ".join(voice.expand("$their career"))


def test_an_owner_s_own_pronoun() -> None:
    xe = Pronoun.of({"subject": "xe", "object": "xem", "possessive": "xyr", "possessive_pronoun": "xyrs",
                     "reflexive": "xemself"})  # fmt: skip
    voice = Voice("Sam Lee", "Sam", xe, ("sam lee", "sam"), "hi@sam.example", "Ask Sam")
    assert "where does xe work" in voice.expand("where does $they work")
    assert voice.say("Ask {them} at {email}. {Their} work.") == "Ask xem at hi@sam.example. Xyr work."
    assert voice.say("{unknown} stays") == "{unknown} stays"


@pytest.mark.parametrize(
    "name",
    ["aliases", "ordinary-words", "absent", "synonyms", "definitions", "answers", "intents", "weights", "abstain",
     "messages", "stopwords", "dates", "routes", "query-examples", "technologies", "shorthand"],
)  # fmt: skip
def test_an_empty_lexicon_file_changes_nothing(tmp_path: Path, name: str) -> None:
    """Every lexicon file is optional and may be empty: the engine's language stays whole."""
    extra, problems = _lexicon(tmp_path, {f"{name}.yaml": "# nothing yet\n"})
    assert problems == []
    for stem in language.STEMS:
        assert extra[stem] == language.engine_doc(stem), stem
