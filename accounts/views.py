"""Thin views for the account pages: the leaderboard, settings, deleting an account (a player's
profile and games are the games' pages, ``games.views``)."""

from __future__ import annotations

from allauth.account import app_settings as account_settings
from allauth.account import views as allauth_views
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.refusals import retry_message

from . import selectors
from .actions import delete_account
from .adapter import retry_after
from .forms import DeleteAccountForm, SettingsForm


def login(request, *args, **kwargs):
    """allauth's login page; while failed logins lock this name from this address, a 429 whose
    message and Retry-After say when to try again (``AccountAdapter.pre_authenticate``)."""
    response = allauth_views.login(request, *args, **kwargs)
    wait = getattr(request, "retry_after", None)
    if wait is not None:
        response.status_code = 429
        response["Retry-After"] = str(wait)
    return response


def too_many_attempts(request):
    """The answer to a request over one of allauth's limits (sign-up, login, password reset...;
    allauth calls the URLconf's ``handler429``): when to try again, in words and Retry-After.
    Which limit refused is not known here: every action's is read, and the key of a limit per
    email address is the address sent."""
    email = request.POST.get("email", "").strip().lower() if request.method == "POST" else ""
    wait = retry_after(request, account_settings.RATE_LIMITS, email or None)
    too_many = _("That was a lot of attempts at once.")
    message = f"{too_many} {retry_message(wait)}"
    response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


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
