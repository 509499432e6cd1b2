"""Refuse, at the edge, what no page of the site ever sends: a NUL character (PostgreSQL cannot
store one, and answers a query that holds one with an error) in the path, the query string, a
posted form or a cookie, or a value longer than any field takes in the path, the query or the
form.

A middleware rather than each form: URL parameters (``/players/<name>/``, ``/invite/<code>/``),
cookies (the session key is looked up in the database) and allauth's forms never reach our forms,
and one check at the door covers the views written later too. Forms still bound their own fields.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

MAX_PATH = 1000  # characters: our longest URL (an unsubscribe token) is about 150
MAX_VALUE = 1000  # characters in one field: a password is the longest thing a person types


def _bad(text: str, limit: int) -> bool:
    return "\x00" in text or len(text) > limit


def refused(request) -> bool:
    """Whether the request holds a NUL character or an over-long value anywhere we read."""
    if _bad(request.path, MAX_PATH):
        return True
    # Cookies: NUL only. Others' cookies on the same host may be long, and a cookie is never
    # more than a browser allows (4 KB).
    if any("\x00" in key or "\x00" in value for key, value in request.COOKIES.items()):
        return True
    pairs = list(request.GET.lists())
    if request.method == "POST":
        pairs += request.POST.lists()
    return any(
        _bad(key, MAX_VALUE) or any(_bad(value, MAX_VALUE) for value in values)
        for key, values in pairs
    )


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if refused(request):
            message = _(
                "This request holds a null character or a value too long for this site:"
                " nothing was done."
            )
            return render(request, "400.html", {"message": message}, status=400)
        return self.get_response(request)
