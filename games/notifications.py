"""Emails to players: rendered in the recipient's language and time zone, sent at most once per
occasion, each with a one-click unsubscribe link that needs no login.

Templates live in ``templates/emails/``: ``<kind>_subject.txt``, ``<kind>.txt`` and
``<kind>.html``. Each kind of email obeys one preference on the user (``PREFERENCES``), which
is also what its unsubscribe link turns off.
"""

from __future__ import annotations

import logging
from urllib.parse import urljoin

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games import clock
from games.models import SentEmail

log = logging.getLogger(__name__)

PREFERENCES = {
    "your_turn": "email_turn",
    "game_started": "email_turn",
    "digest": "email_turn",
    "reminder": "email_reminders",
    "bot_moved": "email_reminders",
    "vacation_ending": "email_reminders",
    "invitation": "email_invitations",
    "game_over": "email_game_over",
}
UNSUBSCRIBE_SALT = "nyet.unsubscribe"
UNSUBSCRIBE_MAX_AGE = 90 * 24 * 3600  # seconds; an older link asks the player to log in


def wants(user: User, kind: str) -> bool:
    """Whether ``user`` takes this kind of email (people only, with an address)."""
    if user is None or user.is_bot or not user.is_active or not user.email:
        return False
    preference = PREFERENCES[kind]
    value = getattr(user, preference)
    if preference == "email_turn":
        wanted = User.TurnEmail.DAILY if kind == "digest" else User.TurnEmail.AT_ONCE
        return value == wanted or (kind == "game_started" and value != User.TurnEmail.NEVER)
    return bool(value)


def site_url(path: str) -> str:
    return urljoin(settings.SITE_URL, path)


def unsubscribe_token(user: User, preference: str) -> str:
    return signing.dumps({"user": user.pk, "preference": preference}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(user id, preference); ``signing.BadSignature`` (or its subclass ``SignatureExpired``)
    when the token is forged or too old."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    if not isinstance(data, dict) or data.get("preference") not in set(PREFERENCES.values()):
        raise signing.BadSignature("not an unsubscribe token")
    return int(data["user"]), data["preference"]


def render(user: User, kind: str, context: dict) -> EmailMultiAlternatives:
    """The email, in the user's language and time zone."""
    preference = PREFERENCES[kind]
    unsubscribe = site_url(reverse("unsubscribe", args=[unsubscribe_token(user, preference)]))
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(user.time_zone or "UTC"):
        context = {
            **context,
            "user": user,
            "unsubscribe_url": unsubscribe,
            "site_url": settings.SITE_URL,
        }
        subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", context).split())
        text = render_to_string(f"emails/{kind}.txt", context)
        html = render_to_string(f"emails/{kind}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def send(user: User, kind: str, key: str, context: dict, now=None) -> bool:
    """Send ``kind`` to ``user`` about ``key`` unless they opted out or it went out already.

    The record of the email and the sending share a transaction: a failed send is tried again
    by the next task or sweep, a sent one never is."""
    if not wants(user, kind):
        return False
    try:
        with transaction.atomic():
            SentEmail.objects.create(user=user, kind=kind, key=key, sent_at=now or clock.now())
            render(user, kind, context).send()
    except IntegrityError:
        return False  # sent already, for this occasion
    return True


def game_email(kind: str, game_id: int, position: int, key: str, now=None) -> bool:
    """Email the person in seat ``position`` of a game about it (``kind``: your_turn, reminder,
    bot_moved, game_started, game_over)."""
    from games.engine import game_standings, state_from_json
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    seat = game and game.seats.select_related("user").filter(position=position).first()
    if seat is None or seat.user is None:
        return False
    context = {
        "game": game,
        "seat": seat,
        "game_url": site_url(reverse("game", args=[game.pk])),
        "deadline": seat.deadline,
    }
    if kind == "game_over":
        standings = game_standings(state_from_json(game.state))
        names = {
            s.position: s.user.name if s.user else "" for s in game.seats.select_related("user")
        }
        context["standings"] = sorted(
            ((standings.totals[p], names[p], p in standings.winners) for p in names),
            reverse=True,
        )
        context["won"] = position in standings.winners
    return send(seat.user, kind, key, context, now)


def invitation_email(game_id: int, invitee_id: int, inviter: str, now=None) -> bool:
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    invitee = User.objects.filter(pk=invitee_id).first()
    if game is None or invitee is None:
        return False
    context = {
        "game": game,
        "inviter": inviter,
        "invite_url": site_url(reverse("game_invite", args=[game.invite_code])),
    }
    return send(invitee, "invitation", str(game.pk), context, now)


def send_pending(pending_id: int, now=None) -> bool:
    """Send an email an action queued (``games.actions.notify``) and forget it; safe to call
    twice (the second call finds nothing) or late."""
    from games.models import PendingEmail

    pending = PendingEmail.objects.filter(pk=pending_id).first()
    if pending is None:
        return False
    if pending.kind == "invitation":
        sent = invitation_email(*pending.args, now=now)
    else:
        sent = game_email(pending.kind, *pending.args, now=now)
    pending.delete()
    return sent
