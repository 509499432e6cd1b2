"""How often one person, and one address, may do what costs others something: create tables,
send invitations, move and change tables. Counted by django-ratelimit in Django's ``default``
cache (Redis when configured, so that every web process counts together). Over a limit a request
does nothing and is answered 429 with "try again in N seconds" (the views say how).

Sign-up, login and password reset are allauth's (``ACCOUNT_RATE_LIMITS`` in the settings); the
invitations one inviter may send in a day are counted in the database (games.actions.invitations).
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage

from common.refusals import retry_message
from games.actions.errors import RateLimited

# group: {"user": rates, "ip": rates}; a rate is django-ratelimit's "count/period".
RATES = {
    # One account made 30 private 5-player tables in 4.6 s.
    "create": {"user": ("5/m", "30/d"), "ip": ("60/d",)},
    # Emails to other people: the inviter's daily total is also counted per invitee in the
    # database, where a day is a day whatever the cache.
    "invite": {"user": ("10/m", "60/h"), "ip": ("120/h",)},
    # Moves and table actions (join, leave, bots, start): a person makes a few a second at most;
    # several people may share an address.
    "play": {"user": ("5/s", "120/m"), "ip": ("20/s", "600/m")},
    # Table chat: a few lines in a row, not a flood.
    "chat": {"user": ("5/10s", "60/h"), "ip": ("30/10s",)},
    # Every call to the API (api/), per token (a session's calls count as one token): a
    # client that reads in a loop must not take the site's time from everyone else.
    "api": {"token": ("20/s", "600/m"), "ip": ("50/s",)},
}
MESSAGES = {
    "create": _("You have created many tables just now."),
    "invite": _("You have sent many invitations just now."),
    "play": _("That is a lot of moves at once."),
    "chat": _("That is a lot of messages at once."),
    "api": _("That is a lot of requests at once."),
}


def client_ip(request) -> str:
    """The visitor's address as allauth sees it (its proxy settings apply), so that the site's
    limits and allauth's login limits count the same address."""
    return get_adapter().get_client_ip(request)


def hit(request, group: str) -> None:
    """Count one ``group`` request of this user and address; ``RateLimited`` when it is one
    too many (it still counts: hammering does not shorten the wait)."""
    token = getattr(request, "api_token", None)
    keys = {
        "user": str(request.user.pk),
        "token": f"token-{token.pk}" if token is not None else f"session-{request.user.pk}",
        "ip": client_ip(request),
    }
    waits = []
    for key, rates in RATES[group].items():
        for rate in rates:
            usage = get_usage(
                request,
                group=f"nyet.{group}.{key}",
                key=lambda _group, _request, value=keys[key]: value,
                rate=rate,
                increment=True,
            )
            if usage is not None and usage["should_limit"]:
                waits.append(usage["time_left"])
    if waits:
        seconds = max(1, *waits)
        raise RateLimited(f"{MESSAGES[group]} {retry_message(seconds)}", retry_after=seconds)
