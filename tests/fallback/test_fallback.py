"""The guarded model fallback against the simulated model over HTTP: each scripted reply, each refusal."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

from service.engine import Planner
from service.fallback import run
from service.fallback.evidence import Evidence
from service.fallback.tools import schemas
from service.fallback.verify import DONT_KNOW, verify
from tests.conftest import ROOT
from tests.fallback.conftest import WEAK, refuse_all, unchanged
from tests.simllm import Sim

COUNT_WORKS = "SELECT (COUNT(?w) AS ?n) WHERE { ?w a pf:Work }"


def test_a_correct_cited_answer_is_served_generated_and_checked(ask: Any, model: Sim) -> None:
    out = ask(WEAK, {"content": "{s1} [S1]"})
    assert out.status == "verified", out.reasons
    doc = out.plan.to_json()
    assert doc["generated"] == {"by": "sim-model", "verified": True, "rounds": 1}
    assert doc["confidence"]["level"] != "exact" and doc["confidence"]["level"] == "weak"
    assert doc["answer"]["text"].endswith("[S1]") and [s["id"] for s in doc["answer"]["sources"]] == ["S1"]
    assert doc["answer"]["sources"][0]["url"].startswith("/wiki/")
    assert doc["fallback"] is None and len(model.chats()) == 1


def test_an_invented_number_is_rejected_and_the_plan_abstains_as_before(ask: Any, planner: Planner) -> None:
    out = ask(WEAK, {"content": "{s1} The talk drew 347 people. [S1]"})
    assert out.status == "rejected" and any("347" in r for r in out.reasons)
    assert out.verdict.text == DONT_KNOW
    assert unchanged(out, planner, WEAK)


def test_an_invented_name_is_rejected(ask: Any, planner: Planner) -> None:
    out = ask(WEAK, {"content": "{s1} She also spoke at Zorblatt Summit. [S1]"})
    assert out.status == "rejected" and any("Zorblatt" in r for r in out.reasons)
    assert unchanged(out, planner, WEAK)


def test_a_catalog_name_not_in_the_evidence_is_rejected(ask: Any) -> None:
    out = ask(WEAK, {"content": "{s1} She presented Tessera there. [S1]"})
    assert out.status == "rejected" and any("Tessera" in r for r in out.reasons)


def test_an_acronym_and_a_technical_token_not_in_the_evidence_are_rejected(ask: Any) -> None:
    assert any("XQZ" in r for r in ask(WEAK, {"content": "{s1} It used XQZ. [S1]"}).reasons)
    assert any("torch.compile" in r for r in ask(WEAK, {"content": "{s1} It used torch.compile there. [S1]"}).reasons)


def test_a_citation_of_s9_when_five_were_supplied(ask: Any, planner: Planner) -> None:
    out = ask(WEAK, {"content": "{s1} [S9]"})
    assert len(out.evidence.items) == 5
    assert out.status == "rejected" and "no sentence with a valid source" in out.reasons
    assert out.verdict.dropped_citations == ["S9"]
    assert unchanged(out, planner, WEAK)
    both = ask(WEAK, {"content": "{s1} [S1, S9]"})  # the unmatched number is dropped, the valid one kept
    assert both.status == "verified" and both.plan.answer.text.endswith("[S1]")


def test_a_link_never_given_is_removed(ask: Any) -> None:
    text = "{s1} [S1] See https://evil.example/phish and [here](http://evil.example/s). [S1]"
    out = ask(WEAK, {"content": text})
    assert out.status == "verified", out.reasons
    assert "evil.example" not in out.plan.answer.text and "and here." in out.plan.answer.text
    assert out.verdict.removed_links == ["http://evil.example/s", "https://evil.example/phish"]


def test_a_phone_number_or_a_birth_date_is_rejected(ask: Any) -> None:
    phone = ask(WEAK, {"content": "{s1} Call her on +351 912 345 678. [S1]"})
    assert phone.status == "rejected" and any("phone" in r for r in phone.reasons)
    born = ask(WEAK, {"content": "{s1} She was born in 1988. [S1]"})
    assert born.status == "rejected" and any("birth" in r for r in born.reasons)


def test_one_tool_round_searches_the_wiki_and_the_passages_join_the_evidence(ask: Any, model: Sim) -> None:
    out = ask(WEAK, {"tool": "search_wiki", "query": "Lisbon Data Meetup talk"}, {"content": "{s1} [S1]"})
    assert out.status == "verified" and out.plan.generated["rounds"] == 2
    assert len(out.evidence.items) > 5  # the search's passages were numbered S6 on
    tool_message = model.chats()[1]["body"]["messages"][-1]
    assert tool_message["role"] == "tool" and "[S6]" in tool_message["content"]


def test_three_tool_rounds_with_sparql_through_the_pool(ask: Any, model: Sim) -> None:
    out = ask(WEAK, {"tool": "search_wiki", "query": "talks"}, {"tool": "search_wiki", "query": "meetup"},
              {"tool": "sparql", "query": COUNT_WORKS}, {"content": "The portfolio lists {value} works. [{last}]"})
    assert out.status == "verified", out.reasons
    assert out.plan.generated["rounds"] == 4
    assert [r.query for r in out.plan.sparql][-1] == COUNT_WORKS and out.plan.sparql[-1].file == "(asked by the model)"
    assert out.plan.answer.sources[0].kind == "graph" and out.plan.answer.sources[0].url.startswith("/console?query=")
    offered = [bool(c["body"].get("tools")) for c in model.chats()]
    assert offered == [True, True, True, False]  # no tools after the third round


def test_a_fourth_tool_round_is_refused(ask: Any) -> None:
    tool = {"tool": "search_wiki", "query": "talks"}
    out = ask(WEAK, tool, tool, tool, tool)
    assert out.status == "rejected" and out.reasons == ["still calling tools after three rounds"]


def test_the_model_s_sparql_is_refused_as_on_sparql(ask: Any, model: Sim) -> None:
    out = ask(WEAK, {"tool": "sparql", "query": "INSERT DATA { <a:b> <a:c> <a:d> }"}, {"content": "{s1} [S1]"})
    assert out.status == "verified" and out.plan.sparql == []  # nothing ran; the model was told why
    told = model.chats()[1]["body"]["messages"][-1]["content"]
    assert told.startswith("error 403")
    other = ask(WEAK, {"tool": "sparql", "query": COUNT_WORKS}, {"content": "{s1} [S1]"}, runner=refuse_all)
    assert other.plan.sparql == []


def test_a_slow_reply_past_llm_timeout_gives_up(ask: Any, planner: Planner) -> None:
    started = time.monotonic()
    out = ask(WEAK, {"sleep": 3, "content": "{s1} [S1]"}, timeout=1.0)
    assert time.monotonic() - started < 2.5
    assert out.status == "failed" and out.reasons == ["provider: no reply within 1 s"]
    assert unchanged(out, planner, WEAK)


def test_a_provider_that_gave_no_reply_is_not_asked_again_for_a_while(
        ask: Any, model: Sim, caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="service.fallback"):
        first = ask(WEAK, {"sleep": 3, "content": "{s1} [S1]"}, timeout=1.0)
    assert first.status == "failed"
    assert any("gave no reply" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    started = time.monotonic()
    second = ask(WEAK, {"content": "{s1} [S1]"})  # (scripting the model forgets the requests before it)
    assert time.monotonic() - started < 0.5 and model.chats() == []  # not asked: no wait at all
    assert second.status == "skipped" and "cooling down" in second.reasons[0]
    run.COOLING.reset()  # the cool-down over: asked again
    assert ask(WEAK, {"content": "{s1} [S1]"}).status != "skipped"


def test_http_429_500_and_malformed_json_give_up(ask: Any, planner: Planner) -> None:
    for reply, reason in (({"status": 429}, "rate limited (HTTP 429)"), ({"status": 500}, "HTTP 500"),
                          ({"raw": '{"choices": [ oops'}, "malformed reply (not JSON)"),
                          ({"raw": '{"choices": []}'}, "malformed reply (no choices[0].message)")):  # fmt: skip
        out = ask(WEAK, reply)
        assert out.status == "failed" and out.reasons == [f"provider: {reason}"]
        assert unchanged(out, planner, WEAK)


def test_private_ambiguous_and_confident_plans_are_never_sent(ask: Any, model: Sim) -> None:
    for question in ("what is her phone number", "when is her birthday", "what does she think about remote work",
                     "what is bm25", "lantern"):  # fmt: skip
        out = ask(question, {"content": "{s1} [S1]"})
        assert out.status == "skipped", question
    assert model.requests == []


def test_a_key_alone_or_a_url_alone_sends_nothing(ask: Any, model: Sim) -> None:
    assert ask(WEAK, {"content": "{s1} [S1]"}, llm_enabled=False).status == "skipped"
    assert ask(WEAK, {"content": "{s1} [S1]"}, base_url="").status == "skipped"
    assert model.requests == []


def test_only_the_question_the_previous_question_and_the_evidence_are_sent(ask: Any, model: Sim) -> None:
    out = ask(WEAK, {"content": "{s1} [S1]"}, previous="what is lantern")
    body = model.chats()[0]["body"]
    assert set(body) == {"model", "messages", "temperature", "max_tokens", "tools"}
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    assert user["content"] == run.first_message(out.plan, out.evidence)
    assert user["content"].startswith(f"Question: {WEAK}\nPrevious question: what is lantern\n\nEvidence:")
    headers = {k.lower() for k in model.chats()[0]["headers"]}
    assert headers <= {"host", "content-type", "accept", "user-agent", "authorization", "content-length",
                       "connection", "accept-encoding"}  # fmt: skip
    assert model.chats()[0]["headers"]["Authorization"] == "Bearer sk-test"


def test_the_prompt_is_a_data_file_well_under_3000_tokens() -> None:
    prompt = (ROOT / "service" / "fallback" / "prompt.md").read_text()
    assert len(prompt) / 4 < 1000 and len(prompt.split()) < 600
    assert "prompt.md" not in (ROOT / "service" / "fallback" / "run.py").read_text().replace('"prompt.md"', "")
    assert [t["function"]["name"] for t in schemas()] == ["search_wiki", "sparql"]
    assert json.loads((ROOT / "service" / "fallback" / "tools.json").read_text()) == schemas()


def test_a_name_or_a_number_only_the_question_says_is_rejected(ask: Any, planner: Planner) -> None:
    """Issue 39, point 6: a question is anyone's text (a shared link carries one); what only it says is no
    evidence, so the site never states it."""
    question = "which institute hosted her in japan, the Zorblatt Institute with 347 staff?"
    out = ask(question, {"content": "{s1} She was hosted by the Zorblatt Institute, with 347 staff. [S1]"})
    assert out.status == "rejected"
    assert any("Zorblatt" in r for r in out.reasons) and any("347" in r for r in out.reasons)


def _checked(planner: Planner, sentence: str, source: str) -> list[str]:
    evidence = Evidence()
    evidence.add("passage", "Lantern", "/wiki/lantern#design", source, "lantern#design")
    return verify(sentence, evidence, planner.engine).problems


def test_a_claim_in_ordinary_words_its_source_does_not_make_is_rejected(ask: Any, planner: Planner) -> None:
    """Issue 39, point 6: "she sold the project and was sued", cited to a passage that says nothing of the kind,
    was served as "Generated · checked": only names and numbers were looked up."""
    out = ask(WEAK, {"content": "{s1} She sold the project and was sued. [S1]"})
    assert out.status == "rejected"
    assert any("sold" in r for r in out.reasons) and any("sued" in r for r in out.reasons)
    source = "I tuned the ranking of the search engine in 2024, and it still runs every night."
    assert _checked(planner, "She tuned the ranking of the search engine in 2024. [S1]", source) == []
    assert _checked(planner, "She optimised the ranking of the search engine. [S1]", source) == []  # a synonym
    assert _checked(planner, "It runs every night. [S1]", source) == []  # another form of a word
    negated = _checked(planner, "She never tuned the ranking of the search engine. [S1]", source)
    assert negated == ["the negation “never” is not in the evidence"]
