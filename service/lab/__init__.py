"""The retrieval lab (issue 13): eight ways to search this portfolio's own wiki for one question, every step shown.

`run_lab(engine, question)` returns a Report: for each technique its name, a one-line explanation, the formula
it scores with, its ordered steps, its top passages with scores (the formula filled in), its time, and how it
compares with plain keyword search. The numbers that tune it are in tuning.yaml; `python -m service lab eval`
(service/lab/evaluate.py) measures each technique over the evaluation questions.
"""

from __future__ import annotations

from service.lab.model import Hit, Report, Step, Technique
from service.lab.run import TECHNIQUES, prepare, run_lab

__all__ = ["TECHNIQUES", "Hit", "Report", "Step", "Technique", "prepare", "run_lab"]
