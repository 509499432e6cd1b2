"""An open table, before its first card: joining and leaving it, its bots (a level, or a bot
account by name), the invite link's page and invitations by name, and starting it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from games import actions, lookups, selectors
from games.actions import ActionError
from games.forms.table import BotAccountForm, InviteForm, JoinForm, LevelForm, PositionForm
from games.models import Game
from games.views.answers import person_post, refusal, table_action, table_answer


@person_post("play")
def join(request, pk: int):
    code = JoinForm(request.POST).code()
    if refused := refusal(request, pk, invite_code=code):
        return refused
    return table_action(request, pk, actions.join_game, code, whole=True)


@person_post("play")
def leave(request, pk: int):
    if refused := refusal(request, pk):
        return refused
    try:
        actions.leave_game(request.user, pk)
    except ActionError as error:
        return table_answer(request, pk, error, whole=True)
    if selectors.game_page(pk, request.user) is None:
        # The table is gone (nobody is left at it), or private and no longer this player's to see.
        messages.success(request, _("You have left the table."))
        if request.htmx:
            return HttpResponseClientRedirect(reverse("lobby"))
        return redirect("lobby")
    return table_answer(request, pk, whole=True)


@person_post("play")
def add_bot(request, pk: int):
    form = LevelForm(request.POST)
    if refused := refusal(request, pk, form):
        return refused
    return table_action(request, pk, actions.add_bot, form.cleaned_data["level"])


@person_post("play")
def seat_bot_account(request, pk: int):
    """Seat a bot account, by its username, in the first open seat (the table's creator)."""
    form = BotAccountForm(request.POST)
    if refused := refusal(request, pk, form):
        return refused
    return table_action(request, pk, actions.seat_bot_account, form.cleaned_data["username"])


@person_post("play")
def remove_bot(request, pk: int):
    form = PositionForm(request.POST)
    if refused := refusal(request, pk, form):
        return refused
    return table_action(request, pk, actions.remove_bot, form.cleaned_data["position"])


@person_post("play")
def start(request, pk: int):
    form = LevelForm(request.POST, default=User.DEFAULT_BOT_LEVEL)
    if refused := refusal(request, pk, form):
        return refused
    return table_action(request, pk, actions.start_game, form.cleaned_data["level"])


def invite(request, code: str):
    """The page an invite link opens: an open table, with a button to join it. Once the game
    has started the link shows nothing more: its players and invitees go to the game page."""
    game_row = lookups.game_by_invite(code)
    if game_row is None:
        raise Http404(_("This invite link is not valid."))
    if game_row.status != Game.Status.OPEN:
        if selectors.can_view(game_row, request.user):
            return redirect("game", pk=game_row.pk)
        raise Http404(_("This game has already started."))
    context = selectors.game_page(game_row.pk, request.user, invite_code=code)
    context["invite"] = code
    return render(request, "games/game.html", context)


@person_post("invite")
def invite_player(request, pk: int):
    form = InviteForm(request.POST)
    if refused := refusal(request, pk, form):
        return refused
    try:
        invitee = actions.invite_player(request.user, pk, form.cleaned_data["username"])
    except ActionError as error:
        return table_answer(request, pk, error)
    messages.success(request, _("Invitation sent to %(name)s.") % {"name": invitee.name})
    return table_answer(request, pk)
