"""Tokens, linking and spelling: the parts that decide what a question names."""

from __future__ import annotations

import pytest

from service.engine import Planner
from service.engine.link import Linker
from service.text import stem, terms, words

ID = "https://inescalder.example/id/"


def test_one_tokenizer_keeps_digits_and_folds_accents() -> None:
    assert words("What did she build in Q3 2025? Protégé, C++ & LÖVE") == [
        "what", "did", "she", "build", "in", "q3", "2025", "protege", "c++", "love",
    ]  # fmt: skip
    assert [stem(w) for w in ("projects", "libraries", "searches", "running", "used", "bus", "analysis")] == [
        "project", "library", "search", "run", "used", "bus", "analysis",
    ]  # fmt: skip
    assert terms("Running projects") == ["run", "project"]
    # the -ise verbs and their nouns meet, in either spelling
    assert {stem(w) for w in ("anonymisation", "anonymised", "anonymizer", "anonymise")} == {"anonymis"}
    assert stem("organiser") == stem("organize") == stem("organise") and stem("size") == "siz"


def linked(planner: Planner, question: str) -> list[str]:
    return [iri.removeprefix(ID) for iri in planner.engine.linker.link(question).entities]


def test_longest_name_wins(planner: Planner) -> None:
    # "Kanji-aware Tokenizer" is one work, not the technique "word segmentation" or a skill
    assert linked(planner, "how does the Kanji-aware Tokenizer work") == ["KanjiTokenizer"]
    assert linked(planner, "Tessera reasoner") == ["TesseraReasoner"]


def test_ordinary_words_link_only_when_meant_as_names(planner: Planner) -> None:
    assert linked(planner, "Go projects") == ["Go"]
    assert linked(planner, "projects written in go") == ["Go"]
    assert linked(planner, "rust projects") == ["Rust"]  # a cue after the name
    assert linked(planner, "let's go to the lantern festival") == []
    assert linked(planner, "Rust and go in production") == ["Rust", "Go"]  # a joining word, then a stop word
    assert "Go" not in linked(planner, "why did she leave Harbourline and go independent")
    assert linked(planner, "make") == ["Make"]  # the whole question is the name
    assert linked(planner, "does she make games?") == []  # after a subject or auxiliary it is a verb
    assert linked(planner, "what university did she go to") == []
    assert linked(planner, "why did tessera keep every customer apart") == ["Tessera"]  # after "did": a subject
    assert linked(planner, "what did go wrong with the migration") == []  # ... unless a verb phrase begins there


def test_aliases_and_resource_urls_link(planner: Planner) -> None:
    assert linked(planner, "golang services") == ["Go"]
    assert linked(planner, "what is https://code.example/inescalder/lantern ?") == ["Lantern"]
    result = planner.engine.linker.link("is https://nowhere.example/x yours")
    assert result.entities == [] and result.unknown_urls == ["https://nowhere.example/x"]


def test_a_name_of_several_words_links_in_either_number(planner: Planner, mateo_planner: Planner) -> None:
    # the last word of a name in the other number: the alias "hearing aids", the label "Kalman filter"
    assert mateo_planner.engine.linker.link("hearing aid projects").entities == ["https://mateovarga.example/id/HearingHealth"]
    assert linked(planner, "which projects used kalman filters") == ["KalmanFilter"]
    assert linked(planner, "Tessera reasoners") == ["TesseraReasoner"]
    assert linked(planner, "rusts") == []  # a name of one word keeps its number


def test_a_name_made_of_stop_words_never_links(planner: Planner) -> None:
    assert linked(planner, "tell me a joke") == []


@pytest.mark.parametrize(
    ("typo", "fixed"),
    [("pyhton", "python"), ("kubernets", "kubernetes"), ("clodflare", "cloudflare"), ("tesera", "tessera"),
     ("predecesor", "predecessor")],  # the ontology's names of relations are the site's words too
)  # fmt: skip
def test_misspellings_are_corrected(planner: Planner, typo: str, fixed: str) -> None:
    assert planner.engine.speller.correct(typo) == fixed


@pytest.mark.parametrize("word", ["election", "pizza", "joke", "weather", "tram", "dsp", "css", "gpu", "ade"])
def test_real_words_are_not_corrected(planner: Planner, word: str) -> None:
    assert planner.engine.speller.correct(word) is None


def test_british_spellings_and_plurals_are_real_words(planner: Planner, mateo_planner: Planner) -> None:
    """The dictionary is American: "analysed", "realise" and "organise" are still English, "repos" the plural of
    a word the site uses, on either portfolio; "mastres" and "librarys" are still misspellings."""
    for p in (planner, mateo_planner):
        assert [p.engine.speller.correct(w) for w in ("analysed", "realise", "organise", "repos")] == [None] * 4
        assert p.engine.speller.correct("mastres") == "masters"
    assert mateo_planner.engine.speller.correct("librarys") is not None


