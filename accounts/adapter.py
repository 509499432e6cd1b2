"""How allauth treats our users: bots (``User.bot_level``) never log in and never get a
password, no person may take a name that reads like a bot's or another player's
(``accounts.names``), failed logins are limited per login name *and* address and per address
(``accounts.failed_logins``), and a visitor over one of allauth's limits is told when to try
again. Failed logins are also counted per
account from any address (``accounts.login_guard``): an account under attack takes a one-time
code by email, not a password, from a browser that has never logged in to it."""

from __future__ import annotations

import math
import time

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit as allauth_limits
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from common.refusals import retry_message

from . import failed_logins, login_guard
from .names import BOT_PREFIX, clashes, reads_as_bot

APP = "allauth.account"


def time_left(request, actions, key: str | None = None) -> int:
    """Seconds until allauth lets this request through again, read from allauth's own counts:
    for each full limit of ``actions``, when the oldest attempt it counts leaves its window.

    allauth keeps, per limit, the times of the attempts in its window (newest first), but says
    neither which limit refused nor when: its 429 handler gets the request alone, and no public
    API reads the counts, so this reads them through allauth's internal module, a deliberate
    exception listed in ``tests/test_public_apis.py``. A limit per key is read only when the
    key is given; when no limit read is full, the longest window of ``actions`` is an upper
    bound."""
    now = time.time()  # allauth's clock (it reads time.time)
    waits, windows = [], [0.0]
    for action in actions:
        for rate in allauth_limits.get_rates(app=APP, action=action):
            windows.append(rate.duration)
            if (rate.per == "key" and not key) or (
                rate.per == "user" and not request.user.is_authenticated
            ):
                continue
            cache_key = allauth_limits.get_cache_key(
                request, app=APP, action=action, rate=rate, key=key
            )
            history = [t for t in cache.get(cache_key, []) if t > now - rate.duration]
            if len(history) >= rate.amount:
                waits.append(history[rate.amount - 1] + rate.duration - now)
    return max(1, math.ceil(max(waits) if waits else max(windows)))


def retry_after(request, actions, key: str | None = None) -> int:
    """``time_left``, noted on the request so that the page sends it as Retry-After."""
    request.retry_after = time_left(request, actions, key)
    return request.retry_after


class AccountAdapter(DefaultAccountAdapter):
    _attempt: float | None = None  # when this login attempt was counted (accounts.failed_logins)

    def get_signup_redirect_url(self, request):
        """A new account is offered the first-game guide (games.tutorial) before anything."""
        return reverse("tutorial")

    def clean_username(self, username, shallow=False):
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(BOT_PREFIX):
            raise ValidationError(_("Names starting with “bot-” are kept for the bots."))
        if reads_as_bot(username):
            raise ValidationError(_("Only the bots are called bots."))
        if not shallow and clashes(username):
            raise ValidationError(
                _("This name reads like another player's name: choose one that stands apart.")
            )
        return username

    def pre_authenticate(self, request, **credentials):
        """The failed-login limits (``accounts.failed_logins``: allauth's own is off), counting
        this attempt or saying when they end; then allauth's checks, then the per-account
        cap."""
        wait, self._attempt = failed_logins.attempt(request, credentials)
        if wait:
            request.retry_after = wait  # the login page sends it as Retry-After
            locked = _("Too many failed login attempts.")
            raise ValidationError(f"{locked} {retry_message(wait)}", code="too_many_login_attempts")
        super().pre_authenticate(request, **credentials)
        if not request.user.is_authenticated and login_guard.needs_code(request, credentials):
            # The same refusal for a right password and a wrong one: the guessing learns nothing.
            # The login page then offers to email a code (templates/account/login.html).
            login = login_guard.login_of(credentials)
            request.login_code_email = login if "@" in login else ""
            request.login_code_needed = True
            raise ValidationError(
                _(
                    "Many wrong passwords have been tried on this account, so it takes a "
                    "one-time code from a browser that has not logged in to it before: we can "
                    "email you one."
                ),
                code="login_code_needed",
            )

    def authenticate(self, request, **credentials):
        """An attempt that logs in is no failure: its count is taken back."""
        user = super().authenticate(request, **credentials)
        if user is not None and self._attempt is not None:
            failed_logins.succeeded(request, credentials, self._attempt)
        return user

    def authentication_failed(self, request, **credentials):
        """Count the failure against the account, from any address (``accounts.login_guard``);
        a logged-in player confirming their password (allauth's reauthentication) is not
        guessing."""
        super().authentication_failed(request, **credentials)
        if not request.user.is_authenticated:
            login_guard.count_failure(request, credentials)

    def post_login(self, request, user, **kwargs):
        """Every login (password, code, sign-up) marks the browser as one its owner uses: it
        logs in with the password alone while the account is under attack."""
        response = super().post_login(request, user, **kwargs)
        login_guard.remember(request, response, user)
        return response

    def pre_login(self, request, user, **kwargs):
        if user.is_site_bot:
            raise PermissionDenied(_("Bots cannot log in."))
        return super().pre_login(request, user, **kwargs)

    def set_password(self, user, password):
        if user.is_site_bot:
            raise PermissionDenied(_("Bots have no password."))
        super().set_password(user, password)
