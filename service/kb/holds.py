"""Which builds are in use: a lock file in each build folder (`.lock`).

A build holds it exclusively while it writes; every process that serves a build holds it shared for as long
as it serves it. Pruning old builds takes it exclusively without waiting, so it never deletes a build being
written or served; a killed build left no lock behind (the kernel drops it with the process), so its folder
is recognised as garbage and removed.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK = ".lock"


class Hold:
    """A lock on a build folder, released by `release()` or when the process ends."""

    def __init__(self, build: Path, *, exclusive: bool, wait: bool = True) -> None:
        self.build = build
        self._fd: int | None = os.open(build / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        flags = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(self._fd, flags)
        except OSError:
            os.close(self._fd)
            self._fd = None
            raise

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def try_exclusive(build: Path) -> Hold | None:
    """The build to ourselves, or None when something writes or serves it."""
    try:
        return Hold(build, exclusive=True, wait=False)
    except OSError:
        return None
