"""Presence: when a player was last on the site, so that "your turn" emails go only to players
who are away.

The game page's poll counts too (a player watching a game is on the site), but it runs every few
seconds and must stay at one query: a signed cookie remembers when this browser last recorded
presence, so the player is loaded and written at most once a minute."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core import signing

from games import clock

COOKIE = "nyet_seen"
PRECISION = timedelta(minutes=1)  # at most one write a minute per browser


class LastSeenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        recorded = getattr(request, "presence_recorded", None)
        if recorded is not None:
            response.set_signed_cookie(
                COOKIE,
                recorded.isoformat(),
                salt=COOKIE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        now = clock.now()
        try:
            last = datetime.fromisoformat(request.get_signed_cookie(COOKIE, salt=COOKIE))
        except (KeyError, ValueError, signing.BadSignature):
            last = None
        if last is not None and timedelta() <= now - last < PRECISION:
            return None
        if request.user.is_authenticated:
            get_user_model().objects.filter(pk=request.user.pk).update(last_seen=now)
        request.presence_recorded = now
        return None
