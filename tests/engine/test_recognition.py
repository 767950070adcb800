"""Awards, clients, press and the times a recurring work was given (ontology 1.3): each answered from its stored
query through the generic list step, each row said by the route's `item` sentence, and said plainly when the
portfolio records none."""

from __future__ import annotations

from datetime import date

from service.engine import Planner

TODAY = date(2026, 11, 30)


def _said(planner: Planner, question: str) -> tuple[str, str, str]:
    plan = planner.plan(question, today=TODAY)
    assert plan.answer is not None, question
    return plan.route, plan.confidence.label, plan.answer.text


def test_each_row_is_said_with_what_the_graph_holds_of_it(planner: Planner) -> None:
    assert _said(planner, "what prizes has she got?") == (
        "awards", "High", "1 award in the graph: Prémio Mapa Cívico (2025), for Transit Pulse. [S1]")
    route, level, text = _said(planner, "list her commissioners")
    assert (route, level) == ("clients", "High")
    assert text.startswith("6 clients in the graph: Open Transit Collective (gtfs-lint, Transit Pulse), Ardósia "
                           "Learning (Course search tuning for Ardósia Learning), ")
    route, _, text = _said(planner, "has she been in the press?")
    assert route == "press" and "Os elétricos que chegam tarde, Diário do Tejo (2025)" in text
    route, _, text = _said(planner, "how many times did she run the SPARQL workshop?")
    assert route == "occurrences" and text.startswith("Given 2 times: Lisbon (14 November 2024) and Lisbon "
                                                      "(16 October 2025).")
    # a period asked narrows the occurrences to it
    assert _said(planner, "where did she give the SPARQL workshop in 2024")[2].startswith(
        "Given 1 time between 1 January 2024 and 31 December 2024: Lisbon (14 November 2024).")
    # and the latest asked, the latest only
    assert _said(planner, "when was the last time she ran the SPARQL workshop")[:3:2] == (
        "occurrences", "Last given: Lisbon (16 October 2025). [S1]")
    assert planner.plan("how many times did she run the SPARQL workshop?", today=TODAY).results[0].label == (
        "Hands-on SPARQL workshop")  # the work asked about, not its sessions


def test_a_portfolio_without_them_says_so(mateo_planner: Planner) -> None:
    assert _said(mateo_planner, "list his awards") == (
        "awards", "High", "The graph records no award, prize or honour. [S1]")
    assert _said(mateo_planner, "any press coverage?")[2] == "The graph records no press coverage. [S1]"


def test_a_work_given_once_is_answered_from_its_own_facts(planner: Planner) -> None:
    """No occurrences recorded: the list step passes (its declaration has no `none` sentence)."""
    plan = planner.plan("where did she give the What GTFS feeds get wrong talk?", today=TODAY)
    assert plan.route != "occurrences" and plan.answer is not None and "Lisbon" in plan.answer.text


def test_a_work_given_several_times_in_a_place_is_named_once_with_each_time(planner: Planner) -> None:
    route, _, text = _said(planner, "talks in Lisbon")
    assert route == "events_in_place" and text.startswith("7 talks held in Lisbon:"), text
    assert text.count("Hands-on SPARQL workshop") == 1
    assert "Hands-on SPARQL workshop (October 2024; November 2024; October 2025)" in text


def test_a_kind_named_by_an_everyday_word_is_no_kind_where_the_graph_has_none(planner: Planner) -> None:
    """pf:Book is marked pf:namedWhenEmpty false: the demo has no book, so "books" here is Lantern's books."""
    route, _, text = _said(planner, "how many books does Lantern in the browser search?")
    assert route not in ("class_list", "count") and "2,000 books" in text, (route, text)


def test_what_was_made_for_a_client_is_listed_and_one_work_is_said_with_what_it_is(planner: Planner) -> None:
    route, level, text = _said(planner, "what did she do for ardosia learning")
    assert (route, level) == ("client_works", "High")
    assert text.startswith("Course search tuning for Ardósia Learning was made for Ardósia Learning (from 1 April "
                           "2026). A relevance project for Ardósia Learning")
    after = planner.plan("when was that?", previous="what did she do for ardosia learning", today=TODAY)
    assert after.route == "dates" and after.answer is not None and "April 2026 to June 2026" in after.answer.text
    # an organisation where she held a role: the works of that role, not of a client
    assert _said(planner, "what did she build for the Open Transit Collective?")[0] == "works_during_role"
