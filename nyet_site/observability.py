"""What the processes say about their work: one log line per request and per task, and the
health check that load balancers and process managers ask (``/healthz`` and ``/healthz/``).

    a request -> "POST /games/12/move/ 200 34ms game=12 move=play"
    a task    -> "task play_bots game=12 version=40 SUCCESS result=3 120ms"
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from celery import current_app
from celery.signals import task_postrun, task_prerun
from django.apps import apps
from django.db import DatabaseError, connection
from django.http import JsonResponse

log = logging.getLogger("nyet.requests")
task_log = logging.getLogger("nyet.tasks")


class BothWorlds:
    """A middleware that runs sync or async, as the handler behind it does: the async game
    streams then pay for no thread hop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)


class RequestLogMiddleware(BothWorlds):
    """One line per request: method, path, status, time, and the game and move it was about."""

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        response = self.get_response(request)
        self._log(request, response, started)
        return response

    async def _acall(self, request):
        started = time.perf_counter()
        response = await self.get_response(request)
        self._log(request, response, started)
        return response

    def _log(self, request, response, started) -> None:
        took = (time.perf_counter() - started) * 1000
        details = []
        match = getattr(request, "resolver_match", None)
        if match and "pk" in match.kwargs and match.url_name and match.url_name.startswith("game"):
            details.append(f"game={match.kwargs['pk']}")
        if request.method == "POST" and "kind" in request.POST:
            details.append(f"move={request.POST['kind'][:10]}")
        log.info(
            "%s %s %s %dms %s",
            request.method,
            request.path,
            response.status_code,
            took,
            " ".join(details),
        )


_task_started: dict[str, float] = {}


@task_prerun.connect
def _task_starts(task_id=None, **kwargs):
    _task_started[task_id] = time.perf_counter()


@task_postrun.connect
def _task_ends(task_id=None, task=None, args=None, retval=None, state=None, **kwargs):
    started = _task_started.pop(task_id, None)
    took = (time.perf_counter() - started) * 1000 if started else 0
    args = list(args or ())
    names = {"play_bots": "game", "think": "game", "play_timeouts": "game", "send_email": "email"}
    name = task.name.rsplit(".", 1)[-1] if task else "?"
    what = f"{names[name]}={args[0]}" if name in names and args else ""
    if name in ("play_bots", "think", "play_timeouts") and len(args) > 1:
        what += f" version={args[1]}"
    task_log.info("task %s %s %s result=%s %dms", name, what, state, retval, took)


HEALTH_PATHS = {"/healthz", "/healthz/"}


class HealthCheckMiddleware(BothWorlds):
    """The health check, answered first: a load balancer asks over plain HTTP, with or without the
    slash, under the machine's IP address as its Host, so the HTTPS redirect, the host check and
    APPEND_SLASH must never see it."""

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        if request.path in HEALTH_PATHS:
            return healthz()
        return self.get_response(request)

    async def _acall(self, request):
        if request.path in HEALTH_PATHS:
            return await sync_to_async(healthz)()
        return await self.get_response(request)


# How long the health check waits for the broker: to connect, then for each answer. A load
# balancer gives a check a second or two and counts one that times out as a failure, and each
# check that hangs holds a web worker: one attempt, no retry, no sleep. kombu's own connection
# (``ensure_connection``) sleeps between its attempts and took 2 s to say that Redis was down.
# Redis on the same network answers a ping in about a millisecond.
BROKER_CHECK_TIMEOUT = 0.1


def broker_check(url: str) -> None:
    """Returns when the broker at ``url`` answers; raises when it does not, within
    ``BROKER_CHECK_TIMEOUT`` for a connection and as much for each reply."""
    if url.startswith(("redis://", "rediss://")):
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            url,
            socket_connect_timeout=BROKER_CHECK_TIMEOUT,
            socket_timeout=BROKER_CHECK_TIMEOUT,
            retry=Retry(NoBackoff(), 0),  # redis-py's client retries 3 times by default
        )
        try:
            client.ping()
        finally:
            client.close()
        return
    # Another transport (development's SQLite file): kombu's connection, tried once.
    with current_app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=0)


def healthz():
    """200 when the database and the broker answer, else 503 with what failed. Cheap: no
    session, no player; and quick, whatever the broker does (``BROKER_CHECK_TIMEOUT``).

    It also counts the emails of unknown fate (games.notifications), for monitoring to watch:
    a count, not a check, since the site works on; null when it cannot be counted."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as error:
        checks["database"] = f"unreachable: {type(error).__name__}"
    try:
        # The site's app (nyet_site/__init__.py loads it), without importing nyet_site.celery,
        # which imports this module for its task signals.
        broker_check(current_app.conf.broker_url)
        checks["broker"] = "ok"
    except Exception as error:
        checks["broker"] = f"unreachable: {type(error).__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {**checks, "emails_of_unknown_fate": _emails_of_unknown_fate(checks)},
        status=200 if healthy else 503,
    )


def _emails_of_unknown_fate(checks: dict) -> int | None:
    if checks["database"] != "ok":
        return None
    # Looked up, not imported: this module is imported while Django starts (nyet_site.celery),
    # before the models are ready.
    SentEmail = apps.get_model("games", "SentEmail")
    try:
        return SentEmail.objects.filter(fate=SentEmail.Fate.UNKNOWN).count()
    except DatabaseError:  # a database not migrated yet (before the release step)
        return None
