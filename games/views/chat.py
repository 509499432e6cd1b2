"""The table chat: its lines (polled), writing in it, and reporting a message to staff. Only
the table's seated players see it (``selectors.chat_seated``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import actions, limits, selectors
from games.actions import ActionError
from games.actions.errors import RateLimited
from games.forms import first_error
from games.forms.table import ChatForm, ReportForm
from games.views.answers import no_such_game, people_only, too_many

CHAT_FRAGMENT = "games/game.html#chat_lines"


def _chat_answer(request, pk: int, error: ActionError | None = None, note: str = ""):
    """The chat's lines for HTMX (with the refusal or the note), else back to the game page."""
    if not request.htmx:
        if error:
            messages.error(request, error.message)
        elif note:
            messages.success(request, note)
        return redirect(reverse("game", args=[pk]) + "#chat")
    chat = selectors.table_chat(pk, request.user)
    if chat is None:
        return no_such_game(request)
    chat["error"] = error.message if error else ""
    chat["note"] = note
    response = render(request, CHAT_FRAGMENT, {"chat": chat})
    if request.method == "POST" and error is None and not note:
        response["HX-Trigger"] = "nyet:chat-sent"  # chat.js empties the box
    return response


@require_http_methods(["GET", "POST"])
@login_required
@people_only
def chat(request, pk: int):
    """GET: the table chat's lines (204 when none is newer than ``?after=``). POST: write."""
    if not selectors.chat_seated(request.user, pk):
        return no_such_game(request)
    if request.method == "GET":
        after = request.GET.get("after", "")
        if after.isdigit() and not selectors.chat_news(pk, int(after)):
            return HttpResponse(status=204)
        return _chat_answer(request, pk)
    try:
        limits.hit(request, "chat")
        form = ChatForm(request.POST)
        if not form.is_valid():
            raise ActionError(first_error(form), code="malformed")
        actions.post_chat(request.user, pk, form.cleaned_data["text"])
    except RateLimited as over:
        # 429 and Retry-After, as every limit answers: the chat's lines with the message for
        # htmx (base.html swaps a 429), the limit's page otherwise.
        if not request.htmx:
            return too_many(request, over, pk)
        response = _chat_answer(request, pk, over)
        response.status_code = 429
        response["Retry-After"] = str(over.retry_after)
        return response
    except ActionError as error:
        return _chat_answer(request, pk, error)
    return _chat_answer(request, pk)


@require_POST
@login_required
@people_only
def report_chat(request, pk: int):
    """Report a message to staff: they read reports in the admin."""
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            raise ActionError(first_error(form), code="malformed")
        actions.report_chat(request.user, pk, form.cleaned_data["message"])
    except ActionError as error:
        return _chat_answer(request, pk, error)
    return _chat_answer(request, pk, note=_("Reported: staff will read it."))
