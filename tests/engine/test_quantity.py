"""Questions asking an amount (service/language/quantities.yaml): what they ask, and which texts state it."""

from __future__ import annotations

from service.engine import Planner


def _asked(planner: Planner, question: str):  # type: ignore[no-untyped-def]
    e = planner.engine
    return e.quantities.asked(question.split(), set(e.stopwords) | e.person_words, e.synonyms)


def test_a_count_is_of_the_word_after_its_cue(planner: Planner) -> None:
    q = _asked(planner, "how many stops have volunteers surveyed")
    assert q is not None and q.kind == "count"
    states = planner.engine.quantities.states
    assert states("about 1,900 stops have been surveyed by hand", q)
    assert states("searching 2,000 Project Gutenberg books", _asked(planner, "how many books"))
    # a year is no count, and a number in the sentence before does not count the stops of this one
    assert not states("developed since 2023. For each stop it shows access", q)
    assert not states("it has 12 lines. Every stop is mapped", q)


def test_a_count_counts_the_plural_after_its_first_word(planner: Planner, mateo_planner: Planner) -> None:
    """ "how many board revisions" counts revisions, which no kind of work named counts; "how many Rust
    projects" counts projects, which the graph does."""
    for p in (planner, mateo_planner):
        owed = p.engine.quantities.owed
        revisions = _asked(p, "how many board revisions did it need")
        assert revisions is not None and "revision" in revisions.head and owed(revisions, {"board"})
        boards = _asked(p, "how many boards did he draw")
        assert boards is not None and not owed(boards, {"board"})
        assert not owed(_asked(p, "how many Rust projects are there"), set())
        assert p.engine.quantities.states("it went through three revisions", revisions)
    plan = mateo_planner.plan("How many board revisions did the Marten sensor board need?")
    assert plan.answer is not None and "three revisions" in plan.answer.text


def test_durations_shares_and_amounts_stated_without_digits(planner: Planner, mateo_planner: Planner) -> None:
    for p in (planner, mateo_planner):
        states = p.engine.quantities.states
        took = _asked(p, "how long does the check take")
        assert took is not None and took.kind == "duration"
        assert states("now validates in 14 seconds", took) and states("took 14s", took)
        assert states("runs for a season on two cells", took) and not states("since June 2024", took)
        share = _asked(p, "what share of searches")
        assert share is not None and states("about 12 % of searches", share) and states("roughly a tenth", share)
        assert _asked(p, "when did she start") is None


def test_an_answer_that_does_not_state_the_amount_is_undone(planner: Planner, mateo_planner: Planner) -> None:
    """A list of works is no answer to how many of something the graph does not count; a count of a kind of
    work is still the graph's."""
    plan = planner.plan("for step-free lisbon how many stops were surveyed by hand")
    assert plan.answer is not None and "1,900 stops" in plan.answer.text
    plan = mateo_planner.plan("how many microphones does the aria firmware beamform with")
    assert plan.answer is not None and "two-microphone" in plan.answer.text
    assert planner.plan("how many talks has she given").route == "count"


def test_a_general_thing_asked_with_what_her_work_says_is_answered(planner: Planner, mateo_planner: Planner) -> None:
    """Only a general thing named, and a question about time: refused as about the thing alone, unless one
    passage holds nearly all the rest of the question; a duration asked must then be stated."""
    demo = planner.plan("how long does full materialisation of the largest graph take with the rust reasoner?")
    assert demo.answer is not None and "eleven minutes" in demo.answer.text
    mateo = mateo_planner.plan("how long did the ESP32 last on a battery pack when it was duty-cycled?")
    assert mateo.answer is not None and "a few nights" in mateo.answer.text
    for p, question in ((planner, "when was Rust first released?"), (mateo_planner, "when was Zephyr first released?")):
        assert p.plan(question).route == "off_topic"


def test_a_comparison_with_one_states_no_duration(mateo_planner: Planner) -> None:
    states, took = mateo_planner.engine.quantities.states, _asked(mateo_planner, "how long did it last")
    assert took is not None and states("it took one weekend", took) and states("for a season", took)
    assert not states("it lasts longer than a weekend on its battery", took)
    plan = mateo_planner.plan("how long did noctule last on a battery?")
    assert plan.answer is not None and "a few nights" in plan.answer.text


def test_a_score_is_a_figure_in_digits_a_few_words_from_its_measure(planner: Planner, mateo_planner: Planner) -> None:
    """ "how precise was it" asks for a score: a number in digits on either side of the measure's name, a few
    words away ("precision of linked mentions was 0.91"); "three signals" and "half an hour" state none."""
    for p in (planner, mateo_planner):
        states = p.engine.quantities.states
        score = _asked(p, "how precise was the tagger")
        assert score is not None and score.kind == "score"
        assert states("Precision of linked mentions was 0.91, and", score)
        assert states("the resolver reached a precision of 0.94", score)
        assert not states("Disambiguation scores each candidate on three signals", score)
        assert not states("Editors spent about half an hour a week before scoring", score)
    plan = planner.plan("how precise was the quillon topic tagger")
    assert plan.answer is not None and "0.91" in plan.answer.text


def test_how_much_before_a_plural_asks_for_a_count(planner: Planner, noor_planner: Planner) -> None:
    """ "how much trees did they plant" is how many trees (quantities.yaml plural_counts); "how much did
    enrolments rise" and "how much euros" still ask an amount."""
    for p in (planner, noor_planner):
        trees = _asked(p, "how much trees they planted in the cemetery forest")
        assert trees is not None and trees.kind == "count" and "tree" in trees.head
        for question in ("how much did enrolments from search rise", "how much euros did it cost"):
            q = _asked(p, question)
            assert q is not None and q.kind == "amount", question
    plan = noor_planner.plan("How much trees they planted in the cemetery forest in Schiedam?")
    assert plan.answer is not None and "3,500 young trees" in plan.answer.text


def test_a_size_asked_by_its_word_alone(planner: Planner, noor_planner: Planner) -> None:
    """ "tidal park size?": the word asks for the form of the answer, a measure (quantities.yaml dimension), not a
    word the answer must use; its account states the hectares. Not owed: "sandfall grid size?" is answered by a grid
    of 256 by 256, no unit."""
    plan = noor_planner.plan("tidal park size?")
    assert plan.answer is not None and "4.2-hectare" in plan.answer.text and plan.confidence.level != "none"
    grid = planner.plan("sandfall grid size?")
    assert grid.answer is not None and grid.confidence.level != "none"
