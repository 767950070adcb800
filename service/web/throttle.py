"""Events counted per client and in all, in a sliding window: wrong guesses of the owner's token, questions
written to the log.

Once a client has had `per_client` events within `window` seconds, or all clients together `overall`, `wait`
says how long until the oldest of them leaves the window: the owner's login then refuses every try (the right
one too), so a brute force gets a handful of tries per window instead of hundreds a second; the question log
leaves further questions of that client unwritten. Clients are kept by a keyed hash of their address (the key is
made when the process starts), only in memory, and at most `clients` of them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from starlette.requests import Request


def address(request: Request) -> str:
    """The client's address as the server sees it (a proxy in front decides what that is)."""
    return request.client.host if request.client else "unknown"


class Throttle:
    def __init__(self, *, per_client: int, overall: int, window: float, clients: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.per_client, self.overall, self.window, self.clients = per_client, overall, window, clients
        self._clock = clock
        self._key = os.urandom(16)
        self._lock = threading.Lock()
        self._by_client: OrderedDict[str, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()

    def _client(self, address: str) -> str:
        return hmac.new(self._key, address.encode(), hashlib.sha256).hexdigest()[:32]

    def _prune(self, times: deque[float], now: float) -> None:
        while times and times[0] <= now - self.window:
            times.popleft()

    def wait(self, address: str) -> float:
        """Seconds before this client may try again; 0 when it may now."""
        now = self._clock()
        with self._lock:
            self._prune(self._all, now)
            waits = [0.0]
            if len(self._all) >= self.overall:
                waits.append(self._all[len(self._all) - self.overall] + self.window - now)
            mine = self._by_client.get(self._client(address))
            if mine is not None:
                self._prune(mine, now)
                if len(mine) >= self.per_client:
                    waits.append(mine[len(mine) - self.per_client] + self.window - now)
            return max(waits)

    def note(self, address: str) -> None:
        """One event of this client (a wrong guess, a question written)."""
        now = self._clock()
        key = self._client(address)
        with self._lock:
            self._all.append(now)
            self._prune(self._all, now)
            mine = self._by_client.pop(key, None) or deque()
            mine.append(now)
            self._prune(mine, now)
            self._by_client[key] = mine  # the most recent last: the least recent goes first when too many
            while len(self._by_client) > self.clients:
                self._by_client.popitem(last=False)

    def forget(self, address: str) -> None:
        """This client's events are forgotten (the right token was given)."""
        with self._lock:
            self._by_client.pop(self._client(address), None)
