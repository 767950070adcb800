"""LLM_TIMEOUT is a deadline for the whole call (issue 39, point 5): a provider that sends its headers or its body
a byte at a time, each byte well within the socket timeout, is cut when the call's time is up."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from service.provider import Provider, ProviderError


@contextmanager
def trickling(reply: bytes, every: float = 0.5) -> Iterator[str]:
    """A server on a loopback port that reads a request and sends `reply` one byte every `every` seconds."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                _read_request(conn)
                for byte in reply:
                    if stop.is_set():
                        break
                    try:
                        conn.sendall(bytes([byte]))
                    except OSError:
                        break
                    time.sleep(every)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        server.close()


def _read_request(conn: socket.socket) -> None:
    """The whole request, headers and body (a client may send them apart): answering before it is all in and
    closing would reset the client's connection instead of testing the reply."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)  # fmt: skip
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return
        body += chunk


HEADERS = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: " + b"a" * 60 + b"\r\n\r\n"


@pytest.mark.parametrize("reply", [HEADERS, HEADERS.replace(b"\r\n\r\n", b"\r\nContent-Length: 60\r\n\r\n")
                                   + b'{"choices": [{"message": {"content": "' + b"x" * 40])  # fmt: skip
def test_a_provider_trickling_its_reply_is_cut_at_the_deadline(reply: bytes) -> None:
    with trickling(reply) as url:
        started = time.monotonic()
        with pytest.raises(ProviderError, match="no reply within 2 s"):
            Provider(url, timeout=2.0).post("/chat/completions", {"model": "m", "messages": []})
        assert time.monotonic() - started < 3.0  # LLM_TIMEOUT plus at most a second


def test_a_prompt_reply_is_read_as_before() -> None:
    body = b'{"ok": true}'
    reply = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    with trickling(reply, every=0) as url:
        assert Provider(url, timeout=2.0).post("/embeddings", {}) == {"ok": True}
