"""The remote-store HTTP client: ours (service/kb/remote.py: http.client, a kept-alive connection per thread)
against urllib3 2.8 (PoolManager) and httpx (Client), the same POSTs to a real `oxigraph serve` holding the demo
KB, in turns, from 1 and from 4 threads. Prints milliseconds of wall time per request."""

from __future__ import annotations

import gzip
import threading
import time
import urllib.request
from collections.abc import Callable
from urllib.parse import urlencode

import httpx
import urllib3
from common import in_turns

from service.kb.remote import Address, Client
from service.topology import oxigraph_server

QUERIES = [
    "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 20",
    "ASK { ?s ?p ?o }",
    "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
    "SELECT ?s ?label WHERE { GRAPH ?g { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } } LIMIT 500",
]
ACCEPT = "text/tab-separated-values, application/sparql-results+json;q=0.9, application/n-triples;q=0.8"
FORM = "application/x-www-form-urlencoded"
BODIES = [urlencode([("query", q)]).encode() for q in QUERIES]


def timed(send: Callable[[bytes], int], threads: int, each: int = 400) -> float:
    def work() -> None:
        for i in range(each):
            send(BODIES[i % len(BODIES)])

    started = time.perf_counter()
    running = [threading.Thread(target=work) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return (time.perf_counter() - started) * 1000 / (each * threads)


def main() -> None:
    with oxigraph_server() as store, gzip.open("var/kb/dump/all.nq.gz") as dump:
        upload = urllib.request.Request(store.gsp, data=dump.read(), method="POST",
                                        headers={"Content-Type": "application/n-quads"})  # fmt: skip
        urllib.request.urlopen(upload).read()
        ours = Client(Address.parse(store.query), 10.0)
        pool = urllib3.PoolManager(maxsize=8, timeout=urllib3.Timeout(10.0), retries=urllib3.Retry(1, redirect=False))
        hx = httpx.Client(timeout=10.0, limits=httpx.Limits(max_connections=8))
        headers = {"Content-Type": FORM, "Accept": ACCEPT}

        def by_ours(body: bytes) -> int:
            return len(ours.post(body, FORM, ACCEPT)[2])

        def by_urllib3(body: bytes) -> int:
            response = pool.request("POST", store.query, body=body, headers=headers, preload_content=False)
            data = response.read(1 << 24)
            response.release_conn()
            return len(data)

        def by_httpx(body: bytes) -> int:
            with hx.stream("POST", store.query, content=body, headers=headers) as response:
                return len(response.read())

        clients = {"ours": by_ours, "urllib3": by_urllib3, "httpx": by_httpx}
        sizes = {name: [send(body) for body in BODIES] for name, send in clients.items()}
        assert len(set(map(tuple, sizes.values()))) == 1, sizes  # the same answers
        for threads in (1, 4):
            medians = in_turns({name: lambda s=send, t=threads: timed(s, t) for name, send in clients.items()})
            print(f"{threads} thread(s): " + " · ".join(f"{n} {ms:.2f} ms" for n, ms in medians.items()))


main()
