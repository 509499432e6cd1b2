"""Each request speaks the player's language and shows times in their time zone.

``LocaleMiddleware`` has already picked a language from the browser (or the language cookie);
a logged-in player's own choice (``User.language``, when set) wins over it, and their
``User.time_zone`` is activated for the request (none: the page shows UTC and its script rewrites
times in the browser's zone; that zone, which the page's script reports in a cookie, is stored
for the emails). Views that promise to stay cheap (marked ``stays_cheap``, like the game poll
that answers 204 after one query) do not load the player for this: their preferences apply when,
and only if, the view loads the player itself.
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject

from .models import User

ZONE_COOKIE = "nyet_zone"  # the browser's time zone, as static/js/table.js reports it


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def record_browser_zone(request, user) -> None:
    """Store the zone the browser reported when it is new and one we know (anything else in the
    cookie is ignored): a player who keeps the browser's zone gets their emails in it, and their
    daily digest at 07:00 there."""
    zone = request.COOKIES.get(ZONE_COOKIE, "")
    if zone == user.browser_time_zone or zone not in known_zones():
        return
    changes = {"browser_time_zone": zone}
    if not user.time_zone:  # the digest's zone changes: the sweep schedules the next one anew
        changes["next_digest_at"] = None
    User.objects.filter(pk=user.pk).update(**changes)
    for field, value in changes.items():
        setattr(user, field, value)


def apply_preferences(request, user, record: bool = True):
    """Activate ``user``'s language and time zone for this request; returns ``user``.
    ``record``: store the zone the browser reported (a request's cookies are the browser's
    now; an event stream's are as they were when it opened)."""
    if not user.is_authenticated:
        timezone.deactivate()
        return user
    if record:
        record_browser_zone(request, user)
    if user.language:
        translation.activate(user.language)
        request.LANGUAGE_CODE = translation.get_language()
    if not user.time_zone:  # the browser's: the page's script rewrites the times it shows
        timezone.deactivate()
        return user
    try:
        timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()
    return user


class PreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # the next request on this thread starts from UTC

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "stays_cheap", False):
            user = request.user
            request.user = SimpleLazyObject(lambda: apply_preferences(request, user))
        else:
            apply_preferences(request, request.user)
        return None
