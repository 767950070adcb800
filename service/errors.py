"""Exceptions and problem reports.

FolioError
 ├── ProblemsFound      one or more problems in the editor's inputs (each with file and line)
 ├── KBNotFound         no built knowledge base where one was expected
 └── BuildFailed        a build step failed for a reason that is not an input problem
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """Something wrong in an input file, reported as `file:line: [check] message`."""

    path: str
    line: int
    check: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: [{self.check}] {self.message}"


def display_path(path: Path | str) -> str:
    """A path relative to the working directory when it is inside it, so messages stay short."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)


class FolioError(Exception):
    """Base of every error this package raises on purpose."""


class ProblemsFound(FolioError):
    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class KBNotFound(FolioError):
    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"No knowledge base at {path}: run `python -m service build` first.")


class BuildFailed(FolioError):
    pass
