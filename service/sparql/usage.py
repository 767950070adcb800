"""How much query time each client has used lately: the SPARQL pool's measure of fairness.

A client's use is the worker seconds its queries took, decaying exponentially with the time constant
SPARQL_BUDGET_WINDOW: a query of 10 s weighs 10 now, about 3.7 a window later. The pool serves the waiting
client that used least first, stops a query of a client that used more for one that waits, and refuses (429) a
client whose use passed SPARQL_CLIENT_BUDGET until it has decayed below it.

Uses are kept in BUCKETS records of (seconds, when), a client's record chosen by a keyed hash of its address, so
no address is written anywhere (the places of the last few thousand clients' records are held in this process's
memory, as the queries in flight hold their clients' addresses). `serve` gives its web workers one shared file
of records (beside the client-slots file, service/web/limits.py), so a client's use counts across every worker;
each record is updated under a byte-range lock. Without a file, the records are this process's own.
"""

from __future__ import annotations

import fcntl
import hashlib
import math
import mmap
import os
import secrets
import struct
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

BUCKETS = 1 << 16  # clients share a record only by a keyed hash collision
RECORD = struct.Struct("=dd")  # seconds used, and when they were counted (time.monotonic(): one clock per host)
SIZE = BUCKETS * RECORD.size  # 1 MiB, sparse on disk
OFFSETS_KEPT = 4096  # clients whose record's place is kept in memory (the addresses stay in this process only)


class _Locked(AbstractContextManager[None]):
    def __init__(self, fd: int, offset: int) -> None:
        self.fd, self.offset = fd, offset

    def __enter__(self) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_EX, RECORD.size, self.offset, os.SEEK_SET)

    def __exit__(self, *_: object) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_UN, RECORD.size, self.offset, os.SEEK_SET)


class Usage:
    def __init__(self, window: float, budget: float, path: Path | None = None, key: str | None = None) -> None:
        self.window = max(1.0, window)
        self.budget = budget  # 0: no budget
        self._key = bytes.fromhex(key) if key else secrets.token_bytes(16)
        self._fd: int | None = None
        self._offsets: dict[str, int] = {}  # the record of each client seen lately (the scheduler asks often)
        self._records: mmap.mmap | bytearray
        if path is None:
            self._records = bytearray(SIZE)
        else:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            if os.fstat(self._fd).st_size < SIZE:
                os.ftruncate(self._fd, SIZE)
            self._records = mmap.mmap(self._fd, SIZE)

    def _offset(self, client: str) -> int:
        found = self._offsets.get(client)
        if found is None:
            digest = hashlib.blake2b(client.encode("utf-8", "replace"), key=self._key, digest_size=4).digest()
            found = int.from_bytes(digest, "big") % BUCKETS * RECORD.size
            if len(self._offsets) >= OFFSETS_KEPT:
                self._offsets.clear()
            self._offsets[client] = found
        return found

    def _decayed(self, offset: int, now: float) -> float:
        used, when = RECORD.unpack_from(self._records, offset)
        if used <= 0:
            return 0.0
        return float(used * math.exp(-max(0.0, now - when) / self.window))

    def used(self, client: str, now: float) -> float:
        return self._decayed(self._offset(client), now)

    def add(self, client: str, seconds: float, now: float) -> None:
        offset = self._offset(client)
        locked = _Locked(self._fd, offset) if self._fd is not None else nullcontext()
        with locked:
            RECORD.pack_into(self._records, offset, self._decayed(offset, now) + max(0.0, seconds), now)

    def wait_for_budget(self, client: str, now: float) -> float:
        """Seconds until the client's use decays below the budget (0: within it now)."""
        used = self.used(client, now)
        if self.budget <= 0 or used < self.budget:
            return 0.0
        return self.window * math.log(used / self.budget) + 0.5

    def close(self) -> None:
        if self._fd is not None:
            if isinstance(self._records, mmap.mmap):
                self._records.close()
            os.close(self._fd)
            self._fd = None
