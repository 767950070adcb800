"""Whole plans: what a visitor sees for the kinds of question the product promises to handle."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from urllib.parse import unquote

import pyoxigraph as ox
import pytest

from service import snapshot
from service.engine import Planner
from service.engine.followups import next_questions
from service.engine.model import Result
from tests.conftest import TODAY

ID = "https://inescalder.example/id/"


def names(results: Sequence[Result]) -> list[str]:
    return [r.iri.removeprefix(ID) for r in results]


def labels(results: Sequence[Result]) -> list[str]:
    return [r.label for r in results]


@pytest.mark.parametrize(
    "question",
    [
        "what do you think about the election?",
        "tell me a joke",
        "best pizza near the station",
        "what is her home address?",
        "what is Ines's phone number?",
        "how old is she?",
        "what's the weather in Lisbon tomorrow?",
        "tell me a joke about rust",
    ],
)
def test_unrelated_and_private_questions_are_not_answered(planner: Planner, question: str) -> None:
    plan = planner.plan(question, today=TODAY)
    assert plan.confidence.level == "none" and plan.answer is None
    assert plan.fallback and "hello@inescalder.example" in plan.fallback
    assert plan.contact_url is not None and plan.contact_url.startswith("mailto:hello@inescalder.example")
    assert question in unquote(plan.contact_url)  # the contact link is prefilled with the question


def test_absent_technology_pivots_to_what_is_used(planner: Planner) -> None:
    plan = planner.plan("Scala projects", today=TODAY)
    assert plan.route == "pivot" and plan.confidence.level == "exact"
    assert plan.answer is not None and plan.answer.text.startswith("The graph lists no Scala work")
    assert "Python" in plan.answer.text  # the most used programming language
    evidence = plan.sparql[0]
    assert evidence.name == "works-using-skill-named" and evidence.rows == [] and '"Scala"' in evidence.query
    assert all(r.tier == 1 for r in plan.results)  # key work in the languages she does use


def test_absent_lower_case_name_before_a_cue_pivots(planner: Planner) -> None:
    plan = planner.plan("unity games", today=TODAY)
    assert plan.route == "pivot" and plan.answer is not None and "no Unity work" in plan.answer.text


def test_an_absent_word_after_a_joining_word_is_a_name_only_before_a_stop_word(mateo_planner: Planner) -> None:
    """Go is a technology Mateo lacks: "Rust and go?" asks about it, "leave game audio and go independent" not."""
    plan = mateo_planner.plan("does he know rust and go?", today=TODAY)  # Rust's works, and none with Go
    assert plan.route == "concept_works" and plan.answer is not None and "no Go work" in plan.answer.text
    plan = mateo_planner.plan("Why did he leave game audio and go independent?", today=TODAY)
    assert plan.route != "pivot" and plan.answer is not None and "bats" in plan.answer.text


def test_where_a_work_placed_nowhere_was_made_is_where_its_roles_were(planner: Planner, mateo_planner: Planner) -> None:
    """A work with no place of its own: the places of the roles held while it was made, in order, or when it
    began; a question about where it runs asks no such thing."""
    demo = planner.plan("where was she living when she made wordloom?", today=TODAY)
    assert demo.route == "place" and demo.answer is not None and "Rotterdam" in demo.answer.text
    loom = mateo_planner.plan("where was Loom made?", today=TODAY)
    assert loom.answer is not None and loom.answer.text.index("Copenhagen") < loom.answer.text.index("Glasgow")
    began = mateo_planner.plan("which city was he living in when he started Loom?", today=TODAY)
    assert began.answer is not None and "Copenhagen" in began.answer.text and "Glasgow" not in began.answer.text
    assert planner.plan("where does sparqlette run its queries?", today=TODAY).route != "place"


def test_outside_a_place_are_the_roles_held_elsewhere(planner: Planner, mateo_planner: Planner) -> None:
    """ "has she ever worked outside Europe": the roles whose place does not lie in it, or a plain no, from the
    stored query roles-outside-place; talks outside a place are no question about roles."""
    demo = planner.plan("has she ever worked outside europe?", today=TODAY)
    assert demo.route == "roles" and demo.answer is not None and "Kyoto" in demo.answer.text
    assert "Rotterdam" not in demo.answer.text and demo.sparql[0].name == "roles-outside-place"
    mateo = mateo_planner.plan("has he worked outside europe?", today=TODAY)
    assert mateo.answer is not None and "no role of his outside Europe" in mateo.answer.text
    away = mateo_planner.plan("has he ever lived outside Scotland?", today=TODAY)
    assert away.answer is not None and "Ljubljana" in away.answer.text and "Glasgow" not in away.answer.text
    assert mateo_planner.plan("has he given any talks outside the UK?", today=TODAY).route != "roles"


def test_a_why_naming_an_organisation_and_a_technology_reads_the_work_joining_them(
    planner: Planner, mateo_planner: Planner
) -> None:
    """ "why did Quillon move off Elasticsearch" is about the one work made there that uses it, the migration,
    whose article says why; not the overview of the job there."""
    demo = planner.plan("why did quillon move off elasticsearch", today=TODAY)
    assert demo.answer is not None and "licence" in demo.answer.text
    assert names(demo.results)[0] == "OpenSearchMigration"
    assert {"works-during-role", "works-using-skill"} <= {run.name for run in demo.sparql}
    mateo = mateo_planner.plan("why did he use FreeRTOS at Lydhus", today=TODAY)
    assert mateo.answer is not None and mateo.results[0].iri.endswith("/id/AriaFirmware")


def test_a_list_asked_in_order_is_said_by_when_each_began(planner: Planner, mateo_planner: Planner) -> None:
    """ "list his bat detectors in order": every work so described (a bat logger and a bat sensor too, which the
    owner's lexicon makes one), earliest first; "list her games in order": the kind's works by their starts."""
    bats = mateo_planner.plan("list his bat detectors in order", today=TODAY)
    assert bats.answer is not None and bats.route == "described"
    text = bats.answer.text
    assert text.index("Pipistrelle") < text.index("Noctule") < text.index("Marten") and "Trawl" not in text
    games = planner.plan("list her games in order", today=TODAY)
    assert games.answer is not None and "In the order they began" in games.answer.text
    starts = [planner.engine.entities[r.iri].start or "" for r in games.results]
    assert starts == sorted(starts) and len(starts) >= 2
    talks = mateo_planner.plan("list his talks in chronological order", today=TODAY)
    assert talks.answer is not None and talks.answer.text.index("Two Microphones") < talks.answer.text.index(
        "Fixed-Point Without Fear")


def test_works_of_two_kinds_are_those_of_both(planner: Planner, mateo_planner: Planner) -> None:
    """ "which of her key works are hardware": the works of both kinds, from works-of-two-classes, or a plain
    none."""
    demo = planner.plan("which of her key works is actually hardware", today=TODAY)
    assert demo.answer is not None and names(demo.results) == ["Fernkey"]
    assert demo.sparql[0].name == "works-of-two-classes"
    mateo = mateo_planner.plan("which of his key works are hardware projects", today=TODAY)
    assert mateo.answer is not None and "2 hardware projects" in mateo.answer.text
    none = mateo_planner.plan("which hardware projects are talks", today=TODAY)
    assert none.answer is not None and none.answer.text.startswith("None of his hardware projects")


def test_a_follow_up_asking_why_it_is_called_that_reads_where_the_name_comes_from(
    planner: Planner, mateo_planner: Planner
) -> None:
    for p, first, origin in ((planner, "What is the Kamo Test Collection?", "river"),
                             (mateo_planner, "what is marten?", "pine marten")):  # fmt: skip
        plan = p.plan("why is it called that?", previous=first, today=TODAY)
        assert plan.answer is not None and origin in plan.answer.text


def test_spoken_languages_and_which_language_is_better_are_not_answered(
    planner: Planner, mateo_planner: Planner
) -> None:
    """ "what languages does she speak" is no question for the list of programming languages, and "is Rust a
    better language than C++" asks an opinion about two general things."""
    for p, pronoun in ((planner, "she"), (mateo_planner, "he")):
        spoken = p.plan(f"what languages does {pronoun} speak", today=TODAY)
        assert spoken.route == "empty" and not spoken.results
        assert p.plan("is rust a better language than python in general?", today=TODAY).route == "off_topic"
        assert p.plan(f"which programming languages does {pronoun} use", today=TODAY).route == "category_list"


def test_of_two_names_the_one_holding_the_other_picks_the_article(planner: Planner) -> None:
    """ "tessera's entity resolver" links Tessera and its entity resolver: the resolver's article answers."""
    plan = planner.plan("how does tessera's entity resolver avoid pointless lookups?", today=TODAY)
    assert plan.answer is not None and "Bloom filter" in plan.answer.text
    assert names(plan.results)[0] == "TesseraResolver"


def test_comparison_shows_shared_and_distinct(planner: Planner) -> None:
    plan = planner.plan("compare Tessera and Shapeshift", today=TODAY)
    assert plan.route == "comparison" and plan.task == "compare"
    assert names(plan.results)[:2] == ["Tessera", "Shapeshift"]
    assert plan.answer is not None and "share" in plan.answer.text and "Only Tessera" in plan.answer.text


def test_a_place_said_of_the_first_thing_compared_is_not_the_second(planner: Planner) -> None:
    """ "which started first, Lantern in Berlin or Tessera": Berlin says where the first is; the two works are
    compared."""
    plan = planner.plan("which started first, Lantern in Berlin or Tessera?", today=TODAY)
    assert plan.route == "comparison" and names(plan.results)[:2] == ["Lantern", "Tessera"]
    assert plan.answer is not None and "Lantern came first" in plan.answer.text


def test_count_agrees_with_its_list(planner: Planner) -> None:
    plan = planner.plan("how many projects use Rust?", today=TODAY)
    assert plan.route == "count" and plan.operation == "count"
    assert plan.answer is not None and plan.answer.text.startswith("26 works use Rust")


def test_period_answers_show_the_sparql_with_the_dates(planner: Planner) -> None:
    plan = planner.plan("what did she build in Q3 2025?", today=TODAY)
    assert plan.route == "works_in_period" and plan.period == ("2025-07-01", "2025-09-30")
    assert names(plan.results)[:3] == ["ThisSite", "Lantern", "Shapeshift"]
    assert any('"2025-07-01"^^<http://www.w3.org/2001/XMLSchema#date>' in run.query for run in plan.sparql)


def test_two_turn_context(planner: Planner) -> None:
    first = planner.plan("tell me about Lantern", today=TODAY)
    follow = planner.plan("what is its stack?", previous=first, today=TODAY)
    assert follow.route == "stack" and follow.entity == ID + "Lantern"
    listing = planner.plan("Rust projects", today=TODAY)
    second = planner.plan("and the second one?", previous=listing, today=TODAY)
    # the list names Rust first, then its works: "the second one" is the second work
    assert listing.results[0].iri == ID + "Rust" and second.entity == listing.results[2].iri
    other = planner.plan("and Go?", previous="Rust projects", today=TODAY)
    assert other.normalized == "Go projects" and other.entity == ID + "Go"


def test_ambiguous_name_is_reported_not_resolved(planner: Planner) -> None:
    # both Raspberry Pi signs are known as "e-paper departure board": the visitor chooses
    plan = planner.plan("tell me about the e-paper departure board", today=TODAY)
    assert plan.route == "ambiguous" and plan.confidence.level == "exact"
    assert plan.ambiguous == [("e-paper departure board", [ID + "TenementBusSign", ID + "TramDepartureBoard"])]
    assert {r.iri for r in plan.results} >= {ID + "TenementBusSign", ID + "TramDepartureBoard"}


def test_every_graph_answer_carries_sparql_that_reproduces_its_rows(planner: Planner) -> None:
    store = planner.engine.kb.store
    for question in ["Rust projects", "games", "what did she build in 2018?", "compare Go and Rust", "Scala projects",
                     "how many works use Python?", "what is Tidewise built with?", "databases"]:  # fmt: skip
        plan = planner.plan(question, today=TODAY)
        assert plan.sparql, question
        for run in plan.sparql:
            again = store.query(run.query, use_default_graph_as_union=True)
            assert isinstance(again, ox.QuerySolutions)
            values = [[row[v].value if row[v] is not None else None for v in again.variables] for row in again]
            assert values == [[row[c].value if c in row else None for c in run.columns] for row in run.rows]


def test_followups_are_checked_answerable(planner: Planner) -> None:
    plan = planner.plan("tell me about Lantern", today=TODAY)
    chips = next_questions(planner, plan, TODAY)
    assert 1 <= len(chips) <= 3
    for chip in chips:
        trial = planner.plan(chip, today=TODAY)
        assert trial.confidence.level in ("exact", "strong") and trial.answer is not None
        assert chip.lower() != plan.question.lower()
    assert next_questions(planner, planner.plan("tell me a joke", today=TODAY), TODAY) == []


def test_the_skill_of_the_kind_asked_is_said_with_its_account(planner: Planner, mateo_planner: Planner) -> None:
    """ "what audio middleware did Moth use": of the work's stack, the skill whose own account says it is audio
    middleware comes first and is described; a cue word alone ("what uses the most power") tells no skill."""
    moth = mateo_planner.plan("which audio middleware was Moth built with?", today=TODAY)
    assert moth.answer is not None and moth.route == "stack" and labels(moth.results)[:2] == ["Moth", "FMOD"]
    assert "Game-audio middleware from Firelight" in moth.answer.text
    pulse = planner.plan("what map rendering technology does transit pulse use", today=TODAY)
    assert pulse.answer is not None and labels(pulse.results)[1] == "MapLibre GL JS"
    assert "renders vector-tile maps" in pulse.answer.text
    power = mateo_planner.plan("What uses the most power in Marten?", today=TODAY)
    assert power.answer is not None and "microphone" in power.answer.text


def test_the_file_of_a_component_is_its_source_file(planner: Planner, mateo_planner: Planner) -> None:
    """ "and the file it lives in?": the ontology names pf:sourceFile "file" too (a skos:altLabel), and
    entity-facts reads it."""
    mateo = mateo_planner.plan("and the file it lives in?", previous="What is the Marten call detector?", today=TODAY)
    assert mateo.answer is not None and mateo.route == "fact" and "firmware/src/detector.c" in mateo.answer.text
    demo = planner.plan("which file holds the question planner?", today=TODAY)
    assert demo.answer is not None and "service/engine/plan.py" in demo.answer.text


def test_a_period_with_no_work_lists_the_roles_then(planner: Planner, mateo_planner: Planner) -> None:
    """ "what did he do during Q3 2013": no work was active, so the roles held then are the results."""
    for p, role in ((mateo_planner, "Hardware intern, Polje Instruments"),
                    (planner, "BSc Computer Science, University of Leith")):  # fmt: skip
        plan = p.plan("what did they do in Q3 2012" if p is planner else "What did he do during Q3 2013?",
                      today=TODAY)  # fmt: skip
        assert plan.route == "works_in_period" and role in labels(plan.results)


def test_contact_in_other_words(planner: Planner, mateo_planner: Planner) -> None:
    """ "the best way to reach Mateo", "whats the public email": the contact, not a work described or the source
    of anything; "the best programming language" is an opinion, declined."""
    for p, email, q in ((mateo_planner, "hello@mateovarga.example", "the best way to reach Mateo?"),
                        (mateo_planner, "hello@mateovarga.example", "whats the public email to reach mateo"),
                        (planner, "hello@inescalder.example", "the best way to contact Ines?")):  # fmt: skip
        plan = p.plan(q, today=TODAY)
        assert plan.route == "contact" and plan.answer is not None and email in plan.answer.text, q
    assert planner.plan("what's the best programming language?", today=TODAY).answer is None


def test_results_are_read_from_the_section_headed_for_them(planner: Planner, mateo_planner: Planner) -> None:
    """ "ardosia search tuning results": the section headed "Testing the change" holds them (intents.yaml sections:
    a heading holding the kind's earlier word goes first, so "Results" before "Lessons")."""
    demo = planner.plan("what were the ardosia search tuning results?", today=TODAY)
    assert demo.answer is not None and "from 52 to 78 percent" in demo.answer.text
    mateo = mateo_planner.plan("bat classifier paper results", today=TODAY)
    assert mateo.answer is not None and "central finding" in mateo.answer.text


def test_a_follow_up_asks_of_the_one_thing_the_answer_picked(planner: Planner, mateo_planner: Planner) -> None:
    """ "which talk covered the migration?" answered with works of which one is a talk: "when was it?" asks of the
    talk; "what was her first project at Harbourline?": "why was it rewritten?" asks of the one picked first, and
    "where was that?" of a work placed nowhere is where she was when she made it."""
    talk = planner.plan("when was it?", previous="which talk covered the opensearch migration?", today=TODAY)
    assert talk.route == "dates" and talk.answer is not None and "16 February 2023" in talk.answer.text
    why = planner.plan("why was it rewritten?", previous="what was the first thing she built at Harbourline?",
                       today=TODAY)  # fmt: skip
    assert why.answer is not None and names(why.results)[0] == "HarbourlineDriverApi"
    where = mateo_planner.plan("where was that?", previous="what was his first project at Brightwater?", today=TODAY)
    assert where.route == "place" and where.answer is not None and "Glasgow" in where.answer.text
    mateo = mateo_planner.plan("when was it given?", previous="which talk was about fixed-point in rust?", today=TODAY)
    assert mateo.answer is not None and "18 September 2025" in mateo.answer.text


def test_talks_by_where_they_were_held(planner: Planner, mateo_planner: Planner) -> None:
    """ "has he spoken at an event outside the UK": the talks held (pf:heldIn) neither there nor inside it, from
    events-in-place; in a country, those held in its cities; none, said so."""
    out = mateo_planner.plan("Has he ever spoken at an event outside the UK?", today=TODAY)
    assert out.route == "events_in_place" and "events-in-place" in [s.name for s in out.sparql]
    assert out.answer is not None and "Nordic Embedded Days" in out.answer.text
    assert labels(out.results)[:1] == ["Two Microphones, One Milliwatt"]
    germany = planner.plan("did she give any talks in Germany?", today=TODAY)
    assert germany.answer is not None and labels(germany.results)[:4] == [
        "Routing Vans on a Shoestring", "A Search Library in 2,000 Lines of Rust", "Why I Build Keyboards",
        "Moving a Search Cluster Without Dropping a Query"]  # fmt: skip
    none = planner.plan("has she given talks outside Europe?", today=TODAY)
    assert none.answer is not None and none.answer.text.startswith("The graph records no talk of hers")


def test_a_neutral_phrase_asks_nothing(planner: Planner, mateo_planner: Planner) -> None:
    """ "on record", "if any" (intents.yaml neutral_phrases) need not be found in the answer, though "record"
    alone may be asked for."""
    demo = planner.plan("what's the earliest talk or workshop of hers on record?", today=TODAY)
    assert demo.answer is not None and "Git for Coursework" in demo.answer.text
    mateo = mateo_planner.plan("what is his earliest talk on record?", today=TODAY)
    assert mateo.answer is not None and "Two Microphones, One Milliwatt, in October 2018" in mateo.answer.text
    assert "record" not in planner.engine.neutral and "record" not in planner.engine.accounted


def test_plan_json_has_the_contract_fields(planner: Planner) -> None:
    doc = json.loads(json.dumps(planner.plan("pyhton projects", today=TODAY).to_json()))
    for key in ("question", "normalized", "corrections", "intent", "interpretation", "route", "answer", "results",
                "ambiguous", "confidence", "sparql", "timing_ms"):  # fmt: skip
        assert key in doc, key
    assert doc["corrections"] == [{"from": "pyhton", "to": "python"}]
    assert set(doc["interpretation"]) == {"task", "operation", "entity"}
    assert set(doc["confidence"]) >= {"level", "score", "label"}
    assert doc["answer"]["sources"][0]["id"] == "S1"
    assert {"name", "file", "query", "rows"} <= set(doc["sparql"][0])
    result = doc["results"][0]
    assert {"iri", "label", "type", "tier", "score", "resources"} <= set(result)


def test_snapshot_is_deterministic(planner: Planner, tmp_path: Path) -> None:
    questions = snapshot.questions(planner)
    assert len(questions) >= 1400
    path = tmp_path / "snap.json"
    snapshot.save(planner, path, TODAY)
    assert snapshot.check(planner, path) == []
    doc = json.loads(path.read_text())
    first = next(iter(doc["plans"]))
    doc["plans"][first]["route"] = "something-else"
    path.write_text(json.dumps(doc))
    assert len(snapshot.check(planner, path)) == 1


def test_software_narrows_a_list_to_the_kinds_of_software(planner: Planner) -> None:
    """ "software" is a kind of work like "games": talks, papers and hardware are not among it."""
    plan = planner.plan("rust software", today=TODAY)
    assert plan.answer is not None and "pieces of software use Rust" in plan.answer.text
    assert "Building Lantern" not in plan.answer.text  # a talk on Rust
    assert all(r.type != "Talk" for r in plan.results)


def test_two_kinds_with_no_work_in_common_are_counted_each(planner: Planner) -> None:
    plan = planner.plan("does she make hardware as well as games?", today=TODAY)
    assert plan.answer is not None
    assert "None of her hardware projects is among her games." in plan.answer.text
    assert "13 hardware projects and 17 games" in plan.answer.text


def test_a_talk_counts_for_an_organisation_by_the_day_it_was_given(planner: Planner) -> None:
    """A talk has no monthly activity: it counts for "at Quillon" by its own date, as for a period."""
    plan = planner.plan("elasticsearch work at quillon", today=TODAY)
    assert plan.route == "works_filtered" and plan.answer is not None
    assert "Search cluster migration talk" in plan.answer.text and "while at Quillon" in plan.answer.text


def test_a_follow_up_shifts_the_period_asked_by_its_own_unit(planner: Planner) -> None:
    """ "and the quarter before?" after a quarter, "and the month after?" after a month: the previous question,
    one quarter or one month on (a year's shift already worked)."""
    today = date(2026, 12, 6)
    cases = [("projects in Q3 2025", "and the quarter before?", "1 April 2025 and 30 June 2025"),
             ("projects in Q1 2025", "the previous quarter?", "1 October 2024 and 31 December 2024"),
             ("what did she do in March 2025", "and the month after?", "1 April 2025 and 30 April 2025"),
             ("projects in Q3 2025", "and the year before?", "1 July 2024 and 30 September 2024")]  # fmt: skip
    for first, then, span in cases:
        plan = planner.plan(then, previous=planner.plan(first, today=today), today=today)
        assert plan.route == "works_in_period" and plan.answer is not None, (first, then, plan.route)
        assert span in plan.answer.text, (first, then, plan.answer.text)


def test_only_the_ones_narrows_the_list_before(planner: Planner) -> None:
    plan = planner.plan("only the ones in Rust", previous="Show me her games")
    assert plan.route == "concept_works" and plan.answer is not None
    assert plan.answer.text.startswith("4 games use Rust") and "Tessera" not in plan.answer.text


def test_the_first_job_after_university_is_a_job_begun_once_the_studies_ended(mateo_planner: Planner) -> None:
    """ "university" asks about studies and "job" about jobs: after the one, the first of the other, not the first
    degree (nor the internship held while still studying)."""
    plan = mateo_planner.plan("what was his first job after university", today=TODAY)
    assert plan.route == "roles" and plan.answer is not None
    assert plan.answer.text.startswith("First: DSP firmware engineer, Lydhus Hearing")


def test_the_year_before_a_year_said_in_words_or_short(planner: Planner, mateo_planner: Planner) -> None:
    """ "and the year before?" after "last year" or "in '24": the same question, a year earlier or later."""
    plan = planner.plan("and the year before?", previous=planner.plan("which talks did she give last year?",
                                                                      today=TODAY), today=TODAY)
    assert plan.normalized == "which talks did she give in 2024?" and plan.route == "works_in_period"
    plan = mateo_planner.plan("and the year after?", previous=mateo_planner.plan("did he present anything in '24?",
                                                                                 today=TODAY), today=TODAY)
    assert plan.normalized == "did he present anything in 2025?" and plan.route == "works_in_period"


def test_a_plus_between_two_names_asks_for_works_with_both(planner: Planner) -> None:
    plan = planner.plan("Rust + WebAssembly projects", today=TODAY)
    assert plan.normalized == "Rust and WebAssembly projects" and plan.route == "works_with_all"
    assert planner.plan("c++ projects", today=TODAY).route == "concept_works"  # a name ending in a plus stays whole


def test_the_works_made_in_a_role_are_shown_with_the_query_that_lists_just_those(
        planner: Planner, mateo_planner: Planner) -> None:  # fmt: skip
    """ "What did she build while she lived in Rotterdam": the SPARQL shown lists the works attached to the role,
    the ones the answer names, not every work active while it lasted."""
    for p, question, work in ((planner, "what did she build while she lived in rotterdam", "Roadmatrix"),
                              (mateo_planner, "what did he build while he lived in copenhagen", "Earbench")):
        plan = p.plan(question, today=TODAY)
        assert plan.route == "roles" and work in labels(plan.results)
        made = [s for s in plan.sparql if s.name == "works-made-during-role"]
        assert made and "works-during-role" not in [s.name for s in plan.sparql]
        assert work in {r["workLabel"].value for r in made[0].rows}
        assert work in (plan.answer.text if plan.answer else "")


def test_works_of_a_kind_active_while_a_role_lasted_are_cited_alone(mateo_planner: Planner) -> None:
    """None of the hardware is attached to the Lydhus role: the answer counts and cites the hardware active while it
    lasted, and nothing else."""
    plan = mateo_planner.plan("hardware projects while at Lydhus", today=TODAY)
    assert plan.route == "works_during_role" and plan.answer is not None
    assert "2 hardware projects of his were active while it lasted: Loom and Noctule" in plan.answer.text
    assert [s.text for s in plan.answer.sources] == ["Loom, Noctule"]
