"""A player's pages and their own settings: their record and their games, their vacation, and
the link in an email that turns that kind of email off."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from games import actions, clock, player_record
from games.actions import ActionError
from games.actions.notify import unsubscribe as unsubscribe_from
from games.actions.notify import unsubscriber
from games.actions.vacations import VACATION_DAYS, current_vacation, vacation_left
from games.forms import first_error
from games.forms.players import VacationForm
from games.notifications import read_unsubscribe_token


def profile(request, username: str):
    """A player's page: their record, figures, rating history and latest games."""
    context = player_record.profile_page(username, viewer=request.user)
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/profile.html", context)


def player_games(request, username: str, which: str):
    """A player's games in play, or finished games, a page at a time."""
    context = player_record.player_games_page(
        username, which, request.GET.get("page"), viewer=request.user
    )
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/games.html", context)


@login_required
def vacation(request):
    """Start or end a vacation: deadlines in correspondence games wait meanwhile."""
    if request.method == "POST":
        form = VacationForm(request.POST)
        try:
            if not form.is_valid():
                raise ActionError(first_error(form), code="days")
            if form.cleaned_data["action"] == "end":
                actions.end_vacation(request.user)
                messages.success(request, _("Welcome back: your deadlines run again."))
            else:
                actions.start_vacation(request.user, form.cleaned_data["days"])
                messages.success(request, _("Enjoy your vacation."))
        except ActionError as error:
            messages.error(request, error.message)
        return redirect("vacation")
    now = clock.now()
    context = {
        "current": current_vacation(request.user),
        "days_left": round(vacation_left(request.user, now) / timedelta(days=1), 1),
        "days_a_year": VACATION_DAYS,
    }
    return render(request, "games/vacation.html", context)


@csrf_exempt  # mail clients post one-click unsubscribes (RFC 8058) without a CSRF token
def unsubscribe(request, token: str):
    """Turn one kind of email off, from the link in an email: no login needed, the signed token
    says who and what. GET shows a button; POST (that button, or the mail client) does it."""
    try:
        user_id, preference = read_unsubscribe_token(token)
        user = unsubscriber(user_id)
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
        unsubscribe_from(user, preference)
        return render(request, "games/unsubscribe.html", {"done": True, "label": label})
    return render(request, "games/unsubscribe.html", {"label": label, "token": token})
