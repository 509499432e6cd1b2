"""The game page and what is done on it: the page itself, its poll and its past steps, a move,
coming back from autopilot, resigning, aborting, and the rematch."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from games import actions, lookups, selectors
from games.actions import ActionError
from games.actions.rematches import accept_rematch, decline_rematch
from games.forms.table import ConfirmForm, MoveForm
from games.models import Game
from games.views.answers import (
    GAME_FRAGMENT,
    game_fragment,
    no_such_game,
    person_post,
    refusal,
    table_action,
    table_answer,
)


def game(request, pk: int):
    """The game page. ``?invite=<code>`` shows an open private table to whoever holds its invite
    code (the invite link's page polls this way); ``?step=K`` the table right after move K, as
    the visitor's seat saw it then (``game_step``)."""
    if "step" in request.GET:
        return game_step(request, pk, request.GET["step"])
    code = request.GET.get("invite", "")
    context = selectors.game_page(pk, request.user, invite_code=code)
    if context is None:
        return no_such_game(request)
    if code:
        context["invite"] = code
    if request.htmx:
        return game_fragment(request, context)
    context["chat"] = selectors.table_chat(pk, request.user, seated=context["me"] is not None)
    context["push_key"] = push_prompt_key(context)
    return render(request, "games/game.html", context)


def push_prompt_key(context) -> str:
    """The site's push key where the page may offer notifications after a move: to a player of
    a correspondence game in play, whose turns come days apart."""
    game = context["game"]
    offered = (
        context["me"] is not None
        and game.time_control == Game.TimeControl.CORRESPONDENCE
        and game.status == Game.Status.ACTIVE
        and not game.tutorial
    )
    return settings.VAPID_PUBLIC_KEY if offered else ""


STEP = re.compile(r"[0-9]{1,9}")


def game_step(request, pk: int, step: str):
    """A past table, read only, for the page to show the moves it missed one by one
    (static/js/live.js paces them ``BOT_PAUSE_SECONDS`` apart). 400 for a step that is not a
    number or that the game has not made."""
    if not STEP.fullmatch(step):
        message = _("A step is a move number, such as 12.")
        return render(request, "400.html", {"message": message}, status=400)
    try:
        context = selectors.game_step(pk, request.user, int(step))
    except selectors.NoSuchStep:
        message = _("This game has no move %(step)s.") % {"step": int(step)}
        return render(request, "400.html", {"message": message}, status=400)
    if context is None:
        return no_such_game(request)
    template = GAME_FRAGMENT if request.htmx else "games/game.html"
    return render(request, template, context)


@require_GET
def poll(request, pk: int):
    """Tiny when nothing changed (204, one query for a public game); the fresh game fragment
    when it did. A private game also checks who asks (``selectors.can_view``)."""
    invite_code = request.GET.get("invite", "")
    row = lookups.visible_game(pk, request.user, invite_code, *lookups.GUARD_FIELDS)
    if row is None:
        return no_such_game(request)
    if str(row.version) == request.GET.get("version"):
        return HttpResponse(status=204)
    return game(request, pk)


poll.stays_cheap = True  # it runs every few seconds: one query, the player is not loaded


@person_post("play")
def move(request, pk: int):
    form = MoveForm(request.POST)
    if refused := refusal(request, pk, form):
        return refused
    seat = None
    if form.cleaned_data["kind"] == "teams":
        seat = selectors.position_of(pk, request.user)
    return table_action(
        request,
        pk,
        actions.submit_move,
        form.cleaned_data["version"],
        form.move(seat),
        round_number=form.cleaned_data["round"],
    )


@person_post("play")
def come_back(request, pk: int):
    if refused := refusal(request, pk):
        return refused
    return table_action(request, pk, actions.come_back)


@person_post("play")
def resign(request, pk: int):
    """Give up this game for good (after the "Yes" of the confirmation): a bot plays on."""
    if refused := refusal(request, pk, ConfirmForm(request.POST)):
        return refused
    return table_action(request, pk, actions.resign)


@person_post("play")
def abort(request, pk: int):
    """End the game before its first card: nobody wins, nothing is rated."""
    if refused := refusal(request, pk, ConfirmForm(request.POST)):
        return refused
    return table_action(request, pk, actions.abort_game)


@person_post("create")
def rematch(request, pk: int):
    """Ask for a rematch (``actions.rematch``): the other players' pages show the offer, and
    the asker's says whom it waits for. When it starts at once (bots only), or has started,
    the player goes to the new game."""
    try:
        offer = actions.rematch(request.user, pk)
    except ActionError as error:
        return table_answer(request, pk, error)
    return _after_rematch(request, pk, offer)


@person_post("play")
def rematch_answer(request, pk: int, answer: str):
    """Accept or decline the open rematch offer (``offer``: the one the page showed)."""
    if refused := refusal(request, pk):
        return refused
    raw = request.POST.get("offer", "")
    if not STEP.fullmatch(raw):
        return table_answer(
            request, pk, ActionError(_("That rematch offer is not understood."), "malformed")
        )
    action = accept_rematch if answer == "accept" else decline_rematch
    try:
        offer = action(request.user, pk, int(raw))
    except ActionError as error:
        return table_answer(request, pk, error)
    return _after_rematch(request, pk, offer)


def _after_rematch(request, pk: int, offer):
    if offer.new_game_id is None:
        return table_answer(request, pk)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("game", args=[offer.new_game_id]))
    return redirect("game", pk=offer.new_game_id)
