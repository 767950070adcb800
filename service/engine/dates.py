"""Time in a question, turned into a range of dates at the precision given.

Relative ("the past six months", "last year", "since last year", "last summer"), named ("March 2025", "Q3 2025",
"H1 2024", "early 2024", "summer 2023", "the 2010s"), written ("2025-03-14", "14/03/2025", "14 March 2025"),
ranges ("2019 to 2021", "between March and June 2024", "Jan-Mar 2025", "from May 2023 to June 2025"), open
ones ("before 2015", "after March 2020"), points back ("two years ago") and bare years. Month names, parts
of a year, number words and whether a written date puts the day first come from lexicon/dates.yaml.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from service.text import fold

_SHORT_YEAR = re.compile(r"(?<![\w'’])['’](\d\d)\b")  # "'24", "’19"
_ORDINAL_QUARTER = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4}


@dataclass(frozen=True)
class Period:
    start: date
    end: date
    text: str  # the words that named it
    gap: tuple[str, ...] = ()  # words inside `text` that name no time ("leaving" in "after leaving Acme")

    def iso(self) -> tuple[str, str]:
        return self.start.isoformat(), self.end.isoformat()


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


class DateParser:
    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.months: dict[str, int] = {fold(k): int(v) for k, v in spec["months"].items()}
        self.parts: dict[str, tuple[int, int]] = {fold(k): (int(v[0]), int(v[1])) for k, v in spec["parts"].items()}
        self.numbers: dict[str, int] = {fold(k): int(v) for k, v in spec["numbers"].items()}
        self.day_first = bool(spec.get("day_first", True))
        around = dict(spec.get("around_role") or {})
        self.role_reach = int(around.pop("reach", 0))
        self.role_bounds: dict[str, str] = {fold(str(k)): str(v) for k, v in around.items()}
        self.lead_in = [tuple(fold(str(p)).split()) for p in spec.get("lead_in") or []]
        # "around covid": a time everyone knows by its name, first and last month
        self.named: dict[str, tuple[str, str]] = {fold(str(k)): (str(v[0]), str(v[1]))
                                                  for k, v in (spec.get("named") or {}).items()}  # fmt: skip
        self.named_words = frozenset(w for name in self.named for w in re.findall(r"[\w-]+", name)) - {"the"}
        seasons = [p for p, (first, last) in self.parts.items() if (last - first) % 12 <= 2]  # "last summer"
        month = "|".join(sorted(map(re.escape, self.months), key=len, reverse=True))
        part = "|".join(sorted(map(re.escape, self.parts), key=len, reverse=True))
        number = "|".join(sorted(map(re.escape, self.numbers), key=len, reverse=True))
        year = r"(19\d\d|20\d\d)"
        until = r"\s*(?:-|–|to|until|till|through|and)\s*"
        season = "|".join(sorted(map(re.escape, seasons), key=len, reverse=True)) or "(?!)"
        counted = "|".join(sorted(map(re.escape, map(fold, spec.get("counted") or [])), key=len, reverse=True))
        not_counted = rf"(?!\s+(?:{counted})\b)" if counted else ""
        named = "|".join(sorted(map(re.escape, self.named), key=len, reverse=True)) or "(?!)"
        self._patterns: list[tuple[re.Pattern[str], str]] = [
            (re.compile(rf"\b(?:from\s+|between\s+)?({month})\.?\s+(?:of\s+)?{year}{until}({month})\.?\s+(?:of\s+)?{year}\b"),
             "month_range_years"),
            (re.compile(rf"\b(?:from\s+|between\s+)?({month})\.?{until}({month})\.?\s+(?:of\s+|in\s+)?{year}\b"),
             "month_range"),
            (re.compile(rf"\b(\d{{1,2}})[/.](\d{{1,2}})[/.]{year}\b"), "numeric_day"),
            (re.compile(r"\b(?:(early|mid|late)[\s-]+)?(19\d0|20\d0)'?s\b"), "decade"),
            (re.compile(rf"\b(?:{year}\s+)?({named})\b"), "named"),
            (re.compile(rf"\b(last|past|previous|this)\s+({season})\b"), "relative_season"),
            (re.compile(rf"\b(before|after)\s+(?:({month})\.?\s+)?{year}\b"), "open"),
            (re.compile(rf"\b(\d+|{number})\s+(year|month|week)s?\s+ago\b"), "ago"),
            (re.compile(rf"\bsince\s+(?:({month})\s+)?{year}\b"), "since_year"),
            (re.compile(rf"\b(?:from|starting)\s+(?:({month})\s+)?{year}\s+(?:on|onwards?)\b"), "since_year"),
            (re.compile(r"\bsince\s+last\s+(year|month)\b"), "since_last"),
            (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), "iso_day"),
            (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({month})\.?,?\s+{year}\b"), "day_month_year"),
            (re.compile(rf"\b({month})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{year}\b"), "month_day_year"),
            (re.compile(rf"\bq([1-4])\s*(?:of\s+|in\s+)?(?:the\s+year\s+)?{year}\b"), "quarter"),
            (re.compile(rf"\b(first|1st|second|2nd|third|3rd|fourth|4th|last)\s+quarter\s+(?:of\s+|in\s+)?{year}\b"),
             "quarter_words"),
            (re.compile(rf"\b({part})\s+(?:of\s+|in\s+)?{year}\b"), "part_year"),
            (re.compile(rf"\b({month})\.?\s+(?:of\s+)?{year}\b"), "month_year"),
            (re.compile(rf"\b{year}-(\d{{2}})\b"), "iso_month"),
            (re.compile(rf"\b(?:from|between)?\s*{year}\s*(?:-|–|to|until|till|and)\s*{year}\b"), "year_range"),
            (re.compile(rf"\b(?:past|last|previous)\s+(\d+|{number})\s+(?:of\s+)?(day|week|month|year)s?\b"),
             "relative_n"),
            (re.compile(r"\b(?:past|last|previous)\s+(day|week|month|year)\b"), "relative_1"),
            (re.compile(r"\bthis\s+(year|month)\b"), "this"),
            (re.compile(rf"\b(?:in|during|of|for|from|around|since)?\s*{year}\b{not_counted}"), "year"),
        ]  # fmt: skip

    @staticmethod
    def expanded(question: str, today: date) -> str:
        """The question with a year written short in full, "in '24" or "summer ’19": this century's up to next
        year, else the last's (the text a period's `text` is found in)."""
        return _SHORT_YEAR.sub(lambda m: f"{20 if int(m[1]) <= today.year % 100 + 1 else 19}{m[1]}", question)

    def around_role(self, question: str, roles: Sequence[tuple[int, int, str, str | None]],
                    today: date) -> tuple[Period, int] | None:  # fmt: skip
        """The period a word of dates.yaml's `around_role` bounds by a role the question names ("before Acme
        Studio"), with the number of the name that bounds it: `roles` are (start, end) of each name in the question
        with the role's first and last day."""
        folded = fold(question)
        for number, (at, end_at, first, last) in enumerate(roles):
            before = list(re.finditer(r"[\w']+", folded[:at]))[-self.role_reach - 1 :]  # its word within reach
            for n, word in enumerate(reversed(before)):
                bound = self.role_bounds.get(word.group())
                if bound is None:
                    continue
                began, ended = date.fromisoformat(first[:10]), date.fromisoformat(last[:10]) if last else None
                if bound == "start":
                    start, end = date(1900, 1, 1), began - timedelta(days=1)
                elif bound == "end":
                    start, end = (ended + timedelta(days=1) if ended else began), today
                else:
                    start, end = began, today
                if start <= end:
                    gap = tuple(w.group() for w in before[len(before) - n :])
                    return Period(start, end, folded[word.start() : end_at].strip(), gap), number
                break
        return None

    def parse(self, question: str, today: date) -> Period | None:
        text = self.expanded(fold(question), today)
        for pattern, kind in self._patterns:
            m = pattern.search(text)
            if m is None:
                continue
            period = self._period(kind, m, today)
            if period is not None:
                start, end = period
                if start <= end:
                    return Period(start, end, m.group().strip())
        return None

    def _period(self, kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
        g = m.groups()
        try:
            if kind in ("month_range_years", "month_range"):
                first, last = self.months[g[0]], self.months[g[-2] if kind == "month_range_years" else g[1]]
                end_year = int(g[-1])
                start_year = int(g[1]) if kind == "month_range_years" else end_year - (first > last)
                return date(start_year, first, 1), _month_end(end_year, last)
            if kind == "numeric_day":
                a, b, year = int(g[0]), int(g[1]), int(g[2])
                d, mo = (a, b) if a > 12 or (self.day_first and b <= 12) else (b, a)
                written = date(year, mo, d)
                return written, written
            if kind == "decade":
                decade = int(g[1])
                first, last = {"early": (0, 3), "mid": (4, 6), "late": (7, 9)}.get(g[0] or "", (0, 9))
                if decade + first > today.year:
                    return None
                return date(decade + first, 1, 1), min(date(decade + last, 12, 31), today)
            if kind == "relative_season":
                return self._season(g[1], today, this=g[0] == "this")
            if kind == "ago":  # "two years ago": that calendar year; "three months ago": that month
                n = int(g[0]) if g[0].isdigit() else self.numbers[g[0]]
                if g[1] == "year":
                    return date(today.year - n, 1, 1), date(today.year - n, 12, 31)
                if g[1] == "month":
                    then = _add_months(today.replace(day=1), -n)
                    return then, _month_end(then.year, then.month)
                then = today - timedelta(weeks=n)
                return then - timedelta(days=then.weekday()), then - timedelta(days=then.weekday()) + timedelta(days=6)
            if kind == "open":
                month = self.months[g[1]] if g[1] else 1
                year = int(g[2])
                if g[0] == "before":
                    return date(1900, 1, 1), date(year, month, 1) - timedelta(days=1)
                return (_month_end(year, month) if g[1] else date(year, 12, 31)) + timedelta(days=1), today
            if kind == "iso_day":
                day = date(int(g[0]), int(g[1]), int(g[2]))
                return day, day
            if kind == "day_month_year":
                day = date(int(g[2]), self.months[g[1]], int(g[0]))
                return day, day
            if kind == "month_day_year":
                day = date(int(g[2]), self.months[g[0]], int(g[1]))
                return day, day
            if kind in ("quarter", "quarter_words"):
                q = int(g[0]) if kind == "quarter" else _ORDINAL_QUARTER[g[0]]
                year = int(g[1])
                return date(year, 3 * q - 2, 1), _month_end(year, 3 * q)
            if kind == "part_year":
                first, last = self.parts[g[0]]
                year = int(g[1])
                start_year = year - 1 if first > last else year
                return date(start_year, first, 1), _month_end(year, last)
            if kind in ("month_year", "iso_month"):
                month, year = (self.months[g[0]], int(g[1])) if kind == "month_year" else (int(g[1]), int(g[0]))
                return date(year, month, 1), _month_end(year, month)
            if kind == "year_range":
                return date(int(g[0]), 1, 1), date(int(g[1]), 12, 31)
            if kind in ("relative_n", "relative_1"):
                n = 1 if kind == "relative_1" else (int(g[0]) if g[0].isdigit() else self.numbers[g[0]])
                unit = g[-1]
                if unit == "day":
                    return today - timedelta(days=n), today
                if unit == "week":
                    return today - timedelta(weeks=n), today
                months = n if unit == "month" else 12 * n
                if kind == "relative_1" and m.group().startswith("last"):  # "last year": the calendar year before
                    if unit == "year":
                        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
                    if unit == "month":
                        month_start = _add_months(today.replace(day=1), -1)
                        return month_start, _month_end(month_start.year, month_start.month)
                return _add_months(today, -months), today
            if kind == "since_year":
                month = self.months[g[0]] if g[0] else 1
                return date(int(g[1]), month, 1), today
            if kind == "since_last":
                if g[0] == "year":
                    return date(today.year - 1, 1, 1), today
                return _add_months(today.replace(day=1), -1), today
            if kind == "this":
                return (date(today.year, 1, 1) if g[0] == "year" else today.replace(day=1)), today
            if kind == "named":  # "the 2020 lockdown": the part of it in that year
                began, ended = (date.fromisoformat(f"{month}-01") for month in self.named[g[1]])
                since, until = began, min(_month_end(ended.year, ended.month), today)
                if g[0]:
                    since, until = max(since, date(int(g[0]), 1, 1)), min(until, date(int(g[0]), 12, 31))
                return (since, until) if since <= until else None
            if kind == "year":
                year = int(g[0])
                if year > today.year + 1:
                    return None
                return date(year, 1, 1), min(date(year, 12, 31), max(today, date(year, 1, 1)))
        except (ValueError, KeyError):
            return None
        return None

    def _season(self, name: str, today: date, *, this: bool) -> tuple[date, date] | None:
        """"this summer": the one of this year; "last summer": the latest one over before today."""
        first, last = self.parts[name]
        for year in range(today.year + 1, today.year - 2, -1):
            start, end = date(year - (first > last), first, 1), _month_end(year, last)
            if (this and start.year <= today.year <= end.year and start <= today) or (not this and end < today):
                return start, end
        return None