def test_corrections_are_reported_and_used(planner: Planner) -> None:
    plan = planner.plan("pyhton projects")
    assert plan.corrections == [("pyhton", "python")]
    assert plan.normalized == "python projects"
    assert plan.route == "concept_works" and plan.entity == ID + "Python"


def test_several_misspellings_in_one_question(planner: Planner, mateo_planner: Planner) -> None:
    plan = planner.plan("how dos tidewize wrk")  # a shorthand, a name and a short word at once
    assert plan.corrections == [("dos", "does"), ("tidewize", "tidewise"), ("wrk", "work")]
    assert plan.route == "explain" and plan.entity == ID + "Tidewise"
    other = mateo_planner.plan("projetcs with stm23")  # a technology name with digits, one edit away
    assert ("stm23", "stm32") in other.corrections and other.route == "concept_works"


def test_chat_shorthand_is_read_as_its_words(noor_planner: Planner) -> None:
    """ "ppl" is people (shorthand.yaml): the count of visitors is found where the question was off-topic."""
    plan = noor_planner.plan("how many ppl went to see wet city?")
    assert ("ppl", "people") in plan.corrections
    assert plan.answer is not None and "14,000 people" in plan.answer.text


def test_a_possessive_name_is_linked_written_without_its_apostrophe(noor_planner: Planner) -> None:
    """ "her master's thesis" (an other name of the thesis) is also written "her masters thesis"."""
    plan = noor_planner.plan("what was her masters thesis about")
    assert plan.entity is not None and plan.entity.endswith("/MScThesis")
    assert plan.answer is not None and "Sponge Polders" in plan.answer.text


def test_a_contraction_is_not_a_misspelling(planner: Planner, mateo_planner: Planner, noor_planner: Planner) -> None:
    """ "didn't" is read as written, not as "did't" with "didn" corrected, and its head is searched for in no
    passage."""
    for p in (planner, mateo_planner, noor_planner):
        for question in ("why didn't it win?", "why hadn’t she finished it?", "it wasn't built?"):
            plan = p.plan(question)
            assert plan.corrections == [] and plan.normalized == question
    for word in ("didn", "hadn", "wasn", "doesn"):
        assert word in planner.engine.search_stopwords


def test_a_title_before_its_subtitle_names_the_work(planner: Planner) -> None:
    """ "How Deep Should We Judge? Evaluating on Small Collections" is asked by its main title alone."""
    linked = planner.engine.linker.link("so how deep should we judge? whats the recommendation")
    assert "https://inescalder.example/id/SmallCollectionEvalPaper" in linked.entities
    plan = planner.plan("how deep should we judge: how many topics did it recommend?")
    assert plan.answer is not None and "50 topics" in plan.answer.text


def test_does_marks_a_lower_case_ordinary_name_after_it(planner: Planner, mateo_planner: Planner) -> None:
    """ "what does lantern get benchmarked against", "how long does marten last": the word after "does" is the
    subject; "how does it work" names nothing."""
    for p, question, name in (
        (planner, "what does lantern get benchmarked against", "/id/Lantern"),
        (mateo_planner, "how long does marten last on batteries", "/id/Marten"),
    ):
        assert any(i.endswith(name) for i in p.engine.linker.link(question).entities)
        assert not p.engine.linker.link("how does it work").entities
    plan = planner.plan("what does lantern get benchmarked against")
    assert plan.answer is not None and "Tantivy" in plan.answer.text


def test_a_real_word_one_letter_from_a_name_beside_the_rest_of_it_is_read_as_the_name() -> None:
    """ "the Lindenhof price": "price" is English, but beside "Lindenhof" it is the Lindenhof Prize; a word of a
    name itself ("Date parser" beside "Open Data") and a year ("November 2025" beside "November 2024") are not."""
    linker = Linker({"Lindenhof Prize": {"p"}, "Date parser": {"d"}, "Open Data Day": {"o"},
                     "Workshop, November 2024": {"w"}}, {}, {}, set(), [], stopwords=frozenset({"the", "in"}))
    assert linker.near_name(words("when did she get the lindenhof price")) == [(6, "prize")]
    assert linker.near_name(words("open date parser")) == []
    assert linker.near_name(words("the workshop in november 2025")) == []
    assert linker.near_name(words("a lindenhof prize")) == []  # written right: nothing to read


def test_the_award_named_in_a_misspelt_name_is_answered(planner: Planner) -> None:
    plan = planner.plan("which year did she get the Premio Mapa Civica, and for what?")
    assert plan.route == "award" and plan.answer is not None
    assert plan.answer.text.startswith("Prémio Mapa Cívico (2025), for Transit Pulse.")
