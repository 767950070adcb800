"""Answers of /sparql and the console kept for the build being served. The store does not change while one build
is served, so the same query asked again in the same way (its text, the Accept it was asked with, its dataset, its
row cap) has the same answer: it is read from here without taking a worker, a client slot or query time. The cache
belongs to one build (service/web/app.py makes one per build, and empties it when a remote store moves to another).

Kept: answers (200) and the errors the query's text causes (400, 406), each at most `max_entry` bytes, the least
recently used dropped past `max_bytes`. Never kept: a query that calls NOW(), RAND(), UUID(), STRUUID() or BNODE()
(service/sparql_safety.repeatable), a limit (503) or a failure.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from service.sparql.worker import Outcome, Request

KEPT_STATUSES = (200, 400, 406)
OVERHEAD = 256  # bytes an entry costs beside its body and message: its key, the outcome, the dictionary's slot


def key(req: Request) -> bytes:
    """A digest of everything an answer depends on (a long query is not kept as its own key)."""
    h = hashlib.blake2b(digest_size=20)
    for part in (req.query, req.accept, "\x00".join(req.default_graphs), "\x00".join(req.named_graphs),
                 str(req.row_cap), req.base_iri or "", str(req.max_bytes)):  # fmt: skip
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.digest()


def _size(outcome: Outcome) -> int:
    return len(outcome.body) + len(outcome.message) + OVERHEAD


class Results:
    """A least-recently-used map from a request's digest to its outcome, bounded in bytes (0: keeps nothing). Used
    from the event loop only."""

    def __init__(self, max_bytes: int, max_entry: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.max_entry = max_bytes // 16 if max_entry is None else max_entry
        self.bytes = 0
        self._kept: OrderedDict[bytes, Outcome] = OrderedDict()

    def get(self, digest: bytes) -> Outcome | None:
        found = self._kept.get(digest)
        if found is not None:
            self._kept.move_to_end(digest)
        return found

    def put(self, digest: bytes, outcome: Outcome) -> None:
        size = _size(outcome)
        if outcome.status not in KEPT_STATUSES or size > self.max_entry:
            return
        old = self._kept.pop(digest, None)
        if old is not None:
            self.bytes -= _size(old)
        self._kept[digest] = outcome
        self.bytes += size
        while self.bytes > self.max_bytes and self._kept:
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= _size(dropped)

    def clear(self) -> None:
        self._kept.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._kept)
