"""Questions in the words of a trade outside software, on the third portfolio (a landscape architect): its own
topics are not private or everyday, its kinds and places are asked for in its own words, and its tools' names are
read as tools."""

from __future__ import annotations

from service.engine import Planner
from tests.conftest import TODAY


def _said(p: Planner, question: str) -> tuple[str, str, str]:
    plan = p.plan(question, today=TODAY)
    return plan.route, plan.confidence.level, plan.answer.text if plan.answer else ""


def test_children_are_her_topic_not_her_family(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "has she designed anything for kids, like playgrounds?")
    assert route == "concept_works" and "Rain Schoolyards" in text
    assert _said(noor_planner, "does she have kids?")[0] == "private"


def test_a_kind_of_her_work_or_slang_for_awards_ties_the_question_to_her(noor_planner: Planner) -> None:
    assert _said(noor_planner, "did the critics have anything to say about the book?")[0] != "off_topic"
    route, level, text = _said(noor_planner, "any gongs?")
    assert (route, level) == ("awards", "exact") and "Lindenhof Prize" in text


def test_visitors_are_counted_as_people_and_several_is_no_count(noor_planner: Planner) -> None:
    engine = noor_planner.engine
    asked = engine.quantities.asked(("how", "many", "visitors", "came"), engine.amount_skipped, engine.synonyms)
    assert asked is not None
    assert engine.quantities.states("About 14,000 people visited over four months.", asked)
    assert not engine.quantities.states("Several visitors assumed it was intentional.", asked)


def test_anything_in_a_country_is_what_she_did_there(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "has she done anything in Denmark?")
    assert route == "roles" and "Nørrebro Cloudburst Street (Copenhagen" in text


def test_an_article_found_by_its_title_answers_from_the_section_asked(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "why did the plants die on the lage land street?")
    assert route == "explain" and "half the plants died" in text


def test_software_is_her_tools_and_a_rendering_tool_she_lacks_is_pivoted_on(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "what software does she use?")
    assert route == "skills" and "QGIS" in text
    route, _, text = _said(noor_planner, "does she render her parks in Twinmotion?")
    assert route == "pivot" and text.startswith("The graph lists no Twinmotion work")


def test_names_compared_and_misspelt_as_real_words(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "which opened first, the tidal park in Rotterdam or the Elbe Steps?")
    assert route == "comparison" and text.startswith("Zuidoever Tidal Park and Elbe Steps share")
    route, _, text = _said(noor_planner, "when did she get the Lindenhof price?")
    assert route == "award" and "(2022)" in text and "Zuidoever Tidal Park" in text


def test_the_verb_of_an_award_does_not_undo_the_awards(noor_planner: Planner, planner: Planner) -> None:
    """ "won" is what the awards route's answer speaks to unsaid (awards.yaml speaks_to): the list, not a passage
    that happens to say "won"."""
    route, level, text = _said(noor_planner, "Which awards has she won?")
    assert (route, level) == ("awards", "exact") and "Lindenhof Prize" in text and "Blue-Green Cities Award" in text
    assert _said(planner, "which prizes did she win?")[:2] == ("awards", "exact")


def test_work_in_progress_grants_and_who_commissioned_a_work(noor_planner: Planner, planner: Planner) -> None:
    route, _, text = _said(noor_planner, "Any masterplans still in progress?")
    assert route == "ongoing" and "Dordrecht masterplan" in text and "Oostpolder" not in text
    assert _said(planner, "which projects are underway?")[0] == "ongoing"
    route, _, text = _said(noor_planner, "has she received any grants?")
    assert route == "awards" and "research grant" in text
    route, level, text = _said(noor_planner, "Who commissioned Zuidoever Tidal Park?")  # the ontology's "commissioned"
    assert (route, level) == ("relation", "exact") and "Schiedelta Water Board" in text


def test_the_press_coverage_of_one_work(noor_planner: Planner, planner: Planner, mateo_planner: Planner) -> None:
    route, level, text = _said(noor_planner, "Was her book reviewed anywhere?")
    assert (route, level) == ("press", "exact") and "Groundwork Review" in text and "Elbe Tageblatt" not in text
    route, _, text = _said(planner, "was Transit Pulse in the press?")
    assert route == "press" and text.startswith("1 piece of press coverage in the graph of Transit Pulse")
    assert _said(mateo_planner, "was Marten reviewed anywhere?")[2].startswith("The graph records no press coverage of")


def test_a_passage_held_only_through_the_meaning_of_its_words_is_a_medium_answer(noor_planner: Planner,
                                                                                 planner: Planner) -> None:  # fmt: skip
    """ "japan" is bridged to the passage's "japanese": the passage answers, never at High; "kids" (the passage's
    "children", a word of ordinary English's equivalents) beside words the passage lacks is no High answer either."""
    plan = noor_planner.plan("did the kids come up with anything the designers hadn't thought of?", today=TODAY)
    assert (plan.route, plan.confidence.level) == ("passage", "weak")
    assert plan.answer is not None and "places to be alone" in plan.answer.text
    japan = planner.plan("which institute hosted her in japan", today=TODAY, trace=True)
    assert (japan.route, japan.confidence.level) == ("passage", "weak")
    assert japan.answer is not None and "Kansai Institute of Informatics" in japan.answer.text
    assert any(s.stage == "meaning" and "bridged" in s.text for s in japan.trace or [])


