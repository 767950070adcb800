"""/api/ask's inputs: ours (service/web/inputs.py) against a pydantic 2 model of the same fields, in turns, and
what importing pydantic would add to every serving process."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Annotated

from common import in_turns
from pydantic import BaseModel, Field, StringConstraints

from service.web.inputs import MAX_QUESTION, clean_question, flag, whole_number


class Ask(BaseModel):
    question: Annotated[str, StringConstraints(min_length=1, max_length=MAX_QUESTION, strip_whitespace=True)]
    page: Annotated[int, Field(ge=1, le=10_000)] = 1
    per_page: Annotated[int, Field(ge=1, le=100)] = 10
    trace: bool = False


DOC = {"question": "Rust projects from 2024", "page": "2", "per_page": "20", "trace": "1"}


def ours() -> object:
    return (clean_question(DOC["question"]), whole_number(DOC["page"], "page", 1, 10_000),
            whole_number(DOC["per_page"], "per_page", 10, 100), flag(DOC["trace"], "trace"))  # fmt: skip


def pydantic_model() -> object:
    return Ask.model_validate(DOC)


def per_call(read: object, times: int = 20_000) -> float:
    started = time.perf_counter()
    for _ in range(times):
        read()  # type: ignore[operator]
    return (time.perf_counter() - started) / times * 1e6


medians = in_turns({"ours": lambda: per_call(ours), "pydantic": lambda: per_call(pydantic_model)})
print(" · ".join(f"{name} {us:.2f} µs per request's inputs" for name, us in medians.items()))
script = "import time; t = time.perf_counter(); import pydantic; print((time.perf_counter() - t) * 1000)"
imports = [float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
           for _ in range(5)]  # fmt: skip
print(f"import pydantic: median {statistics.median(imports):.0f} ms")
