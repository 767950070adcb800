"""Example parameters of the stored queries (language/query-examples.yaml, and an owner's own file): what the
console offers to try and `bench queries` runs. Values are local names, `pf:Name` terms, dates, or markers
that work for any portfolio:

  @person                       the person of site.yaml
  @Skill, @Work, @Role ...      the entity of that class the graph mentions most (@Work#2: the second)
  @quarter-start, @quarter-end  the last quarter with recorded activity (pf:activeMonth)
  @year-ago                     a year before the last recorded activity
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from service.queries import TEXT_TYPES, Catalog, QueryError, StoredQuery, example_values
from service.vocab import PF

_MARKER = re.compile(r"^@(?:(person|quarter-start|quarter-end|year-ago)|([A-Z][A-Za-z]*)(?:#([1-9]\d*))?)$")


def marker_problem(value: object, classes: set[str]) -> str | None:
    """What is wrong with a value written as a marker (None when it is fine or no marker)."""
    if not isinstance(value, str) or not value.startswith("@"):
        return None
    m = _MARKER.match(value)
    if m is None:
        return f"{value!r} is no marker: use @person, @quarter-start, @quarter-end, @year-ago or @ClassName"
    if m.group(2) and PF + m.group(2) not in classes:
        return f"{value!r}: pf:{m.group(2)} is not a class of the ontology"
    return None


class Examples:
    """Markers resolved against one KB's store, once each."""

    def __init__(self, catalog: Catalog, person_iri: str, routes: Mapping[str, str]) -> None:
        self.catalog, self.person, self.routes = catalog, person_iri, routes
        self._last: date | None = None

    def _latest(self) -> date:
        if self._last is None:
            rows = self.catalog.run(self.routes["latest_activity"]).rows
            found = rows[0]["last"].value if rows and "last" in rows[0] else None
            self._last = date.fromisoformat(found[:10]) if found else date.today()
        return self._last

    def _resolve(self, value: str, label: bool = False) -> object:
        m = _MARKER.match(value)
        if m is None:
            raise QueryError(f"{value!r} is no example marker")
        special, cls, nth = m.groups()
        if special == "person":
            return self.person
        if special:
            last = self._latest()
            q_start = date(last.year, 3 * ((last.month - 1) // 3) + 1, 1)
            q_end = (date(q_start.year + (q_start.month + 3 > 12), (q_start.month + 2) % 12 + 1, 1)
                     - timedelta(days=1))  # fmt: skip
            return {"quarter-start": q_start, "quarter-end": q_end, "year-ago": last - timedelta(days=365)}[special]
        rows = self.catalog.run(self.routes["by_mentions"], {"class": PF + cls}).rows
        index = int(nth or 1) - 1
        if index >= len(rows):
            raise QueryError(f"{value}: the graph has no {index + 1} entities of class pf:{cls}")
        return rows[index]["entityLabel" if label else "entity"].value  # a string parameter takes its name

    def values(self, query: StoredQuery, raw: Mapping[str, Any], entity_base: str) -> dict[str, object]:
        def named(k: str) -> bool:
            return k in query.params and query.params[k].type in TEXT_TYPES

        resolved = {k: self._resolve(v, named(k)) if isinstance(v, str) and v.startswith("@") else v
                    for k, v in raw.items()}  # fmt: skip
        return example_values(query, resolved, entity_base)
