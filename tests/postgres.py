"""A real PostgreSQL server for the tests of the question log's PostgreSQL option: a fresh cluster in a
temporary directory, on a free loopback port, stopped when the block ends. PostgreSQL refuses to run as root,
so as root the cluster belongs to the `postgres` user the Debian package creates."""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.bench_http import free_port


def binaries() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, or Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def unavailable() -> str | None:
    """Why no server can be started here, or None."""
    if binaries() is None:
        return "no PostgreSQL server installed (scripts/install-test-tools installs Debian's postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a postgres user to run the server as"
    return None


@contextmanager
def postgres() -> Iterator[str]:
    """A running server; yields its URL (user folio, database postgres, no password on loopback)."""
    bin_dir = binaries()
    assert bin_dir is not None, unavailable()
    # its own directory under /tmp: pytest's are private to root, and the server runs as postgres
    with tempfile.TemporaryDirectory(prefix="folio-pg-") as name:
        yield from _serve(bin_dir, Path(name))


def _serve(bin_dir: Path, directory: Path) -> Iterator[str]:
    data, sockets = directory / "data", directory / "run"
    sockets.mkdir(parents=True)
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (directory, sockets):
            os.chown(path, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*command: str) -> None:
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "folio", "-A", "trust", "--no-sync", "-E", "UTF8")
    options = f"-h 127.0.0.1 -p {port} -k {sockets} -c fsync=off -c synchronous_commit=off"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(directory / "server.log"), "-w",
        "-t", "60", "start")  # fmt: skip
    try:
        yield f"postgresql://folio@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       check=False, capture_output=True, timeout=60)  # fmt: skip


def fresh_database(url: str) -> str:
    """A new, empty database on the server at `url`: each test its own log."""
    import psycopg  # noqa: PLC0415  # the PostgreSQL option's own dependency

    name = f"log_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
