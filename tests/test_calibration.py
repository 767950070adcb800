"""The calibration table docs/EVALUATION.md publishes — each confidence level against right and wrong (strict),
over every regression and held-out set of each bundled portfolio — is what the engine gives now: a change of
any answer's confidence or rightness changes the table, and the docs must say so."""

from __future__ import annotations

import re
from pathlib import Path

from service.engine import Planner
from service.evaluate import run_all
from tests.conftest import MATEO, NOOR, ROOT

LEVELS = ("exact", "strong", "weak", "none")


def published() -> dict[str, dict[str, tuple[int, int]]]:
    """The table of docs/EVALUATION.md: portfolio -> level -> (right, wrong)."""
    text = (ROOT / "docs" / "EVALUATION.md").read_text(encoding="utf-8")
    section = text.split("## Confidence against right and wrong", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    portfolios = [re.sub(r" right$", "", h) for h in header[1::2]]
    table: dict[str, dict[str, tuple[int, int]]] = {p: {} for p in portfolios}
    for row in rows[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[0] not in LEVELS:
            continue
        for n, portfolio in enumerate(portfolios):
            table[portfolio][cells[0]] = (int(cells[1 + 2 * n]), int(cells[2 + 2 * n]))
    return table


def measured(planner: Planner, folder: Path) -> dict[str, tuple[int, int]]:
    levels = {level: [0, 0] for level in LEVELS}
    for _, _, results in run_all(planner, folder):
        for r in results:
            levels[r.level][0 if r.ok else 1] += 1
    return {level: (right, wrong) for level, (right, wrong) in levels.items()}


def test_the_published_calibration_is_the_engine_s(planner: Planner, mateo_planner: Planner,
                                                   noor_planner: Planner) -> None:  # fmt: skip
    table = published()
    assert set(table) == {"demo", "Mateo", "Noor"}
    for name, p, folder in (("demo", planner, ROOT / "tests"), ("Mateo", mateo_planner, MATEO / "eval"),
                            ("Noor", noor_planner, NOOR / "eval")):  # fmt: skip
        assert measured(p, folder) == table[name], f"{name}: docs/EVALUATION.md's calibration table is out of date"
