"""The owner's login under guessing (issue 39, point 7): wrong tokens are counted per client and in all, past the
bound every try is refused for the rest of the window, and a login cookie expires."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from service.web.throttle import Throttle
from tests.web.conftest import serving

TOKEN = "owner-token-for-the-throttle-tests"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_is_locked_out_after_its_wrong_guesses_until_the_window_passes() -> None:
    clock = Clock()
    throttle = Throttle(per_client=3, overall=100, window=60, clock=clock)
    for _ in range(3):
        assert throttle.wait("10.0.0.1") == 0
        throttle.note("10.0.0.1")
        clock.now += 1
    assert 55 < throttle.wait("10.0.0.1") <= 58  # until the first of the three is a minute old
    assert throttle.wait("10.0.0.2") == 0  # another client is not held
    clock.now += 58
    assert throttle.wait("10.0.0.1") == 0


def test_guesses_from_many_clients_lock_everyone_out() -> None:
    clock = Clock()
    throttle = Throttle(per_client=5, overall=10, window=60, clock=clock)
    for n in range(10):
        throttle.note(f"10.0.1.{n}")
    assert throttle.wait("10.0.9.9") > 0


def test_a_right_guess_clears_the_clients_count_and_memory_is_bounded() -> None:
    throttle = Throttle(per_client=3, overall=1000, window=60, clients=50)
    throttle.note("10.0.0.1")
    throttle.note("10.0.0.1")
    throttle.forget("10.0.0.1")
    throttle.note("10.0.0.1")
    assert throttle.wait("10.0.0.1") == 0
    for n in range(500):
        throttle.note(f"10.1.{n // 250}.{n % 250}")
    assert len(throttle._by_client) == 50


def test_the_login_form_and_the_bearer_header_are_throttled(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, ADMIN_TOKEN=TOKEN, LOGIN_ATTEMPTS="3", LOGIN_WINDOW="60") as base:
        with httpx.Client(base_url=base, timeout=30) as http:
            assert [http.post("/-/login", data={"token": f"guess {n}"}).status_code for n in range(3)] == [401] * 3
            locked = http.post("/-/login", data={"token": TOKEN})  # the right one too, for the window
            assert locked.status_code == 429 and 50 < int(locked.headers["retry-after"]) <= 61
            assert "Too many wrong tokens" in locked.text
            assert http.get("/-/misses", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429
        other = httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            for n in range(3):
                assert other.get("/-/misses", headers={"Authorization": f"Bearer wrong {n}"}).status_code == 404
            assert other.get("/-/misses", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429


def test_the_login_cookie_expires_and_logout_ends_it(demo_kb_path: Path, tmp_path: Path) -> None:
    with serving(demo_kb_path, tmp_path, ADMIN_TOKEN=TOKEN, OWNER_SESSION_HOURS="0.001") as base:  # 3.6 s
        with httpx.Client(base_url=base, timeout=30) as http:
            logged_in = http.post("/-/login", data={"token": TOKEN})
            assert logged_in.status_code == 303 and "Max-Age=3" in logged_in.headers["set-cookie"]
            cookie = http.cookies["folio_owner"]
            assert TOKEN not in cookie and http.get("/-/misses").status_code == 200
            time.sleep(4)
        with httpx.Client(base_url=base, timeout=30, cookies={"folio_owner": cookie}) as late:
            assert late.get("/-/misses").status_code == 404  # the server refuses it, whatever the browser keeps
        with httpx.Client(base_url=base, timeout=30) as http:
            http.post("/-/login", data={"token": TOKEN})
            assert http.get("/-/misses").status_code == 200
            forged = "9999999999." + http.cookies["folio_owner"].split(".", 1)[1]  # its time changed
            assert httpx.get(base + "/-/misses", cookies={"folio_owner": forged}).status_code == 404
            assert 'action="/-/logout"' in http.get("/-/misses").text
            assert http.post("/-/logout").status_code == 303
            assert http.get("/-/misses").status_code == 404
