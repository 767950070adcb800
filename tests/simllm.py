"""A simulated OpenAI-compatible model server over real HTTP, on a loopback port, with scripted replies.

    with simulated() as sim:
        sim.script({"content": "{s1} [S1]"}, ...)   # replies to the next chat completions, in order
        ... LLM_BASE_URL=sim.url ...
        sim.requests                               # every request received: path, headers, body

A chat reply is one of: {"content": text} (with {s1}: the first sentence of S1 as supplied, {last}: the
S-number of the last tool result, {value}: the last cell of that result), {"tool": name, "query": q} (one
tool call), {"status": 429 | 500}, {"raw": "not JSON"}, and any of them with {"sleep": seconds} first. With
the script empty it says "I don't know that one." Embeddings are word hashes (the same text, the same vector);
`sim.embed_mode` "slow" sleeps 3 s first and "fail" answers 500.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DIMS = 64
_ITEM = re.compile(r"\[(S\d+)\] [^\n]*\n([^\n]*)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")


def vector(text: str) -> list[float]:
    v = [0.0] * DIMS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if len(word) > 2:
            v[int(hashlib.md5(word[:6].encode()).hexdigest(), 16) % DIMS] += 1.0
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]


class Sim:
    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.embed_mode = "ok"
        self.lock = threading.Lock()
        self.url = ""
        self.default: list[dict[str, Any]] = []  # replies cycled through when nothing is scripted
        self._turn = 0

    def script(self, *replies: dict[str, Any]) -> None:
        with self.lock:
            self.replies = list(replies)
            self.requests.clear()

    def reset(self) -> None:
        self.script()
        self.embed_mode = "ok"

    def chats(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"].endswith("/chat/completions")]

    def next_reply(self) -> dict[str, Any]:
        with self.lock:
            if self.replies:
                return self.replies.pop(0)
            if self.default:
                self._turn += 1
                return self.default[(self._turn - 1) % len(self.default)]
            return {"content": "I don't know that one."}


def _fill(template: str, messages: list[dict[str, Any]]) -> str:
    user = next((m["content"] for m in messages if m.get("role") == "user"), "")
    items = dict(_ITEM.findall(user))
    s1 = _SENTENCE.split(items.get("S1", ""))[0]
    tools = [m["content"] for m in messages if m.get("role") == "tool"]
    last, value = "", ""
    if tools:
        found = _ITEM.findall(tools[-1])
        if found:
            last = found[-1][0]
        lines = [ln for ln in tools[-1].splitlines() if ln.strip()]
        value = lines[-1].split("\t")[-1].strip().strip('"').split("^^")[0].strip('"') if lines else ""
    return template.replace("{s1}", s1).replace("{last}", last).replace("{value}", value)


def _chat(reply: dict[str, Any], messages: list[dict[str, Any]]) -> tuple[int, bytes]:
    if "status" in reply:
        return int(reply["status"]), json.dumps({"error": {"message": "simulated"}}).encode()
    if "raw" in reply:
        return 200, str(reply["raw"]).encode()
    if "tool" in reply:
        args = json.dumps({"query": reply["query"]})
        call = {"id": f"call_{len(messages)}", "type": "function",
                "function": {"name": reply["tool"], "arguments": args}}  # fmt: skip
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
    else:
        message = {"role": "assistant", "content": _fill(str(reply["content"]), messages)}
    body = {"id": "sim", "object": "chat.completion", "model": "sim",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}  # fmt: skip
    return 200, json.dumps(body).encode()


def _handler(sim: Sim) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                doc = json.loads(raw)
            except json.JSONDecodeError:
                doc = None
            with sim.lock:
                sim.requests.append({"path": self.path, "headers": dict(self.headers), "body": doc})
            if self.path.endswith("/embeddings"):
                status, body = self.embeddings(doc)
            elif self.path.endswith("/chat/completions"):
                reply = sim.next_reply()
                time.sleep(float(reply.get("sleep", 0)))
                status, body = _chat(reply, (doc or {}).get("messages", []))
            else:
                status, body = 404, b"{}"
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def embeddings(self, doc: Any) -> tuple[int, bytes]:
            if sim.embed_mode == "fail":
                return 500, b'{"error": "simulated"}'
            if sim.embed_mode == "slow":
                time.sleep(3)
            texts = doc["input"] if isinstance(doc["input"], list) else [doc["input"]]
            data = [{"object": "embedding", "index": n, "embedding": vector(t)} for n, t in enumerate(texts)]
            return 200, json.dumps({"object": "list", "data": data, "model": doc.get("model")}).encode()

    return Handler


@contextmanager
def simulated() -> Iterator[Sim]:
    sim = Sim()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(sim))
    server.daemon_threads = True
    sim.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield sim
    finally:
        server.shutdown()
        server.server_close()


CYCLE = [  # `python -m tests.simllm`: each behaviour in turn, for `eval --holdout --fallback`
    {"content": "{s1} [S1]"},
    {"content": "{s1} The team had 347 engineers. [S1]"},
    {"content": "{s1} She did it with Zorblatt Labs. [S1]"},
    {"content": "{s1} [S9]"},
    {"content": "{s1} [S1] More at https://evil.example/x. [S1]"},
    {"content": "{s1} Call her on +351 912 345 678. [S1]"},
    {"tool": "search_wiki", "query": "talks and writing"},
    {"content": "{s1} [S1]"},
    {"content": "I don't know that one."},
]


def main() -> None:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(description="the simulated model server, cycling through its behaviours")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    sim = Sim()
    sim.default = CYCLE
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _handler(sim))
    print(f"LLM_BASE_URL=http://127.0.0.1:{args.port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
