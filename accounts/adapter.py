"""How allauth treats our users: bots (``User.bot_level``) never log in and never get a
password, no person may take a name that reads like a bot's or another player's
(``accounts.names``), failed logins are counted per login name *and* address, and a visitor
over one of allauth's limits is told when to try again."""

from __future__ import annotations

import math

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit as allauth_limits
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from nyet_site.refusals import retry_message

from .names import BOT_PREFIX, clashes, reads_as_bot

APP = "allauth.account"


def time_left(request, actions, key: str | None = None) -> int:
    """Seconds until allauth lets this request through again, read from allauth's own counts:
    for each full limit of ``actions``, when the oldest attempt it counts leaves its window.

    allauth keeps, per limit, the times of the attempts in its window (newest first), but says
    neither which limit refused nor when (its 429 handler gets the request alone; the internal
    module is the only way to read the counts). A limit per key is read only when the key is
    given; when no limit read is full, the longest window of ``actions`` is an upper bound."""
    now = allauth_limits.time.time()  # allauth's clock, which the tests stop
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

    def _get_login_attempts_cache_key(self, request, **credentials):
        """allauth's ``login_failed`` limit ("5/5m/key") counts failures per key. Its key is the
        login name alone, so anyone could lock anyone out by failing on their name; ours is the
        login name from this address: failures from elsewhere never lock the owner out. The
        per-address limit ("10/m/ip") still stops one address from trying many names."""
        name = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{name}@{self.get_client_ip(request)}"

    def pre_authenticate(self, request, **credentials):
        """allauth's lock says "Try again later."; ours says when."""
        try:
            super().pre_authenticate(request, **credentials)
        except ValidationError as error:
            if error.code != "too_many_login_attempts":
                raise
            key = self._get_login_attempts_cache_key(request, **credentials)
            wait = retry_after(request, ["login_failed"], key)
            locked = _("Too many failed login attempts.")
            raise ValidationError(f"{locked} {retry_message(wait)}", code=error.code) from error

    def pre_login(self, request, user, **kwargs):
        if user.is_bot:
            raise PermissionDenied(_("Bots cannot log in."))
        return super().pre_login(request, user, **kwargs)

    def set_password(self, user, password):
        if user.is_bot:
            raise PermissionDenied(_("Bots have no password."))
        super().set_password(user, password)
