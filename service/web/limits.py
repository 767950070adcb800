"""How many /sparql and console queries each client has at once, counted across every web worker.

One client is one address (the connection's, or X-Forwarded-For from a proxy listed in FORWARDED_ALLOW_IPS).
Its queries take slots in a shared file: byte-range locks (fcntl.lockf) in a bucket of SPARQL_CLIENT_LIMIT
bytes chosen by a keyed hash of the address. The kernel drops a lock when its process ends, so a killed worker
never leaves a slot taken; no address is ever written anywhere, and the file holds no data at all.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUCKETS = 1 << 16  # addresses share a bucket only by a keyed hash collision
SLOTS_ENV = "FOLIO_SLOTS_FILE"  # set by `serve` for its workers: the file and the hash key they share
KEY_ENV = "FOLIO_SLOTS_KEY"


def shared_slots() -> tuple[Path, str]:
    """The slots file and key of this server, made once by the process that starts the workers."""
    path = os.environ.get(SLOTS_ENV)
    key = os.environ.get(KEY_ENV)
    if not path or not key:
        handle, path = tempfile.mkstemp(prefix="folio-slots-")
        os.close(handle)
        key = secrets.token_hex(16)
        os.environ[SLOTS_ENV], os.environ[KEY_ENV] = path, key
    return Path(path), key


class ClientSlots:
    def __init__(self, limit: int, path: Path | None = None, key: str | None = None) -> None:
        if path is None or key is None:
            path, key = shared_slots()
        self.limit = max(1, limit)
        self._key = bytes.fromhex(key)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        self._held: set[int] = set()  # offsets this process holds (a process's own locks do not exclude it)

    def _bucket(self, client: str) -> int:
        digest = hashlib.blake2b(client.encode("utf-8", "replace"), key=self._key, digest_size=4).digest()
        return int.from_bytes(digest, "big") % BUCKETS

    @contextmanager
    def hold(self, client: str) -> Iterator[bool]:
        """A slot for one query of the client (True), or none free (False); always released on leaving."""
        base = self._bucket(client) * self.limit
        for offset in range(base, base + self.limit):
            if offset in self._held:
                continue
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset, os.SEEK_SET)
            except OSError:
                continue
            self._held.add(offset)
            try:
                yield True
            finally:
                self._held.discard(offset)
                fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, offset, os.SEEK_SET)
            return
        yield False

    def close(self) -> None:
        os.close(self._fd)
