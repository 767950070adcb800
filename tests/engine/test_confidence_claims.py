"""High only when the answer states what was asked: a definition of a technology the graph lacks is not answered
with the absent-technology pivot; a name no vocabulary knows may be no technology, so its pivot is never High and
an English word is never taken for one; a count is not answered by a passage that states no number."""

from __future__ import annotations

from service.engine import Planner


def test_a_definition_of_a_technology_the_graph_lacks_is_no_pivot(planner: Planner) -> None:
    for question in ("what is Scala", "define Kotlin", "what is Zorblatt?"):
        plan = planner.plan(question)
        assert plan.route != "pivot" and plan.confidence.level in ("weak", "none"), question
    assert planner.plan("Scala projects").route == "pivot"  # asked as her work: the pivot, as before


def test_a_name_no_vocabulary_knows_is_pivoted_on_weakly_and_english_words_not_at_all(planner: Planner) -> None:
    made_up = planner.plan("has she used Zorblatt")
    assert made_up.route == "pivot" and made_up.confidence.level == "weak" and made_up.confidence.label != "High"
    known = planner.plan("has she used Qdrant")  # in the owner's absent-technology list: the pivot, exact
    assert known.route == "pivot" and known.confidence.level == "exact"
    for question in ("has she used the scanner", "did she work with a colleague on the bakery"):
        assert planner.plan(question).route != "pivot", question


def test_a_count_is_not_answered_by_a_passage_that_states_none(planner: Planner) -> None:
    plan = planner.plan("how many skills does she have")
    assert plan.route != "passage" and plan.confidence.label != "High"


def test_a_thing_the_site_never_speaks_of_asked_of_her_work_gets_a_weak_pivot(planner: Planner) -> None:
    """English or not: "has she ever designed a golf course" is answered that nothing she published speaks of it,
    with what she does instead, never at High; a thing taken as known ("the scanner") or said beside another way of
    saying it ("a synthesizer or a drum machine") is not."""
    plan = planner.plan("has she ever designed a golf course?")
    assert plan.route == "pivot" and plan.confidence.label != "High"
    assert plan.answer is not None and "Nothing Ines has published speaks of golf" in plan.answer.text
    for question in ("has she used the scanner", "did she build a blockchain or a ledger?",
                     "did she work with a colleague on the bakery"):
        assert planner.plan(question).route != "pivot", question


def test_a_count_inside_one_thing_of_a_kind_is_not_the_number_of_that_kind(noor_planner: Planner) -> None:
    """ "how many projects does the book describe" asks what the book's account says, not how many books there
    are ("The graph lists 1 book" at High); "how many talks has she given, counting the workshop" still counts."""
    for question in ("how many projects does the book describe?", "how many projects does the water book cover"):
        plan = noor_planner.plan(question)
        assert plan.route not in ("count", "class_list") and plan.confidence.label != "High", question
    counted = noor_planner.plan("how many talks has she given, counting the workshop?")
    assert counted.route in ("count", "class_list") and counted.answer is not None


def test_a_private_word_her_work_speaks_of_is_no_private_question(noor_planner: Planner) -> None:
    """ "kids" beside the schoolyards she designs asks of her work (her passages speak of children); "does she
    have kids" and "how old are her kids" are still private."""
    work = noor_planner.plan("how does she actually get the kids involved in designing the schoolyards?")
    assert work.route != "private"
    for question in ("does she have kids?", "how old are her kids", "is she married with kids"):
        assert noor_planner.plan(question).route == "private", question


def test_two_words_the_site_writes_as_one_are_read_as_its_word_but_never_a_name_as_written(
        planner: Planner, noor_planner: Planner) -> None:  # fmt: skip
    """ "school yards" is read as the passages' "schoolyards" (the passage that states fourteen, not "the first two
    yards"); "open Search cluster migration talk" opens the talk, never read as "opensearch"."""
    yards = noor_planner.plan("how many school yards has she finished sofar")
    assert "schoolyards" in yards.normalized and yards.answer is not None and "fourteen" in yards.answer.text
    assert "opensearch" not in planner.plan("open Search cluster migration talk").normalized.lower()


def test_a_place_s_overview_is_no_answer_to_what_went_wrong(noor_planner: Planner) -> None:
    """ "what happened at the glasgow workshop, i heard it went wrong" was answered at High with what Glasgow is
    (entity.yaml: a place named with a kind of section asked is no question for the place's overview)."""
    plan = noor_planner.plan("what happend at the glasgow workshop, i heard it went wrong")
    assert plan.route != "entity" and "The Scottish city" not in (plan.answer.text if plan.answer else "")


def test_the_one_in_a_place_picks_from_the_list_before(noor_planner: Planner) -> None:
    """ "the one in scotland" after "conference talks?" asks for the talks there, not what Scotland is."""
    plan = noor_planner.plan("the one in scotland, what was it about?", previous="conference talks?")
    assert plan.route == "events_in_place" and plan.answer is not None and "Taking Up the Tarmac" in plan.answer.text
