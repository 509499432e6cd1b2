"""Thin views for the account pages: profiles, the leaderboard, settings, deleting an account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from . import selectors
from .actions import delete_account
from .forms import DeleteAccountForm, SettingsForm


def profile(request, username: str):
    context = selectors.profile_page(username, viewer=request.user)
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/profile.html", context)


def player_games(request, username: str, which: str):
    """A player's games in play, or finished games, a page at a time."""
    context = selectors.player_games_page(
        username, which, request.GET.get("page"), viewer=request.user
    )
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/games.html", context)


def leaderboard(request):
    return render(
        request, "accounts/leaderboard.html", selectors.leaderboard_page(request.GET.get("page"))
    )


@login_required
def settings(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form})


@login_required
def delete(request):
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        delete_account(user)
        messages.success(request, _("Your account is deleted. Thank you for playing."))
        return redirect("lobby")
    return render(request, "accounts/delete.html", {"form": form})
