"""Pages of an answer's results: every result the answer has, `per_page` at a time (the first page is the plan's
own results), for the API and the ask page alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from service.engine.model import Plan, Result
from service.engine.plan import Planner
from service.web.inputs import MAX_PAGE, MAX_PER_PAGE, whole_number


@dataclass(frozen=True)
class Page:
    number: int
    size: int
    total: int
    results: list[Result]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    @property
    def first(self) -> int:
        """The position of the page's first result, from 1."""
        return (self.number - 1) * self.size + 1

    def to_json(self) -> dict[str, Any]:
        return {"page": self.number, "per_page": self.size, "pages": self.pages, "total": self.total}

    def link(self, path: str, params: dict[str, str | None], number: int) -> str:
        """The address of another page: the same question (`params`, those given), page `number`."""
        return f"{path}?{urlencode({**{k: v for k, v in params.items() if v}, 'page': str(number)})}"


def asked(planner: Planner, page: Any, per_page: Any) -> tuple[int, int]:
    """The page number and size asked for (as sent: strings or numbers; absent, the first page of the usual
    size), checked before anything is planned: a bad one is a 422."""
    default = int(planner.engine.weights["results"]["limit"])
    return whole_number(page, "page", 1, MAX_PAGE), whole_number(per_page, "per_page", default, MAX_PER_PAGE)


def of(planner: Planner, plan: Plan, number: int, size: int) -> Page:
    """Page `number` of the plan's results in pages of `size`; a page past the last is empty."""
    return Page(number, size, plan.total, planner.page(plan, number, size))
