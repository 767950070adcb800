"""/-/misses: the owner's misses report as a page, only with ADMIN_TOKEN.

The token comes as `Authorization: Bearer <token>`, or once through the login form (/-/login), which sets a
cookie holding the time it was issued and a keyed hash of the token and that time (never the token),
HttpOnly and SameSite=Strict, valid for OWNER_SESSION_HOURS (POST /-/logout ends it sooner; a new token ends
them all). A request without the token gets 404 from /-/misses, and with ADMIN_TOKEN unset (or shorter than 16
characters, too easy to guess) /-/login is 404 as well: the page's existence is not advertised. Wrong tokens are
counted per client and in all (service/web/throttle.py): past LOGIN_ATTEMPTS, or LOGIN_ATTEMPTS_ALL, every try is
refused with 429 until the window has passed. Owner pages are never cached.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import time
from datetime import date, timedelta
from typing import Any
from urllib.parse import unquote_plus

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service import engine
from service.config import setting
from service.misses import default_since, report
from service.questionlog import database_url
from service.questionlog.store import open_store
from service.web.errors import ApiError
from service.web.inputs import read_body
from service.web.reports import Reports
from service.web.templating import page
from service.web.throttle import Throttle, address

COOKIE = "folio_owner"
KINDS = ("right", "weak", "declined")
MIN_TOKEN = 16
PRIVATE = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}
log = logging.getLogger("service.web.owner")


def _token() -> str:
    token = setting("ADMIN_TOKEN")
    if token and len(token) < MIN_TOKEN:
        _warn_short()
        return ""
    return token


@functools.cache
def _warn_short() -> None:
    log.warning("ADMIN_TOKEN is shorter than %d characters: the owner's pages stay off", MIN_TOKEN)


def _cookie_value(token: str, issued: int) -> str:
    mac = hmac.new(token.encode(), f"folio owner session {issued}".encode(), hashlib.sha256).hexdigest()
    return f"{issued}.{mac}"


def _session_seconds() -> int:
    return int(float(setting("OWNER_SESSION_HOURS")) * 3600)


def _valid_cookie(value: str, token: str) -> bool:
    issued, _, _ = value.partition(".")
    if not issued.isdigit() or not 0 <= time.time() - int(issued) <= _session_seconds():
        return False
    return hmac.compare_digest(value, _cookie_value(token, int(issued)))


@functools.cache
def _throttle() -> Throttle:
    return Throttle(per_client=int(setting("LOGIN_ATTEMPTS")), overall=int(setting("LOGIN_ATTEMPTS_ALL")),
                    window=float(setting("LOGIN_WINDOW")))  # fmt: skip


def _refuse_if_locked(request: Request) -> None:
    wait = _throttle().wait(address(request))
    if wait > 0:
        minutes = max(1, round(wait / 60))
        raise ApiError(429, f"Too many wrong tokens: try again in about {minutes} minute{'s' if minutes > 1 else ''}.",
                       headers={"Retry-After": str(int(wait) + 1), **PRIVATE})  # fmt: skip


def is_owner(request: Request) -> bool:
    token = _token()
    if not token:
        return False
    bearer = request.headers.get("authorization", "")
    if bearer.startswith("Bearer "):
        _refuse_if_locked(request)
        if hmac.compare_digest(bearer[7:].strip(), token):
            _throttle().forget(address(request))
            return True
        _throttle().note(address(request))
        return False
    return _valid_cookie(request.cookies.get(COOKIE, ""), token)


def _chart(days: list[dict[str, Any]], since: date, today: date) -> dict[str, Any]:
    """Bars of questions per day from `since` to `today` (a day without questions is a gap), stacked answered /
    weak / declined, as numbers the template draws in SVG."""
    counted = {d["day"]: d for d in days}
    today = max([today, *(date.fromisoformat(d) for d in counted)])  # rows of a later day than TODAY pins
    span = [since + timedelta(days=n) for n in range(max(1, (today - since).days + 1))]
    top = max((d["right"] + d["weak"] + d["declined"] for d in days), default=1) or 1
    width = 100.0 / len(span)
    bars = []
    for n, day in enumerate(span):
        d = counted.get(day.isoformat(), {"right": 0, "weak": 0, "declined": 0})
        y, parts = 100.0, []
        for kind in KINDS:
            h = 100.0 * d[kind] / top
            y -= h
            parts.append({"kind": kind, "y": round(y, 2), "h": round(h, 2)})
        bars.append({"x": round(n * width, 3), "w": round(width * 0.8, 3), "day": day.isoformat(), "parts": parts,
                     "total": d["right"] + d["weak"] + d["declined"], **{k: d[k] for k in KINDS}})  # fmt: skip
    return {"bars": bars, "top": top, "first": span[0].isoformat(), "last": span[-1].isoformat(), "days": len(span)}


def _reports(state: Any) -> Reports:
    """This worker's kept reports, over the planner it serves now (a new build: new reports)."""
    planner = state.planner
    kept: tuple[Any, Reports] | None = getattr(state, "misses_reports", None)
    if kept is None or kept[0] is not planner:
        reports = Reports(functools.partial(_report, planner), _log_version, float(setting("MISSES_WAIT")))
        kept = state.misses_reports = (planner, reports)
    return kept[1]


