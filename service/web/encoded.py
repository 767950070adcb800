"""The JSON of an answer's page, encoded once for each plan a worker keeps: a question asked again gets the same
plan object from the plan cache (service/web/plans.py), and its page's JSON is the same bytes every time, so
only the answer's id (new for each response) is added to them. Encoding a plan of about 10 KB cost more than
anything else in a warm /api/ask (about 60 µs, with making the dictionaries)."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from service.engine.model import Plan

KEPT = 2048  # pages kept: about 6 KB each (the demo's answers), 11 MB at most; each holds its plan, so an id is
# never reused while its bytes are here


def dumps(content: Any) -> bytes:
    """JSON as Starlette's JSONResponse writes it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


class Encoded:
    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, int, int], tuple[Plan, bytes]] = OrderedDict()

    def page(self, plan: Plan, number: int, size: int, body: Any, *, keep: bool = True) -> bytes:
        """The encoded page of `plan` (`body()` makes its JSON the first time), without the closing brace; `keep`
        false when the plan is not one the worker keeps (no plan cache, a trace), which would never be asked again."""
        if not keep:
            return dumps(body())[:-1]
        key = (id(plan), number, size)
        found = self._kept.get(key)
        if found is not None and found[0] is plan:
            self._kept.move_to_end(key)
            return found[1]
        encoded = dumps(body())[:-1]
        self._kept[key] = (plan, encoded)
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return encoded


def with_answer_id(page: bytes, answer: str | None) -> bytes:
    """The page's JSON closed, with the answer's id as its last member when there is one."""
    return page + (b',"answer_id":' + dumps(answer) + b"}" if answer else b"}")
