"""Failed logins, limited per address and per (login name, address), counted by the site.

allauth's own ``login_failed`` limit is off (``ACCOUNT_RATE_LIMITS`` in the settings): its limit
per key counts a login name from every address, so anyone could lock anyone out by failing on
their name, and allauth says neither which limit refused nor when it ends. These limits are
kept through the adapter's public methods, as allauth keeps its own: ``pre_authenticate``
counts each attempt before the password is checked (``attempt``, refused when a limit is
full), ``authenticate`` takes it back when it logs in (``succeeded``). In the project's cache:

- ``PER_ADDRESS`` failures a window from one address, whatever the names: one address cannot try
  name after name;
- ``PER_NAME`` failures a window on one login name from one address: failures from elsewhere
  never lock the owner out. A password reset ends it for the account's names (username and
  email addresses) from the address that reset it (``forget_after_reset``, on allauth's
  ``password_reset`` signal), as allauth's own limit did.

Like allauth's, each limit keeps the times of the attempts in its window, newest first, so that
a refusal says exactly when the oldest one that counts leaves the window; and an address's
check-and-count holds a lock in the cache, so that guesses sent at once from one address are
refused once the limit is full, not all let through before any is counted.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from contextlib import contextmanager
from typing import NamedTuple

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.core.cache import cache

from .login_guard import login_of


class Limit(NamedTuple):
    name: str
    amount: int  # attempts that did not log in...
    seconds: int  # ...within this window


PER_ADDRESS = Limit("address", 10, 60)
PER_NAME = Limit("name", 5, 5 * 60)
IPV6_PREFIX = 64  # one IPv6 visitor holds a whole /64, as allauth counts them
LOCK_SECONDS = 10  # a lock left by a process that died lasts this long
LOCK_WAIT = 1.0  # the longest an attempt waits for the lock of its address...
LOCK_RETRY = 0.01  # ...trying again this often


def address_of(request) -> str:
    """The visitor's address as allauth sees it (its proxy settings apply); an IPv6 address
    as its /64 network."""
    address = get_adapter(request).get_client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.IPv6Network(f"{ip}/{IPV6_PREFIX}", strict=False).network_address)
    return address


def _keys(request, credentials: dict) -> dict[Limit, str]:
    address = address_of(request)
    name = hashlib.sha256(login_of(credentials).lower().encode()).hexdigest()[:32]
    return {
        PER_ADDRESS: f"failed-login:{address}",
        PER_NAME: f"failed-login:{address}:{name}",
    }


def _history(key: str, limit: Limit, now: float) -> list[float]:
    return [t for t in cache.get(key, []) if t > now - limit.seconds]


@contextmanager
def _locked(key: str):
    """Whether this process holds ``key``'s lock for the block: one check-and-count at a time
    per address, so that guesses sent at once are counted one after the other."""
    deadline = time.monotonic() + LOCK_WAIT
    while not cache.add(f"{key}:lock", True, timeout=LOCK_SECONDS):
        if time.monotonic() >= deadline:
            yield False
            return
        time.sleep(LOCK_RETRY)
    try:
        yield True
    finally:
        cache.delete(f"{key}:lock")


def attempt(request, credentials: dict) -> tuple[int, float | None]:
    """Count a login attempt of ``credentials`` from this address, as a failure until it
    succeeds (``succeeded``): ``(0, its time)``, or ``(seconds to wait, None)`` when a limit
    is full, and then it is not counted."""
    keys = _keys(request, credentials)
    with _locked(keys[PER_ADDRESS]) as locked:
        if not locked:
            return 1, None  # too many at once from this address
        now = time.time()
        histories = {limit: _history(key, limit, now) for limit, key in keys.items()}
        waits = [
            history[limit.amount - 1] + limit.seconds - now
            for limit, history in histories.items()
            if len(history) >= limit.amount
        ]
        if waits:
            return max(1, math.ceil(max(waits))), None
        for limit, key in keys.items():
            cache.set(key, [now, *histories[limit]][: limit.amount], timeout=limit.seconds)
        return 0, now


def succeeded(request, credentials: dict, when: float) -> None:
    """The attempt counted at ``when`` logged in: it is no failure."""
    keys = _keys(request, credentials)
    with _locked(keys[PER_ADDRESS]) as locked:
        if not locked:
            return  # it stays counted: the limit is only stricter
        for limit, key in keys.items():
            history = cache.get(key, [])
            if when in history:
                history.remove(when)
                cache.set(key, history, timeout=limit.seconds)


def forget_after_reset(sender, request, user, **kwargs) -> None:
    """allauth's ``password_reset`` signal: the new password may be tried at once from here."""
    emails = EmailAddress.objects.filter(user=user).values_list("email", flat=True)
    for login in {user.username, user.email, *emails} - {""}:
        cache.delete(_keys(request, {"username": login})[PER_NAME])
