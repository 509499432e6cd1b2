"""Refuse, at the edge, what no page of the site ever sends: a NUL character (PostgreSQL cannot
store one, and answers a query that holds one with an error) in the path, the query string, a
posted form, a JSON body or a cookie, or a value longer than any field takes in the path, the
query, the form or the JSON body.

A middleware rather than each form: URL parameters (``/players/<name>/``, ``/invite/<code>/``),
cookies (the session key is looked up in the database) and allauth's forms never reach our forms,
and one check at the door covers the views written later too. Forms still bound their own fields.
"""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

MAX_PATH = 1000  # characters: our longest URL (an unsubscribe token) is about 150
MAX_VALUE = 1000  # characters in one field: a password is the longest thing a person types
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
API = "/api/"  # its refusals are JSON, in the API's shape (api.v1)


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
    if request.method == "POST" and request.content_type in FORMS:
        pairs += request.POST.lists()
    elif _json_refused(request):
        return True
    return any(
        _bad(key, MAX_VALUE) or any(_bad(value, MAX_VALUE) for value in values)
        for key, values in pairs
    )


def _json_refused(request) -> bool:
    """Whether a body that is not a form holds, as JSON, a bad string (a key or a value, at any
    depth). Any such body is read, whatever its content type says, because the API parses it as
    JSON regardless. A body that is no JSON is left to the API to refuse; Django bounds its size
    (DATA_UPLOAD_MAX_MEMORY_SIZE: a larger one is refused with a 400 as it is read)."""
    body = request.body
    if not body:
        return False
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
        return False
    # A stack rather than recursion, for the same nesting.
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _bad(item, MAX_VALUE):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if refused(request):
            message = _(
                "This request holds a null character or a value too long for this site:"
                " nothing was done."
            )
            if request.path.startswith(API):
                return JsonResponse({"code": "malformed", "message": message}, status=400)
            return render(request, "400.html", {"message": message}, status=400)
        return self.get_response(request)
