"""Unique names: every label (case-insensitive) and every local name is used once in a portfolio."""

from __future__ import annotations

import re
from collections.abc import Callable

_SYMBOLS = {"+": "Plus", "#": "Sharp"}
_WORD = re.compile(r"[A-Za-z0-9]+|[+#]")


def local_name(label: str) -> str:
    """ "Actix Web" -> ActixWeb, "C++" -> CPlusPlus, "three.js" -> ThreeJs: letters and digits, a letter first."""
    parts = [_SYMBOLS.get(w, w) for w in _WORD.findall(label.replace("'", ""))]
    name = "".join(p[:1].upper() + p[1:] for p in parts)
    return name if name[:1].isalpha() else "X" + name


class Namer:
    def __init__(self) -> None:
        self.labels: set[str] = set()
        self.locals: set[str] = set()

    def free(self, label: str) -> bool:
        return label.lower() not in self.labels and local_name(label) not in self.locals

    def take(self, label: str, local: str | None = None) -> str:
        """Reserve `label` (which must be free) and return its local name."""
        name = local or local_name(label)
        self.labels.add(label.lower())
        self.locals.add(name)
        return name

    def reserve_local(self, local: str) -> str:
        """A local name for an entity whose label may repeat (a role's label is unique anyway)."""
        name, n = local, 2
        while name in self.locals:
            name, n = f"{local}{n}", n + 1
        self.locals.add(name)
        return name

    def first_free(self, make: Callable[[], str], tries: int = 200) -> str | None:
        """The first label `make` proposes that is free, or None when `tries` proposals were all taken."""
        for _ in range(tries):
            label = make()
            if self.free(label):
                return label
        return None
