"""How the game views answer, and the guards they share.

A game the visitor may not see (``selectors.can_view``) is answered exactly as a game that does
not exist: 404, or under HTMX a redirect to the lobby that says so (``no_such_game``). Requests
that cost others something are counted (``games.limits``); over a limit the answer is 429 and
nothing changes (``too_many``). A table's form is answered with the game fragment under HTMX,
else by a redirect back to the game page (``table_answer``).
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import limits, lookups, selectors
from games.actions import ActionError
from games.actions.errors import RateLimited
from games.forms import first_error

GAME_FRAGMENT = "games/game.html#game"

# The page's table with its chat (``games/game.html#table_and_chat``): the answer to a form that
# seats the player or takes them from their seat, for the chat comes and goes with the seat.
TABLE_AND_CHAT = "games/game.html#table_and_chat"


def no_such_game(request):
    """The answer for a game that does not exist, or that this visitor may not see."""
    message = _("There is no such game.")
    if request.htmx:
        messages.error(request, message)
        response = HttpResponseClientRedirect(reverse("lobby"))
        response.status_code = 404
        return response
    raise Http404(message)


def too_many(request, over: RateLimited, pk: int | None = None):
    """429: the request did nothing; the message says when to try again."""
    if pk is not None and request.htmx:
        context = selectors.game_page(pk, request.user)
        if context is not None:
            context["error"] = over.message
            response = render(request, GAME_FRAGMENT, context, status=429)
            response["Retry-After"] = str(over.retry_after)
            return response
    back = reverse("game", args=[pk]) if pk is not None else reverse("lobby")
    response = render(request, "429.html", {"message": over.message, "back": back}, status=429)
    response["Retry-After"] = str(over.retry_after)
    return response


def limited(group: str):
    """Count the request in ``games.limits``; over the limit answer 429 and do nothing."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            try:
                limits.hit(request, group)
            except RateLimited as over:
                return too_many(request, over, kwargs.get("pk"))
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def people_only(view):
    """A bot account plays through the API only: the site's own forms refuse it, with a
    message, and do nothing (after ``login_required``)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request.user, "bot_account", False):
            error = ActionError(
                _("A bot account plays through the API only, not on the site's pages."),
                code="bot_account",
            )
            pk = kwargs.get("pk")
            if pk is None:
                messages.error(request, error.message)
                return redirect("lobby")
            return table_answer(request, pk, error)
        return view(request, *args, **kwargs)

    return wrapped


def person_post(group: str):
    """The guard of every form of the site's pages that changes something: a POST
    (``require_POST``) by a logged-in person (``login_required``, then ``people_only``),
    counted against the limit ``group`` (``limited``), in that order: a refused method, an
    anonymous visitor or a bot account is never counted against a limit
    (tests/games/test_view_guard.py)."""

    def decorator(view):
        return require_POST(login_required(people_only(limited(group)(view))))

    return decorator


def page_not_found(request, exception):
    """404: with the view's own sentence ("There is no such game.") when it gave one; never the
    resolver's internals."""
    message = None
    if type(exception) is Http404 and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return render(request, "404.html", {"message": message}, status=404)


def game_fragment(request, context: dict, status: int = 200):
    """The ``#game`` fragment; for a player of a finished game whose rematch has started, the
    new game instead (htmx follows ``HX-Redirect``): their open page moves there by itself."""
    rematch = context.get("rematch")
    if rematch and rematch["new_game_id"] and rematch["me"] is not None:
        return HttpResponseClientRedirect(reverse("game", args=[rematch["new_game_id"]]))
    return render(request, GAME_FRAGMENT, context, status=status)


def table_answer(request, pk: int, error: ActionError | None = None, whole: bool = False):
    """The game fragment for HTMX (``whole``: the table with its chat), else a redirect back to
    the game page."""
    if isinstance(error, RateLimited):
        return too_many(request, error, pk)
    context = selectors.game_page(pk, request.user)
    if context is None:
        return no_such_game(request)
    if request.htmx:
        context["error"] = error.message if error else None
        if whole:
            context["chat"] = selectors.table_chat(
                pk, request.user, seated=context["me"] is not None
            )
            return render(request, TABLE_AND_CHAT, context)
        return game_fragment(request, context)
    if error:
        messages.error(request, error.message)
    return redirect("game", pk=pk)


def refusal(request, pk: int, form=None, invite_code: str = ""):
    """The answer when the game is not this visitor's to see, or the form is invalid; None when
    the request may go on to its action."""
    if lookups.visible_game(pk, request.user, invite_code) is None:
        return no_such_game(request)
    if form is not None and not form.is_valid():
        return table_answer(request, pk, ActionError(first_error(form), code="malformed"))
    return None


def table_action(request, pk: int, action, *args, whole: bool = False, **options):
    """Run the action on the game as this user, and answer with the table (the refusal too)."""
    try:
        action(request.user, pk, *args, **options)
    except ActionError as error:
        return table_answer(request, pk, error, whole=whole)
    return table_answer(request, pk, whole=whole)
