"""Making, finding and revoking personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock
from games.actions import ActionError
from games.live import announce_access_on_commit

from .models import ApiToken, Scope

PREFIX = "nyet_"
MAX_TOKENS = 20  # live tokens per account


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def create_token(
    user: User, name: str, scopes: list[str], now: datetime | None = None
) -> tuple[ApiToken, str]:
    """A new token and its text, which is shown this once and never stored."""
    name = " ".join(name.split())[:60]
    if not name:
        raise ActionError(_("Give the token a name."), code="name")
    chosen = [scope for scope in Scope.values if scope in scopes]
    if not chosen:
        raise ActionError(_("Choose at least one scope."), code="scopes")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS:
        raise ActionError(
            _("You have %(count)d tokens: revoke one first.") % {"count": MAX_TOKENS},
            code="too_many",
        )
    raw = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        digest=digest(raw),
        prefix=raw[: len(PREFIX) + 4],
        scopes=chosen,
        created_at=now or clock.now(),
    )
    return token, raw


def live_tokens(user: User) -> QuerySet[ApiToken]:
    """``user``'s tokens not revoked."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True)


def revoke_token(user: User, token_id: int, now: datetime | None = None) -> None:
    """The token stops working at once: new calls get 401, and its open streams (in every web
    process) are told on commit to check it again, and end (``api/stream.py``)."""
    updated = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=now or clock.now()
    )
    if not updated:
        raise ActionError(_("There is no such token."), code="no_token")
    announce_access_on_commit(token_id)


def granted(scopes: list[str]) -> set[str]:
    """What a token of ``scopes`` may do: a ``bot`` token may also read and play, as lichess's
    bot:play does."""
    granting = set(scopes)
    if Scope.BOT in granting:
        granting |= {Scope.READ, Scope.PLAY}
    return granting


def lost_read(token_ids: list[int]) -> set[int]:
    """Those of ``token_ids`` that no longer let a stream read: revoked, their account closed,
    or without the read scope. One query."""
    live = ApiToken.objects.filter(pk__in=token_ids, revoked_at__isnull=True, user__is_active=True)
    reading = {
        pk for pk, scopes in live.values_list("pk", "scopes") if Scope.READ in granted(scopes)
    }
    return set(token_ids) - reading


def read_refused(token_id: int) -> str | None:
    """Why the token no longer lets a stream read (``"revoked"``: revoked or its account
    closed; ``"scope"``: no read scope), or None. One query, by the token's key."""
    scopes = (
        ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True, user__is_active=True)
        .values_list("scopes", flat=True)
        .first()
    )
    if scopes is None:
        return "revoked"
    return None if Scope.READ in granted(scopes) else "scope"


def find(raw: str) -> ApiToken | None:
    """The live token of this text, its last use noted (at most once a minute)."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is not None:
        now = clock.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
