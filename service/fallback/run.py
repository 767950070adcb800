"""Algorithm 8: ask the model with the evidence, let it call tools for at most three rounds, verify what it
says, and return the plan to serve: the model's checked answer, or the plan exactly as it was.

Eligible: a plan rated weak or none, with nothing ambiguous, not declined by design (a private question, an
opinion, chit-chat, a third party: routes `private` and `off_topic`). Everything else is returned untouched
without a byte sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from service.engine.engine import Engine
from service.engine.model import Answer, Confidence, Plan
from service.fallback.evidence import Evidence, pack
from service.fallback.tools import SparqlRunner, Toolbox, schemas
from service.fallback.verify import Verdict, verify
from service.model_settings import Settings
from service.provider import CoolDown, Provider, ProviderError

log = logging.getLogger("service.fallback")

MAX_TOOL_ROUNDS = 3
MAX_CALLS_PER_ROUND = 3
DECLINED = ("private", "off_topic")  # refused by design: never sent anywhere
SCORE = 40  # a checked model answer: never exact, never more than Low on the page's scale
COOL_DOWN = 30.0  # seconds the provider is not asked after a call it did not answer in time (or at all)
COOLING = CoolDown(COOL_DOWN)  # one per serving process: a provider down for one question is down for the next


@dataclass
class Outcome:
    plan: Plan
    status: str  # skipped, verified, rejected, failed
    reasons: list[str] = field(default_factory=list)
    rounds: int = 0
    ms: float = 0.0
    evidence: Evidence | None = None
    verdict: Verdict | None = None


def eligible(plan: Plan) -> bool:
    return (
        plan.confidence.level in ("weak", "none")
        and not plan.ambiguous
        and plan.route not in (*DECLINED, "ambiguous")
        and bool(plan.normalized.strip())
    )


def instructions(engine: Engine) -> str:
    text = resources.files("service.fallback").joinpath("prompt.md").read_text(encoding="utf-8")
    return text.replace("{person}", engine.voice.name)


def first_message(plan: Plan, evidence: Evidence) -> str:
    """What the model is told: the question, the previous question, the evidence. Nothing else."""
    previous = f"Previous question: {plan.previous}\n" if plan.previous else ""
    return f"Question: {plan.normalized}\n{previous}\nEvidence:\n\n{evidence.shown()}"


async def answer(plan: Plan, engine: Engine, settings: Settings, sparql: SparqlRunner) -> Outcome:
    """The plan to serve for `plan` with the fallback on (the same plan when nothing checked comes back)."""
    if not settings.enabled or not eligible(plan):
        return Outcome(plan, "skipped")
    if (left := COOLING.left()) > 0:
        return Outcome(plan, "skipped", [f"provider cooling down after a call with no reply ({left:.0f} s left)"])
    started = time.perf_counter()
    outcome = await _ask(plan, engine, settings, sparql)
    outcome.ms = (time.perf_counter() - started) * 1000
    if outcome.status != "verified":
        log.info("fallback %s: %s", outcome.status, "; ".join(outcome.reasons))
    return outcome


async def _ask(plan: Plan, engine: Engine, settings: Settings, sparql: SparqlRunner) -> Outcome:
    provider = Provider(settings.base_url, settings.api_key, settings.timeout)
    evidence = pack(engine, plan)
    box = Toolbox(engine, evidence, sparql, [])
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": instructions(engine)},
        {"role": "user", "content": first_message(plan, evidence)},
    ]
    tools, rounds, content = schemas(), 0, None
    while True:
        offered = tools if rounds < MAX_TOOL_ROUNDS else []
        try:
            reply = await asyncio.to_thread(provider.chat, settings.model, messages, offered)
        except ProviderError as e:
            if e.waited:
                COOLING.trip()
                log.warning("fallback: the model provider gave no reply (%s); it is not asked again for %g s, "
                            "and weak questions are answered without it meanwhile", e.reason, COOL_DOWN)  # fmt: skip
            return Outcome(plan, "failed", [f"provider: {e.reason}"], rounds + 1, evidence=evidence)
        calls = reply.get("tool_calls")
        if not calls:
            content = reply.get("content")
            break
        if not isinstance(calls, list) or rounds >= MAX_TOOL_ROUNDS:
            why = "still calling tools after three rounds" if isinstance(calls, list) else "malformed tool calls"
            return Outcome(plan, "rejected", [why], rounds + 1, evidence=evidence)
        rounds += 1
        kept = [c for c in calls[:MAX_CALLS_PER_ROUND] if isinstance(c, dict)]
        messages.append({"role": "assistant", "content": None, "tool_calls": kept})
        for n, call in enumerate(kept):
            fn = call["function"] if isinstance(call.get("function"), dict) else {}
            name, args = str(fn.get("name", ""))[:40], fn.get("arguments", "{}")
            result = await box.call(name, args)
            messages.append({"role": "tool", "tool_call_id": str(call.get("id", f"call_{n}"))[:64],
                             "content": result})  # fmt: skip
    verdict = verify(content, evidence, engine)
    calls_made = rounds + 1
    if not verdict.ok:
        return Outcome(plan, "rejected", verdict.problems, calls_made, evidence=evidence, verdict=verdict)
    sources = [item.source() for s in verdict.cited if (item := evidence.get(s)) is not None]
    served = dataclasses.replace(
        plan,
        answer=Answer(verdict.text, sources),
        confidence=Confidence("weak", SCORE, "Low", True),
        sparql=[*plan.sparql, *box.runs],
        fallback=None,
        contact_url=None,
        generated={"by": settings.model or "model", "verified": True, "rounds": calls_made},
    )
    return Outcome(served, "verified", [], calls_made, evidence=evidence, verdict=verdict)