async def warm(state: Any) -> None:
    """With owner pages on, make the default report once the worker starts: the owner's first view of a large
    log then waits at most MISSES_WAIT for the questions logged since."""
    if not _token():
        return
    today = engine.today()
    try:
        await _reports(state).get(default_since(today), today)
    except Exception as e:  # no question log, say: the page will say why when it is asked for
        log.info("the misses report was not made ahead: %s", e)


def _log_version(since: str) -> tuple[int, str]:
    store = open_store(database_url())
    try:
        return store.version(since)
    finally:
        store.close()


def _report(planner: Any, since: str, today: date) -> dict[str, Any]:
    store = open_store(database_url())
    try:
        rows = store.rows(since)
    finally:
        store.close()
    return report(planner, rows, today)


async def misses_page(request: Request) -> Response:
    if not is_owner(request):
        raise ApiError(404, f"Nothing here: {request.url.path}")
    today = engine.today()
    since = request.query_params.get("since") or default_since(today)
    try:
        date.fromisoformat(since)
    except ValueError:
        raise ApiError(400, "since is a date, YYYY-MM-DD") from None
    shown = await _reports(request.app.state).get(since, today)
    doc = shown.doc
    chart = _chart(doc["per_day"], date.fromisoformat(since), today)
    return page(request, "owner-misses.html", {"doc": doc, "since": since, "chart": chart, "shown": shown,
                                               "default": (today - timedelta(days=30)).isoformat()},
                headers=PRIVATE)  # fmt: skip


async def login(request: Request) -> Response:
    """GET: the form; POST token=...: the cookie and a redirect to the report, or the form again with 401."""
    token = _token()
    if not token:
        raise ApiError(404, f"Nothing here: {request.url.path}")
    if request.method == "GET":
        return page(request, "owner-login.html", {}, headers=PRIVATE)
    _refuse_if_locked(request)
    raw = (await read_body(request, 4096)).decode("utf-8", "replace")
    given = dict(p.split("=", 1) for p in raw.split("&") if "=" in p).get("token", "")
    if not hmac.compare_digest(unquote_plus(given), token):
        _throttle().note(address(request))
        return page(request, "owner-login.html", {"wrong": True}, status=401, headers=PRIVATE)
    _throttle().forget(address(request))
    response = RedirectResponse("/-/misses", status_code=303, headers=PRIVATE)
    response.set_cookie(COOKIE, _cookie_value(token, int(time.time())), max_age=_session_seconds(), httponly=True,
                        samesite="strict", path="/-/", secure=request.url.scheme == "https")  # fmt: skip
    return response


async def logout(request: Request) -> Response:
    """POST: the login cookie is cleared, and the browser sent to the login form."""
    if not _token():
        raise ApiError(404, f"Nothing here: {request.url.path}")
    response = RedirectResponse("/-/login", status_code=303, headers=PRIVATE)
    response.delete_cookie(COOKIE, path="/-/", httponly=True, samesite="strict")
    return response
