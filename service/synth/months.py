"""Month arithmetic for the generator: dates are first days of months unless said otherwise."""

from __future__ import annotations

import calendar
from datetime import date

LAST = date(2025, 12, 1)  # no activity after this month, so nothing is in the future of a real reader

MONTH_NAMES = list(calendar.month_name)


def add(d: date, months: int) -> date:
    n = d.year * 12 + d.month - 1 + months
    return date(n // 12, n % 12 + 1, 1)


def span(start: date, end: date) -> int:
    """Months from start to end, both included."""
    return (end.year - start.year) * 12 + end.month - start.month + 1


def month_end(d: date) -> date:
    return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def first(d: date) -> date:
    return date(d.year, d.month, 1)


def said(d: date) -> str:
    """June 2019."""
    return f"{MONTH_NAMES[d.month]} {d.year}"


def said_day(d: date) -> str:
    """17 June 2019."""
    return f"{d.day} {MONTH_NAMES[d.month]} {d.year}"
