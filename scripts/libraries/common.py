"""What the comparisons share: rounds in turns (the machine is shared and noisy), medians."""

from __future__ import annotations

import statistics
from collections.abc import Callable


def in_turns(contenders: dict[str, Callable[[], float]], rounds: int = 6) -> dict[str, float]:
    """Each contender's median over `rounds`, the order reversed every other round."""
    got: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for n in range(rounds):
        for name in names if n % 2 == 0 else names[::-1]:
            got[name].append(contenders[name]())
    return {name: statistics.median(values) for name, values in got.items()}
