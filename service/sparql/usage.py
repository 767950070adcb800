"""How much query time each client has used lately: the SPARQL pool's measure of fairness.

A client's use is the worker seconds its queries took, decaying exponentially with the time constant
SPARQL_BUDGET_WINDOW: a query of 10 s weighs 10 now, about 3.7 a window later. The pool serves the waiting
client that used least first, stops a query of a client that used more for one that waits, and refuses (429) a
client whose use passed SPARQL_CLIENT_BUDGET until it has decayed below it. Clients are kept by a keyed hash
of their address, in this process's memory only, and forgotten once their use has decayed to nothing.
"""

from __future__ import annotations

import hashlib
import math
import secrets

FORGET_BELOW = 0.001  # seconds of use below which a client is forgotten
TIDY_EVERY = 4096  # clients remembered before the forgotten ones are swept out


class Usage:
    def __init__(self, window: float, budget: float) -> None:
        self.window = max(1.0, window)
        self.budget = budget  # 0: no budget
        self._key = secrets.token_bytes(16)
        self._used: dict[bytes, tuple[float, float]] = {}  # client -> (seconds used, when they were counted)

    def _id(self, client: str) -> bytes:
        return hashlib.blake2b(client.encode("utf-8", "replace"), key=self._key, digest_size=8).digest()

    def _decayed(self, entry: tuple[float, float] | None, now: float) -> float:
        if entry is None:
            return 0.0
        used, when = entry
        return used * math.exp(-(now - when) / self.window)

    def used(self, client: str, now: float) -> float:
        return self._decayed(self._used.get(self._id(client)), now)

    def add(self, client: str, seconds: float, now: float) -> None:
        key = self._id(client)
        self._used[key] = (self._decayed(self._used.get(key), now) + max(0.0, seconds), now)
        if len(self._used) > TIDY_EVERY:
            self._used = {k: e for k, e in self._used.items() if self._decayed(e, now) >= FORGET_BELOW}

    def wait_for_budget(self, client: str, now: float) -> float:
        """Seconds until the client's use decays below the budget (0: within it now)."""
        used = self.used(client, now)
        if self.budget <= 0 or used < self.budget:
            return 0.0
        return self.window * math.log(used / self.budget) + 0.5
