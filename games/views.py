"""Thin views: parse the request, call one action or selector, render.

Every POST works without JavaScript (the answer redirects back to the page); with HTMX
(``request.htmx``) the answer is the game fragment, ``games/game.html#game``.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import actions, clock, selectors
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


poll.stays_cheap = True  # it runs every few seconds: one query, the player is not loaded


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
        time_control, seconds = post.get("move_seconds", "live:300").split(":", 1)
        move_seconds = int(seconds)
    except ValueError:
        messages.error(request, _("Choose the number of players and the rounds from the form."))
        return redirect("lobby")
    # the form has four other seats; create_game refuses a count out of 2-5
    bots = [post.get(f"seat_{p}") or None for p in range(1, min(players, 5))]
    try:
        new = actions.create_game(
            request.user,
            players=players,
            bots=bots,
            target=target,
            time_control=time_control,
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


@require_POST
@login_required
def invite_player(request, pk: int):
    try:
        invitee = actions.invite_player(request.user, pk, request.POST.get("username", ""))
    except ActionError as error:
        return _answer(request, pk, error)
    messages.success(request, _("Invitation sent to %(name)s.") % {"name": invitee.name})
    return _answer(request, pk)


@require_POST
@login_required
def come_back(request, pk: int):
    return _table_action(request, pk, actions.come_back)


@login_required
def vacation(request):
    """Start or end a vacation: deadlines in correspondence games wait meanwhile."""
    from games.actions.deadlines import VACATION_DAYS, vacation_left
    from games.models import Vacation

    if request.method == "POST":
        try:
            if request.POST.get("action") == "end":
                actions.end_vacation(request.user)
                messages.success(request, _("Welcome back: your deadlines run again."))
            else:
                try:
                    days = int(request.POST.get("days", ""))
                except ValueError:
                    days = 0
                actions.start_vacation(request.user, days)
                messages.success(request, _("Enjoy your vacation."))
        except ActionError as error:
            messages.error(request, error.message)
        return redirect("vacation")
    now = clock.now()
    context = {
        "current": Vacation.objects.filter(user=request.user, ended_at__isnull=True).first(),
        "days_left": round(vacation_left(request.user, now) / timedelta(days=1), 1),
        "days_a_year": VACATION_DAYS,
    }
    return render(request, "games/vacation.html", context)


@csrf_exempt  # mail clients post one-click unsubscribes (RFC 8058) without a CSRF token
def unsubscribe(request, token: str):
    """Turn one kind of email off, from the link in an email: no login needed, the signed token
    says who and what. GET shows a button; POST (that button, or the mail client) does it."""
    from django.core import signing

    from accounts.models import User
    from games.notifications import read_unsubscribe_token

    try:
        user_id, preference = read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except signing.SignatureExpired:
        return render(
            request, "games/unsubscribe.html", {"error": _("This link has expired.")}, status=400
        )
    except (signing.BadSignature, User.DoesNotExist):
        return render(
            request, "games/unsubscribe.html", {"error": _("This link is not valid.")}, status=400
        )
    label = User._meta.get_field(preference).verbose_name
    if request.method == "POST":
        value = User.TurnEmail.NEVER if preference == "email_turn" else False
        User.objects.filter(pk=user.pk).update(**{preference: value})
        return render(request, "games/unsubscribe.html", {"done": True, "label": label})
    return render(request, "games/unsubscribe.html", {"label": label, "token": token})
