"""How an answer was found: the steps one plan took, in order, each as one readable sentence and the figures
behind it. Recorded only when asked (`Planner.plan(..., trace=True)`, `/api/ask?trace=1`, `ask --trace`):
with the trace off, every hook is one test of `None`.

Stages, in the order a plan meets them: spelling, shorthand, context, apart (names set apart), linking, intent,
period, search (words and expansions), branch (tried, answered, kept or undone and why), query (each stored query
run), passages (the articles searched and their scores), fusion, complete (a sentence added that states what
was asked), confidence; for two questions asked in one,
a split step, then the steps of each part's plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.engine.state import State


@dataclass(frozen=True)
class Step:
    stage: str
    text: str
    facts: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "text": self.text, **({"facts": self.facts} if self.facts else {})}


class Trace(list[Step]):
    """The steps of one plan, in the order they were taken."""

    def add(self, stage: str, said: str, /, **facts: Any) -> None:
        self.append(Step(stage, said, facts))


def branch_name(branch: Callable[..., Any]) -> str:
    """A branch as the code names it ("lists.count"), so a reader can find it; the planner's own by name."""
    module = getattr(branch, "__module__", "") or ""
    if module.startswith("service.engine.") and module != "service.engine.plan":
        return f"{module.rsplit('.', 1)[-1]}.{branch.__name__}"
    return branch.__name__


def trace_understanding(st: State, rule: str, read: Sequence[str]) -> None:
    """What the engine read in the question: names, words skipped as ordinary, the intent and why, the period,
    the search words."""
    tr, engine = st.trace, st.engine
    assert tr is not None
    for m in st.linked.mentions:
        names = [engine.entities[i].label if i in engine.entities else i for i in m.iris]
        if len(m.iris) == 1:
            tr.add("linking", f"“{m.text}” names {names[0]}", text=m.text, at=[m.start, m.end], entities=m.iris)
        else:
            tr.add("linking", f"“{m.text}” is ambiguous: {', '.join(names)}", text=m.text, at=[m.start, m.end],
                   entities=m.iris)  # fmt: skip
    for word in st.linked.skipped:
        tr.add("linking", f"“{word}” is a name but also an ordinary word, written in lower case with no cue: "
               "read as a word", text=word)  # fmt: skip
    if not st.linked.mentions:
        tr.add("linking", "no name of the graph in the question")
    if rule == "authored":
        why = f"the question is an authored one ({st.authored_key})"
    elif rule == "only_filler":
        why = "only a name and filler words"
    elif rule:
        why = f"rule “{rule}” {engine.intents.rules[rule].why(read)}"
    else:
        why = "no intent rule matched"
    tr.add("intent", f"intent {st.kind}: {why}", intent=st.kind, rule=rule or None, cue=list(st.cue))
    if st.period is not None:
        start, end = st.period.iso()
        tr.add("period", f"“{st.period.text}” is {start} to {end}", text=st.period.text, start=start, end=end)
    if st.terms:
        extra = st.plan.expansions
        said = f"search words: {', '.join(st.terms)}" + (f"; with synonyms {', '.join(extra)}" if extra else "")
        tr.add("search", said, terms=list(st.terms), expanded=extra)


def trace_passed(tr: Trace, passed: list[str], at: int) -> None:
    """The branches tried that did not answer (and read nothing), as one step put at `at`, before what the
    next branch read; the list is emptied."""
    if passed:
        tr.insert(at, Step("branch", f"tried, no answer: {', '.join(passed)}", {"branches": list(passed),
                                                                               "answered": False}))
        passed.clear()
