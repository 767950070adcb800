"""The scaled-out site as plain processes, for the tests and `bench http --replicas N`: the Oxigraph server
as the store, N stateless web replicas in front of it, nginx in front of them (what docker-compose.yml runs
as containers; Docker cannot run on the development machine).

Each piece is a context manager that starts its process on a free loopback port and stops it at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from service.bench_http import app_server, free_port, stop, wait_until_up
from service.kb.build import build
from service.kb.sources import Sources

NGINX = """\
{user}worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  upstream replicas {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_next_upstream error timeout http_502;
      proxy_connect_timeout 2s;
    }}
  }}
}}
"""


@dataclass(frozen=True)
class Store:
    """A SPARQL server's three addresses, as the STORE_* settings take them."""

    query: str
    update: str
    gsp: str

    def settings(self) -> dict[str, str]:
        return {"STORE_URL": self.query, "STORE_UPDATE_URL": self.update, "STORE_GSP_URL": self.gsp}


def oxigraph_binary() -> str:
    found = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    if not Path(found).exists():
        raise RuntimeError("the Oxigraph server is the `oxigraph` package: pip install oxigraph")
    return found


@contextmanager
def oxigraph_server(location: Path | None = None, port: int = 0) -> Iterator[Store]:
    """`oxigraph serve` (read-write) on `port` or a free loopback port, its data in `location` or a temporary
    folder."""
    with tempfile.TemporaryDirectory(prefix="folio-oxigraph-") as scratch:
        port = port or free_port()
        where = str(location or Path(scratch) / "store")
        server = subprocess.Popen([oxigraph_binary(), "serve", "--location", where, "--bind", f"127.0.0.1:{port}"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base + "/query?query=ASK%7B%7D", 30)
            yield Store(base + "/query", base + "/update", base + "/store")
        finally:
            stop(server, 20)


VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
MaxCheckpointRemap = 2000
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
DirsAllowed = ., {dir}
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {dir}
MaxClientConnections = 10
ServerThreads = 10
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 60
DefaultGraph =
"""
# The SPARQL user may update (the build's switch) and use the Graph Store Protocol (its upload): this server is
# the site's own store, reachable only by it (docs/SCALE.md)
VIRTUOSO_GRANTS = ('grant SPARQL_UPDATE to "SPARQL"; grant execute on DB.DBA.SPARQL_INSERT_DICT_CONTENT to "SPARQL"; '
                   'grant execute on DB.DBA.SPARQL_DELETE_DICT_CONTENT to "SPARQL";')  # fmt: skip


@contextmanager
def virtuoso_server() -> Iterator[Store]:
    """OpenLink Virtuoso 7 (Debian's `virtuoso-opensource`) on free loopback ports with a database in a
    temporary folder: queries and updates at /sparql, the Graph Store Protocol at /sparql-graph-crud."""
    binary, isql = shutil.which("virtuoso-t"), shutil.which("isql-vt")
    if not binary or not isql:
        raise RuntimeError("Virtuoso is Debian's virtuoso-opensource: apt-get install virtuoso-opensource")
    with tempfile.TemporaryDirectory(prefix="folio-virtuoso-") as scratch:
        sql, http = free_port(), free_port()
        ini = Path(scratch) / "virtuoso.ini"
        ini.write_text(VIRTUOSO_INI.format(dir=scratch, sql=sql, http=http), encoding="utf-8")
        server = subprocess.Popen([binary, "+foreground", "+configfile", str(ini)], cwd=scratch,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        base = f"http://127.0.0.1:{http}"
        try:
            wait_until_up(base + "/sparql?query=ASK%7B%7D", 60)
            subprocess.run([isql, str(sql), "dba", "dba", f"exec={VIRTUOSO_GRANTS}"], check=True, timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
            yield Store(base + "/sparql", base + "/sparql", base + "/sparql-graph-crud")
        finally:
            stop(server, 30)


@contextmanager
def nginx(upstreams: list[str]) -> Iterator[str]:
    """nginx on a free loopback port, spreading requests over `upstreams` (http://host:port each) and passing a
    request to the next one when a replica does not answer."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise RuntimeError("the replicas' proxy is nginx: apt-get install nginx")
    with tempfile.TemporaryDirectory(prefix="folio-nginx-") as tmp:
        port = free_port()
        servers = "\n".join(f"    server {u.removeprefix('http://')} max_fails=1 fail_timeout=2s;" for u in upstreams)
        user = "user root;\n" if os.geteuid() == 0 else ""
        conf = Path(tmp) / "nginx.conf"
        conf.write_text(NGINX.format(user=user, tmp=tmp, servers=servers, port=port), encoding="utf-8")
        proxy = subprocess.Popen([binary, "-c", str(conf), "-p", tmp], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base + "/healthz", 30)
            yield base
        finally:
            stop(proxy, 20)


@dataclass
class Site:
    """The running topology: the proxy's address, each replica's, and the replicas' processes."""

    base: str
    replicas: list[str]
    processes: list[subprocess.Popen[bytes]]


@contextmanager
def replicated(kb: Path, store: Store, replicas: int = 2, workers: int = 1, **env: str) -> Iterator[Site]:
    """`replicas` web processes (each with `workers` uvicorn workers) serving `kb` from the remote `store`,
    behind nginx; the KB must have been built for that store."""
    with ExitStack() as stack:
        settings = {**store.settings(), "FORWARDED_ALLOW_IPS": "127.0.0.1", **env}
        started = [stack.enter_context(app_server(kb, workers, **settings)) for _ in range(replicas)]
        bases = [base for base, _ in started]
        yield Site(stack.enter_context(nginx(bases)), bases, [process for _, process in started])


@contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """These settings in the environment until the block ends, then what was there before."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextmanager
def published(sources: Sources) -> Iterator[tuple[Path, Store]]:
    """A fresh Oxigraph server and the KB of `sources` built for it: (the KB folder, the store)."""
    with oxigraph_server() as store, tempfile.TemporaryDirectory(prefix="folio-remote-") as tmp:
        kb = Path(tmp) / "kb"
        with environment(store.settings()):
            build(sources, kb, log=lambda _m: None)
        yield kb.resolve(), store


@contextmanager
def remote_site(sources: Sources, replicas: int = 0, workers: int = 2, **env: str) -> Iterator[str]:
    """The KB of `sources` published to a fresh Oxigraph server, and the site serving it: one server with
    `workers` workers (replicas=0), or `replicas` of them behind nginx. Yields the address visitors use."""
    with published(sources) as (kb, store):
        if replicas:
            with replicated(kb, store, replicas, workers, **env) as site:
                yield site.base
        else:
            with app_server(kb, workers, **store.settings(), **env) as (base, _):
                yield base
