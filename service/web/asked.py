"""The question log's side of the web app: a row for each answered question, written after the response, and
a mark when a source or a follow-up of an answer is opened (its links carry `from=<answer id>`)."""

from __future__ import annotations

import functools

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import Response

from service.config import setting
from service.engine.model import Plan
from service.questionlog import QuestionLog, entry_for, new_id
from service.web.throttle import Throttle, address


def question_log(request: Request) -> QuestionLog | None:
    found: QuestionLog | None = getattr(request.app.state, "qlog", None)
    return found


@functools.cache
def _per_client() -> Throttle:
    return Throttle(per_client=int(setting("LOG_CLIENT_PER_MINUTE")), overall=10**9, window=60.0)


def remember(request: Request, response: Response, plan: Plan, channel: str, answer: str | None = None) -> Response:
    """Write the plan's row once the response is sent; `answer` is the id its page's links already carry. Past
    LOG_CLIENT_PER_MINUTE questions of one client in a minute, the rest are answered but not written: one client
    cannot fill the log (or the owner's report)."""
    qlog = question_log(request)
    if qlog is not None:
        client = address(request)
        if _per_client().wait(client) > 0:
            qlog.unlogged += 1
            return response
        _per_client().note(client)
        entry = entry_for(plan, channel, answer)

        async def record() -> None:  # on the event loop once the response is sent: an append, no thread hop
            qlog.record(entry)

        response.background = BackgroundTask(record)
    return response


def opened(request: Request, kind: str) -> None:
    """A link of an earlier answer was followed (`?from=<answer id>`): mark that answer's row."""
    qlog = question_log(request)
    source = request.query_params.get("from")
    if qlog is not None and source:
        qlog.mark_opened(source, kind)


def new_answer_id(request: Request) -> str | None:
    qlog = question_log(request)
    return new_id() if qlog is not None else None
