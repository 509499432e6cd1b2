"""Thin views: parse the request, call one action or selector, render.

Every POST works without JavaScript (the answer redirects back to the page); with HTMX
(``request.htmx``) the answer is the game fragment, ``games/game.html#game``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import actions, selectors
from games.actions import ActionError
from games.models import Game

GAME_FRAGMENT = "games/game.html#game"


def lobby(request):
    return render(request, "games/lobby.html", selectors.lobby(request.user))


def rules(request):
    return render(request, "games/rules.html")


def game(request, pk: int):
    context = selectors.game_page(pk, request.user)
    if context is None:
        raise Http404(_("There is no such game."))
    template = GAME_FRAGMENT if request.htmx else "games/game.html"
    return render(request, template, context)


@require_GET
def poll(request, pk: int):
    """Tiny when nothing changed (204, one query); the fresh game fragment when it did."""
    version = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
    if version is None:
        raise Http404(_("There is no such game."))
    if str(version) == request.GET.get("version"):
        return HttpResponse(status=204)
    return game(request, pk)


def _answer(request, pk: int, error: ActionError | None = None):
    """The game fragment for HTMX, else a redirect back to the game page."""
    if request.htmx:
        context = selectors.game_page(pk, request.user)
        if context is None:  # the last person left an open table: it is gone
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("lobby")
            return response
        context["error"] = error.message if error else None
        return render(request, GAME_FRAGMENT, context)
    if error:
        messages.error(request, error.message)
    if not Game.objects.filter(pk=pk).exists():
        return redirect("lobby")
    return redirect("game", pk=pk)


def _version(request) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise ActionError(_("That move is not understood."), code="malformed") from None


def move_from_post(post) -> dict:
    """The engine's move (without the seat) from a move form."""
    kind = post.get("kind")
    try:
        if kind == "token":
            line, box = post["box"].split(":", 1)
            return {"token": [line, box]}
        if kind == "teams":
            team, bonus = post["choice"].split("|", 1)
            return {
                "teams": {
                    "team": [int(s) for s in team.split(",")],
                    "bonus": int(bonus) if bonus else None,
                }
            }
        if kind == "discard":
            return {"discard": post.getlist("cards")}
        if kind in ("pass", "play"):
            return {kind: post["card"]}
    except (KeyError, ValueError):
        pass
    raise ActionError(_("That move is not understood."), code="malformed")


@require_POST
@login_required
def move(request, pk: int):
    try:
        actions.submit_move(request.user, pk, _version(request), move_from_post(request.POST))
    except ActionError as error:
        return _answer(request, pk, error)
    return _answer(request, pk)


@require_POST
@login_required
def create(request):
    post = request.POST
    try:
        players = int(post.get("players", ""))
        target = int(post["target"]) if post.get("target") else None
        move_seconds = int(post.get("move_seconds", "300"))
    except ValueError:
        messages.error(request, _("Choose the number of players and the rounds from the form."))
        return redirect("lobby")
    bots = [post.get(f"seat_{p}") or None for p in range(1, players)]
    try:
        new = actions.create_game(
            request.user,
            players=players,
            bots=bots,
            target=target,
            time_control=post.get("time_control", Game.TimeControl.LIVE),
            move_seconds=move_seconds,
            visibility=post.get("visibility", Game.Visibility.PUBLIC),
        )
    except ActionError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game", pk=new.pk)


def _table_action(request, pk: int, action, *args):
    try:
        action(request.user, pk, *args)
    except ActionError as error:
        return _answer(request, pk, error)
    return _answer(request, pk)


@require_POST
@login_required
def join(request, pk: int):
    return _table_action(request, pk, actions.join_game, request.POST.get("invite", ""))


@require_POST
@login_required
def leave(request, pk: int):
    return _table_action(request, pk, actions.leave_game)


@require_POST
@login_required
def add_bot(request, pk: int):
    return _table_action(request, pk, actions.add_bot, request.POST.get("level", ""))


@require_POST
@login_required
def remove_bot(request, pk: int):
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        return _answer(request, pk, ActionError(_("There is no bot in that seat.")))
    return _table_action(request, pk, actions.remove_bot, position)


@require_POST
@login_required
def start(request, pk: int):
    return _table_action(request, pk, actions.start_game, request.POST.get("level", "medium"))


def invite(request, code: str):
    """The page an invite link opens: the table, with a button to join it."""
    game_row = Game.objects.filter(invite_code=code).first()
    if game_row is None:
        raise Http404(_("This invite link is not valid."))
    context = selectors.game_page(game_row.pk, request.user)
    context["invite"] = code
    return render(request, "games/game.html", context)
