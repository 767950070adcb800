"""One provider speaking the OpenAI-compatible HTTP API: `POST {base}/chat/completions` (with `tools`) and
`POST {base}/embeddings`, bearer key when set. The standard library only (the service installs no HTTP client).

Hostile by default: a reply is capped in bytes, a call is cut at its deadline, redirects are not followed (the
key stays with the host it was meant for), and every failure is a `ProviderError` with a short reason.
Nothing is sent but the JSON body the caller builds: no visitor address, header or identifier.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

MAX_CHAT_REPLY = 256 * 1024
MAX_EMBED_REPLY = 16 * 1024 * 1024


class ProviderError(Exception):
    """The provider failed: timeout, HTTP status, malformed reply. `reason` is short and safe to show; `waited`
    when the call cost its caller a wait (no reply in time, unreachable), which the next call would likely too."""

    def __init__(self, reason: str, *, waited: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.waited = waited


class CoolDown:
    """After a failure, nothing is asked for `seconds`: a provider that is down or slow costs one wait, not one
    per question."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._failed_at = -1e9
        self._lock = threading.Lock()

    def left(self) -> float:
        """Seconds still to wait before asking again (0: ask)."""
        with self._lock:
            return max(0.0, self.seconds - (time.monotonic() - self._failed_at))

    def trip(self) -> None:
        with self._lock:
            self._failed_at = time.monotonic()

    def reset(self) -> None:
        with self._lock:
            self._failed_at = -1e9


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx is an HTTPError: the bearer key never follows a redirect


class _Deadline:
    """Cuts a call's sockets when its time is up. A socket timeout bounds each read, not the call: a provider
    sending its headers a byte at a time would hold the answer (and a thread) for as long as it likes."""

    def __init__(self, seconds: float) -> None:
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.passed = False
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True

    def connect(self, *args: Any, **kwargs: Any) -> socket.socket:
        sock = socket.create_connection(*args, **kwargs)
        with self._lock:
            self._sockets.append(sock)
            if self.passed:
                sock.close()
        return sock

    def _cut(self) -> None:
        with self._lock:
            self.passed = True
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def opener(self) -> urllib.request.OpenerDirector:
        """An opener whose connections are made through `connect`, so that `_cut` reaches them."""
        deadline = self

        class Http(http.client.HTTPConnection):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self._create_connection = deadline.connect

        class Https(http.client.HTTPSConnection):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self._create_connection = deadline.connect

        class HttpHandler(urllib.request.HTTPHandler):
            def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
                return self.do_open(Http, req)

        class HttpsHandler(urllib.request.HTTPSHandler):
            def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
                return self.do_open(Https, req, context=self._context)  # type: ignore[attr-defined]

        return urllib.request.build_opener(_NoRedirect, HttpHandler, HttpsHandler)


@dataclass(frozen=True)
class Provider:
    base_url: str
    api_key: str = ""
    timeout: float = 20.0

    def post(self, path: str, body: dict[str, Any], *, timeout: float | None = None,
             max_bytes: int = MAX_CHAT_REPLY) -> dict[str, Any]:  # fmt: skip
        """POST one JSON body, return the JSON object it answers with, within `timeout` seconds in all."""
        limit = self.timeout if timeout is None else timeout
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "folio-ask"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method="POST")
        deadline = time.monotonic() + limit
        with _Deadline(limit) as cut:
            try:
                with cut.opener().open(request, timeout=limit) as response:
                    raw = _read(response, max_bytes, deadline)
            except urllib.error.HTTPError as e:
                e.close()
                if e.code == 429:
                    raise ProviderError("rate limited (HTTP 429)") from None
                raise ProviderError(f"HTTP {e.code}") from None
            except (TimeoutError, http.client.HTTPException, urllib.error.URLError, OSError, ValueError) as e:
                if cut.passed or isinstance(e, TimeoutError):
                    raise ProviderError(f"no reply within {limit:g} s", waited=True) from None
                raise ProviderError(f"unreachable ({type(e).__name__})", waited=True) from None
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ProviderError("malformed reply (not JSON)") from None
        if not isinstance(doc, dict):
            raise ProviderError("malformed reply (not a JSON object)")
        return doc

    def chat(self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        """The reply message of one chat completion: {"content": str | None, "tool_calls": [...]}."""
        body: dict[str, Any] = {"model": model, "messages": messages, "temperature": 0, "max_tokens": 600}
        if tools:
            body["tools"] = tools
        doc = self.post("/chat/completions", body)
        try:
            message = doc["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise ProviderError("malformed reply (no choices[0].message)") from None
        if not isinstance(message, dict):
            raise ProviderError("malformed reply (message is not an object)")
        return message

    def embed(self, model: str, texts: list[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order."""
        doc = self.post("/embeddings", {"model": model, "input": texts}, timeout=timeout,
                        max_bytes=MAX_EMBED_REPLY)  # fmt: skip
        try:
            items = sorted(doc["data"], key=lambda d: int(d.get("index", 0)))
            vectors = [[float(x) for x in item["embedding"]] for item in items]
        except (KeyError, TypeError, ValueError):
            raise ProviderError("malformed reply (no data[].embedding)") from None
        if len(vectors) != len(texts) or len({len(v) for v in vectors}) > 1 or not all(vectors):
            raise ProviderError("malformed reply (wrong number or size of vectors)")
        return vectors


def _read(response: Any, max_bytes: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError
        chunk = response.read(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > max_bytes:
            raise ProviderError(f"reply longer than {max_bytes} bytes")
        chunks.append(chunk)
