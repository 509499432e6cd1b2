"""The per-account defence against password guessing from many addresses.

allauth's limits count failed logins per address and per (login name, address)
(``accounts.adapter``): neither stops 20 addresses guessing 5 passwords each at one account, and
neither may, since a limit on the name alone would let anyone lock its owner out. This module
counts failed logins per account from any address. Once ``FAILURES`` of them fall within
``WINDOW``, the account is *under attack* until ``HOLD`` has passed with no further attempt on
it from an unknown browser:

- a browser that has never logged in to the account cannot log in to it with a password. It is
  refused whatever the password, in the same words for a right one and a wrong one, so that the
  guessing learns nothing more; it logs in with a one-time code sent to the account's email
  address instead (allauth's login by code, ``account_request_login_code``);
- a browser that has logged in to the account before (the signed cookie ``KNOWN_COOKIE`` names
  the accounts it has logged in to, set at every login) logs in with the password as ever, and
  its failures are the owner's typos, not counted: the owner is never locked out;
- the owner is told once per attack, by email.

Counts live in the project's cache (Redis in production, ``common.cache``): a failure is
counted in a bucket per minute (an atomic ``incr``), and the window is the sum of the last
``WINDOW // BUCKET`` buckets.
"""

from __future__ import annotations

import hashlib
import logging
import time

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from .models import User

log = logging.getLogger(__name__)

FAILURES = 20  # failed logins on one account, from any addresses...
WINDOW = 15 * 60  # ...within this many seconds, start an attack
HOLD = 60 * 60  # an attack ends this long after its last attempt from an unknown browser
BUCKET = 60  # seconds per counting bucket

KNOWN_COOKIE = "nyet_known"
KNOWN_SALT = "accounts.login_guard.known"
KNOWN_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
KNOWN_LIMIT = 8  # accounts remembered per browser (the most recent)

NOTICE = "account/email/login_attack"  # the email to the owner (templates/account/email/)


def login_of(credentials: dict) -> str:
    return (credentials.get("email") or credentials.get("username") or "").strip()


def account_of(credentials: dict) -> User | None:
    """The account that allauth's backend would check ``credentials`` against: by email address
    (any of the account's, as allauth logs in with any), else by username, case-insensitively."""
    email, username = credentials.get("email"), credentials.get("username")
    if email:
        owner = (
            EmailAddress.objects.filter(email__iexact=email).values_list("user_id", flat=True)
        ).first()
        user = (
            User.objects.filter(pk=owner).first()
            if owner
            else User.objects.filter(email__iexact=email).first()
        )
        if user:
            return user
    if username:
        return User.objects.filter(username__iexact=username).first()
    return None


def _subject(credentials: dict) -> tuple[str, User | None]:
    """The cache key of what is being guessed at, and its account. A name with no account is
    counted too (by a digest of the name), so that a refusal does not tell which names exist."""
    user = account_of(credentials)
    if user is not None:
        return f"login-guard:user:{user.pk}", user
    digest = hashlib.sha256(login_of(credentials).lower().encode()).hexdigest()[:32]
    return f"login-guard:name:{digest}", None


# --- browsers that have logged in ---------------------------------------------------------------


def known_ids(request) -> list[int]:
    """The accounts this browser has logged in to, most recent first (none for a cookie that
    is missing, forged or too old)."""
    value = request.get_signed_cookie(
        KNOWN_COOKIE, default="", salt=KNOWN_SALT, max_age=KNOWN_MAX_AGE
    )
    return [int(part) for part in value.split(",") if part.isdigit()]


def is_known(request, user: User | None) -> bool:
    return user is not None and user.pk in known_ids(request)


def remember(request, response, user: User) -> None:
    """Mark this browser as one that ``user`` logged in with (on the response of any login:
    password, code or sign-up)."""
    ids = [user.pk, *(pk for pk in known_ids(request) if pk != user.pk)][:KNOWN_LIMIT]
    response.set_signed_cookie(
        KNOWN_COOKIE,
        ",".join(map(str, ids)),
        salt=KNOWN_SALT,
        max_age=KNOWN_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# --- counting failures --------------------------------------------------------------------------


def _count(key: str) -> int:
    """Count one failure for ``key``; how many fall within the window."""
    bucket = int(time.time() // BUCKET)
    current = f"{key}:{bucket}"
    cache.add(current, 0, timeout=WINDOW + BUCKET)
    try:
        cache.incr(current)
    except ValueError:  # the bucket expired between the two calls
        cache.set(current, 1, timeout=WINDOW + BUCKET)
    buckets = [f"{key}:{bucket - k}" for k in range(WINDOW // BUCKET)]
    return sum(cache.get_many(buckets).values())


def _hold(key: str, user: User | None, request) -> None:
    """Keep the attack on ``key`` going for ``HOLD`` from now, and tell the owner if they have
    not been told of it yet."""
    if not cache.add(f"{key}:attack", True, timeout=HOLD):
        cache.touch(f"{key}:attack", timeout=HOLD)
    if user is None:
        return
    if cache.add(f"{key}:told", True, timeout=HOLD):
        if not tell_owner(request, user):
            cache.delete(f"{key}:told")  # the next attempt tries again
    else:
        cache.touch(f"{key}:told", timeout=HOLD)


def count_failure(request, credentials: dict) -> None:
    """A password check failed for ``credentials``: count it against the account (not from a
    browser that has logged in to it: those are its owner's typos)."""
    key, user = _subject(credentials)
    if is_known(request, user):
        return
    if _count(key) >= FAILURES or cache.get(f"{key}:attack"):
        _hold(key, user, request)


def needs_code(request, credentials: dict) -> bool:
    """Whether a password may not log in to the account of ``credentials`` from this browser:
    the account is under attack and this browser has never logged in to it. Such an attempt
    keeps the attack going."""
    key, user = _subject(credentials)
    if not cache.get(f"{key}:attack") or is_known(request, user):
        return False
    _hold(key, user, request)
    return True


def tell_owner(request, user: User) -> bool:
    """Email ``user`` that their account is under attack, in their language; whether it went."""
    if user.is_site_bot:
        return True  # bots never log in: nothing to tell
    email = EmailAddress.objects.get_primary_email(user) or user.email
    if not email:
        return True
    context = {
        "user": user,
        "failures": FAILURES,
        "minutes": WINDOW // 60,
        "hold_minutes": HOLD // 60,
        "code_url": settings.SITE_URL + reverse("account_request_login_code"),
        "reset_url": settings.SITE_URL + reverse("account_reset_password"),
    }
    try:
        with translation.override(user.language or settings.LANGUAGE_CODE):
            get_adapter(request).send_mail(NOTICE, email, context)
    except Exception:
        log.exception("could not tell %s that their account is under attack", user)
        return False
    log.warning("failed logins on %s from many addresses: a code is needed from new browsers", user)
    return True
