"""Thin views for the account pages: the leaderboard, settings (with the browsers that take push
notifications), deleting an account (a player's profile and games are the games' pages,
``games.views``)."""

from __future__ import annotations

from allauth.account import app_settings as account_settings
from allauth.account import views as allauth_views
from django.conf import settings as site_settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.refusals import retry_message

from . import selectors
from .actions import add_push_device, delete_account, remove_push_device
from .adapter import retry_after
from .forms import DeleteAccountForm, PushSubscriptionForm, SettingsForm, browser_name


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
    context = {
        "form": form,
        "devices": selectors.push_devices(request.user),
        "push_key": site_settings.VAPID_PUBLIC_KEY,
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def push_device_add(request):
    """This browser's push subscription, sent by the settings page's script (static/js/
    notifications.js) once the player said yes: 204, or 400 with what is wrong, in words."""
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        problems = [str(e) for errors in form.errors.values() for e in errors]
        return HttpResponse(" ".join(problems), status=400, content_type="text/plain")
    agent = request.headers.get("User-Agent", "")
    add_push_device(request.user, **form.cleaned_data, browser=browser_name(agent))
    return HttpResponse(status=204)


@login_required
@require_POST
def push_device_remove(request, pk: int):
    if remove_push_device(request.user, pk):
        messages.success(request, _("That device gets no more notifications."))
    return redirect("settings")


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
