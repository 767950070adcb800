"""Periods: one bounded by a role ("masterplans before Studio Getij" lists the works of that kind made before the
role began, "papers since Brightwater Audio" those since, on every portfolio; "who did she work for before
Quillon" still asks for the role before it), and a recurring work in a period's list, with where and when it was
given then."""

from __future__ import annotations

from service.engine import Planner
from tests.conftest import TODAY


def _names(p: Planner, question: str) -> tuple[str, list[str], str]:
    plan = p.plan(question, today=TODAY)
    names = [p.engine.entities[r.iri].name for r in plan.results if r.iri in p.engine.entities]
    return plan.route, names, plan.answer.text if plan.answer else ""


def test_works_of_a_kind_before_and_after_a_role(noor_planner: Planner) -> None:
    route, names, text = _names(noor_planner, "masterplans before Studio Getij")
    assert route == "works_in_period" and "before 1 February 2016" in text
    assert "OostpolderMasterplan" in names and "DordrechtMasterplan" not in names  # not those made during it
    route, names, text = _names(noor_planner, "which masterplans did she make after she left Kade & Veld?")
    assert route == "works_in_period" and "between 1 January 2016" in text
    assert "DordrechtMasterplan" in names and "OostpolderMasterplan" not in names


def test_the_same_on_the_other_portfolios(planner: Planner, mateo_planner: Planner) -> None:
    route, names, text = _names(planner, "talks before Quillon")
    assert route == "works_in_period" and "before 1 March 2021" in text and "Git for Coursework" in text
    route, names, text = _names(mateo_planner, "papers since Brightwater Audio")
    assert route == "works_in_period" and names[:1] == ["BatClassifierPaper"] and "1 paper" in text
    route, _, text = _names(mateo_planner, "talks before Lydhus Hearing")
    assert text.startswith("No talk in the graph was active before 1 September 2016")


def test_the_role_before_a_role_is_still_a_career_question(planner: Planner) -> None:
    route, _, text = _names(planner, "who did she work for before Quillon?")
    assert route == "roles" and "Harbourline" in text.split("[S1]")[0]


def test_a_recurring_work_in_a_period_list_says_where_and_when_it_was_given(noor_planner: Planner,
                                                                           planner: Planner) -> None:  # fmt: skip
    plan = noor_planner.plan("workshops in 2023", today=TODAY)
    said = plan.answer.text if plan.answer else ""
    assert "rain-garden workshop (Glasgow, May 2023; Hamburg, September 2023)" in said
    names = [noor_planner.engine.entities[r.iri].name for r in plan.results if r.iri in noor_planner.engine.entities]
    assert {"WorkshopRainGardenGlasgow", "WorkshopRainGardenHamburg"} <= set(names)
    assert [run.name for run in plan.sparql].count("occurrences") == 1
    # the workshop named (its small words left out) and a period: the times it was given then
    route, _, text = _names(noor_planner, "where did she run the build-a-rain-garden day in 2023?")
    assert route == "occurrences" and "Glasgow (20 May 2023) and Hamburg (9 September 2023)" in text
    route, _, text = _names(planner, "talks in 2025")
    assert route == "works_in_period" and "SPARQL workshop (Lisbon, October 2025)" in text
    # a long list that does not show the recurring work reads no time of it
    plan = planner.plan("projects since 2022", today=TODAY)
    assert plan.answer is not None and "(Lisbon" not in plan.answer.text
    assert "occurrences" not in [run.name for run in plan.sparql]


def test_filters_read_the_dates_of_works_with_no_monthly_activity(noor_planner: Planner) -> None:
    """A portfolio with no monthly activity: a work still going counts in every later period, and a work based in a
    place (a park, a street) took place there."""
    route, names, text = _names(noor_planner, "Rhino projects in 2024")
    assert route == "works_filtered" and text.startswith("4 works using Rhino")
    assert {"DordrechtMasterplan", "WaterLandscapesStudio"} <= set(names)  # begun before 2024, not ended
    route, names, text = _names(noor_planner, "QGIS projects in Schiedam")
    assert route == "works_filtered" and {"BeukenhofWoodland", "SchiedamHarbourMasterplan"} <= set(names)


def test_the_times_a_recurring_work_was_given_in_a_place_are_among_the_results(noor_planner: Planner) -> None:
    route, names, text = _names(noor_planner, "which talks did she give in Belgium?")
    assert route == "events_in_place" and "Antwerp, May 2022; Ghent, April 2026" in text
    assert {"WorkshopRainGardenAntwerp", "WorkshopRainGardenGhent"} <= set(names[:6])
