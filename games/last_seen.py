"""Presence: when a player was last on the site, so that "your turn" emails go only to players
who are away.

The game page's poll counts too (a player watching a game is on the site), but it runs every few
seconds and must stay at one query: a signed cookie remembers when this browser last recorded
presence, so the player is loaded and written at most once a minute. The cookie is signed with
the session's key, which changes when a player logs in or out: the first request after a login
records presence at once (and so does the login itself, ``record_login``)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing

from games import clock, presence

COOKIE = "nyet_seen"
PRECISION = timedelta(minutes=1)  # at most one write a minute per browser


def _salt(session_key: str) -> str:
    return f"{COOKIE}:{session_key}"


def record_login(sender, request, user, **kwargs):
    """``user_logged_in``: logging in is being on the site."""
    get_user_model().objects.filter(pk=user.pk).update(last_seen=clock.now())


class LastSeenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        recorded = getattr(request, "presence_recorded", None)
        session = getattr(request, "session", None)
        session_key = session.session_key if session is not None else None
        if recorded is not None and session_key:
            response.set_signed_cookie(
                COOKIE,
                recorded.isoformat(),
                salt=_salt(session_key),
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        now = clock.now()
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if not session_key:
            return None  # nobody is logged in: no presence to record
        try:
            last = datetime.fromisoformat(
                request.get_signed_cookie(COOKIE, salt=_salt(session_key))
            )
        except (KeyError, ValueError, signing.BadSignature):
            last = None
        if last is not None and timedelta() <= now - last < PRECISION:
            return None
        if request.user.is_authenticated:
            get_user_model().objects.filter(pk=request.user.pk).update(last_seen=now)
            presence.seen(request.user.pk)  # the lobby's "Online now" (no database write)
        request.presence_recorded = now
        return None
