"""Presence: when a player was last on the site, so that "your turn" emails go only to players
who are away."""

from datetime import timedelta

from django.contrib.auth import get_user_model

from games import clock

PRECISION = timedelta(minutes=1)  # at most one write a minute per player


class LastSeenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # The game page's poll runs every few seconds and must stay cheap: it does not count.
        if getattr(view_func, "presence_exempt", False):
            return None
        user = request.user
        if user.is_authenticated:
            now = clock.now()
            if user.last_seen is None or now - user.last_seen >= PRECISION:
                get_user_model().objects.filter(pk=user.pk).update(last_seen=now)
                user.last_seen = now
        return None