def test_software_used_for_a_work_is_its_tools_where_no_work_is_software(noor_planner: Planner) -> None:
    """No work of hers is software: "what software was used for X" asks for X's tools, not for the software
    works related to X ("The graph relates no piece of software to Elbe Steps" was said at High)."""
    route, _, text = _said(noor_planner, "What software was used for the Elbe Steps?")
    assert route == "stack" and all(name in text for name in ("Rhinoceros 3D", "Grasshopper", "AutoCAD"))
    assert "relates no" not in _said(noor_planner, "is there software related to the Elbe Steps?")[2]


def test_a_job_title_asked_is_the_role_s_own_title(noor_planner: Planner, mateo_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "What was her job title at Kade & Veld?")
    assert route == "roles" and "Her title there: Landscape architect, later project leader." in text
    assert "His title there: Senior audio programmer." in _said(mateo_planner, "his job title at Brightwater Audio?")[2]
    assert "title there" not in _said(noor_planner, "how long was she at Kade & Veld?")[2]


def test_where_a_show_was_held_names_its_city_when_its_venue_does_not(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "Where was Tide Lines shown?")
    assert route == "place" and text.startswith("Tide Lines appeared in Gallery of the Nordhavn School")
    assert "Copenhagen" in text


def test_where_a_recurring_work_was_is_each_time_it_was_given(noor_planner: Planner, planner: Planner) -> None:
    route, _, text = _said(noor_planner, "where was the rain-garden workshop?")
    assert route == "occurrences" and "Glasgow (20 May 2023)" in text and "Ghent (18 April 2026)" in text
    assert _said(noor_planner, "where was Tide Lines?")[0] == "place"  # shown once: where it was
    assert _said(planner, "where was the SPARQL workshop held?")[0] == "occurrences"


def test_her_most_frequent_client_is_the_clients_most_works_first(noor_planner: Planner) -> None:
    for question in ("who is her most frequent client?", "who hires her the most? which client keeps coming back"):
        route, _, text = _said(noor_planner, question)
        assert route == "clients" and text.startswith("10 clients in the graph: Schiedelta Water Board")
    plan = noor_planner.plan("which projects did they do together?", previous="who is her most frequent client?",
                             today=TODAY)  # fmt: skip
    assert "Schiedelta Water Board" in plan.normalized  # "they": the first client listed


def test_an_owner_s_kind_of_skill_asked_of_one_work(noor_planner: Planner) -> None:
    """Her plants and materials are her own kinds of skill (own:Plant, own:Material): asked of one work, the ones
    it uses, not the work's overview."""
    route, level, text = _said(noor_planner, "Which plants were used at Zuidoever Tidal Park?")
    assert (route, level) == ("stack", "exact") and text.startswith("Zuidoever Tidal Park uses 3 plants:")
    assert all(p in text for p in ("Common reed", "Sea aster", "White willow")) and "Rhinoceros" not in text
    assert _said(noor_planner, "what materials did the Elbe Steps use?")[2].startswith("Elbe Steps uses 1 material")
    assert len(noor_planner.engine.members("https://noorvermeulen.example/ns#Plant")) == 8  # by its IRI
    route, _, text = _said(noor_planner, "which plants go in her rain gardens")  # of the works with a technique
    assert route == "concept_works" and text.startswith("The plants of the works with Rain gardens:")
    assert "Yellow flag iris (3)" in text and "Purple loosestrife (3)" in text


def test_new_york_is_not_what_s_new_and_a_name_s_meaning_is_asked(noor_planner: Planner, planner: Planner) -> None:
    assert _said(noor_planner, "who designed central park in new york?")[1] == "none"
    assert _said(planner, "What is Linus Torvalds working on these days?")[1] == "none"
    assert _said(noor_planner, "what's new?")[0] == "recent"
    text = _said(noor_planner, "what does getij even mean? is it someone's name?")[2]
    assert "Dutch for tide" in text


def test_is_she_still_on_a_panel_asks_its_dates(noor_planner: Planner) -> None:
    route, _, text = _said(noor_planner, "is she still on the quality panel?")
    assert route == "roles" and "(January 2021 to December 2024, 4 years)" in text


def test_a_street_is_her_work_not_a_private_matter(noor_planner: Planner, planner: Planner) -> None:
    """ "which street" names her work for a landscape architect; a street address stays private."""
    plan = noor_planner.plan("which street was longer, the katendrecht quay or the lage land one?")
    assert plan.route != "private" and plan.answer is not None and "700-metre" in plan.answer.text
    assert planner.plan("what's her street address?").route == "private"
