"""Emails to players: rendered in the recipient's language and time zone, sent at most once per
occasion, each with a one-click unsubscribe link that needs no login.

Every email goes through the outbox (``PendingEmail``), which only ``games.actions.notify``
writes: it queues the emails a change calls for (and the sweep's), and sends each, one task per
email, with ``deliver``; this module says what an email is and whether it still makes sense
(``compose``, ``wants``), writes it (``render``) and hands it to the mail server (``transmit``):

1. The task claims the email (``claimed_until``, longer than a send can take), so that two
   workers never send it at once.
2. It decides, at the time of sending, whether the email still makes sense: no "your turn" for
   a turn that has ended or timed out, nothing about a turn to a player on vacation.
3. It records the email as being sent (``SentEmail``, unique per user, kind and occasion) and
   commits that before talking to the mail server: a task retried after a timeout finds it.
4. It sends, and records the email as sent once the server said it took it. Only a failure
   that proves the email was not delivered (no connection, or the server refused it) undoes
   the record and tries again later, backing off, then giving up.
5. A failure after the message was handed over (a server that answers after
   ``EMAIL_TIMEOUT``), or a worker that stopped while talking to the server, leaves an email
   of unknown fate: it may or may not have arrived. It is recorded as such
   (``SentEmail.Fate.UNKNOWN``), logged as an error, counted by the health check, and not sent
   again by itself: whenever the first one did arrive, the player would get it twice. Staff
   find them in the admin and send one again when they judge it worth a possible duplicate
   (``resend``).

Templates live in ``templates/emails/``: ``<kind>_subject.txt``, ``<kind>.txt`` and
``<kind>.html``. Each kind of email obeys one preference on the user (``PREFERENCES``), which
is also what its unsubscribe link turns off.
"""

from __future__ import annotations

import enum
import logging
import smtplib
import zoneinfo
from datetime import datetime, time, timedelta
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import Exists, F, OuterRef
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation

from accounts.models import RatingChange, User, shown
from games import results
from games.engine import game_standings, state_from_json
from games.models import (
    ChatMessage,
    Game,
    RematchOffer,
    Seat,
    Vacation,
)

log = logging.getLogger(__name__)

PREFERENCES = {
    "your_turn": "email_turn",
    "game_started": "email_turn",
    "digest": "email_turn",
    "reminder": "email_reminders",
    "bot_moved": "email_reminders",
    "vacation_ending": "email_reminders",
    "invitation": "email_invitations",
    "rematch_offered": "email_invitations",
    "game_over": "email_game_over",
    "game_aborted": "email_game_over",
    "player_resigned": "email_game_over",
    "table_expired": "email_game_over",
}
GAME_KINDS = {
    "your_turn",
    "reminder",
    "bot_moved",
    "game_started",
    "game_over",
    "game_aborted",
    "player_resigned",
    "table_expired",
    "rematch_offered",
}
# What may also go as a push message to the player's browsers, and the choice it obeys (the
# digest and a vacation's end are emails only).
PUSH_PREFERENCES = {
    "your_turn": "push_turn",
    "game_started": "push_turn",
    "reminder": "push_reminders",
    "bot_moved": "push_reminders",
    "invitation": "push_invitations",
    "rematch_offered": "push_invitations",
    "game_over": "push_game_over",
    "game_aborted": "push_game_over",
    "player_resigned": "push_game_over",
    "table_expired": "push_game_over",
}
TURN_KINDS = {"your_turn", "reminder"}  # about one turn: pointless once it is over
# How long a push service keeps a message for a browser that is offline, and how soon the
# browser should wake for it (RFC 8030): a turn's for the time a move takes at most.
PUSH_TTL = 3 * 24 * 3600
PUSH_URGENCY = {"your_turn": "high", "reminder": "high", "bot_moved": "normal"}
# A turn's email waits this long after its push message: a player who came to the site in the
# meantime read it, and gets no email (``User.email_with_push`` to get both).
PUSH_FIRST = timedelta(minutes=15)
UNSUBSCRIBE_SALT = "nyet.unsubscribe"
UNSUBSCRIBE_MAX_AGE = 90 * 24 * 3600  # seconds; an older link asks the player to log in

# A claim outlasts any send: each SMTP step gives up after EMAIL_TIMEOUT, and the email task's
# time limit (games.tasks.send_email) ends a stuck one well before the claim runs out.
CLAIM = timedelta(minutes=10)
# After a failure that left the email undelivered: the next attempt, then give up.
RETRY_AFTER = tuple(timedelta(minutes=m) for m in (1, 2, 4, 8, 16, 32, 60, 60, 60, 60))
DIGEST_AT = time(7, 0)  # in the player's own time zone


def wants(user: User, kind: str) -> bool:
    """Whether ``user`` takes this kind of email (people only, with an address)."""
    if user is None or user.is_site_bot or not user.is_active or not user.email:
        return False
    preference = PREFERENCES[kind]
    value = getattr(user, preference)
    if preference == "email_turn":
        wanted = User.TurnEmail.DAILY if kind == "digest" else User.TurnEmail.AT_ONCE
        return value == wanted or (kind == "game_started" and value != User.TurnEmail.NEVER)
    return bool(value)


def wants_push(user: User, kind: str) -> bool:
    """Whether ``user`` takes this kind as a push message (on whichever browsers they have)."""
    if user is None or user.is_site_bot or not user.is_active:
        return False
    preference = PUSH_PREFERENCES.get(kind)
    return preference is not None and bool(getattr(user, preference))


def site_url(path: str) -> str:
    return urljoin(settings.SITE_URL, path)


def turn_key(game_id: int, position: int, acting_since: datetime) -> str:
    """Names one decision of one seat: the occasion of its reminder and "your turn" email."""
    return f"{game_id}/{position}/{acting_since.isoformat()}"


def player_zone(user: User) -> zoneinfo.ZoneInfo:
    """The zone the player chose, or else the one their browser reported, or else UTC."""
    try:
        return zoneinfo.ZoneInfo(user.time_zone or user.browser_time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def next_digest_at(user: User, now: datetime) -> datetime:
    """The next 07:00 in the player's time zone, after ``now``."""
    zone = player_zone(user)
    local = now.astimezone(zone)
    at = datetime.combine(local.date(), DIGEST_AT, tzinfo=zone)
    if at <= local:
        at = datetime.combine(local.date() + timedelta(days=1), DIGEST_AT, tzinfo=zone)
    return at


def unsubscribe_token(user: User, preference: str) -> str:
    return signing.dumps({"user": user.pk, "preference": preference}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(user id, preference); ``signing.BadSignature`` (or its subclass ``SignatureExpired``)
    when the token is forged or too old."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    if (
        not isinstance(data, dict)
        or type(data.get("user")) is not int
        or data.get("preference") not in set(PREFERENCES.values())
    ):
        raise signing.BadSignature("not an unsubscribe token")
    return data["user"], data["preference"]


def render_plain(template_name: str, context: dict) -> str:
    """A plain-text template rendered with autoescaping off: a subject shows “<b>” as typed, not
    “&lt;b&gt;” (the HTML part escapes as usual)."""
    template = get_template(template_name).template
    return template.render(Context(context, autoescape=False))


def render(user: User, kind: str, context: dict) -> EmailMultiAlternatives:
    """The email, in the user's language and time zone."""
    preference = PREFERENCES[kind]
    unsubscribe = site_url(reverse("unsubscribe", args=[unsubscribe_token(user, preference)]))
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(player_zone(user)):
        context = {
            **context,
            "user": user,
            "unsubscribe_url": unsubscribe,
            "site_url": settings.SITE_URL,
        }
        subject = " ".join(render_plain(f"emails/{kind}_subject.txt", context).split())
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


def push_message(user: User, kind: str, context: dict) -> dict:
    """The push message of an occasion, in the user's language: the email's subject, which names
    the game and what is asked, as its title; the page it is about; one at a time per game."""
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(player_zone(user)):
        title = " ".join(render_plain(f"emails/{kind}_subject.txt", context).split())
        deadline = context.get("deadline") if kind in TURN_KINDS else None
        body = (
            translation.gettext("Move by %(time)s")
            % {"time": formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")}
            if deadline
            else translation.gettext("Nyet! online")
        )
    game = context["game"]
    page = context.get("invite_url") or context["game_url"]
    return {"title": title, "body": body, "url": urlsplit(page).path, "tag": f"game-{game.pk}"}


# --- what each email says, decided when it is sent ----------------------------------------------


def _on_vacation(user: User) -> bool:
    return Vacation.objects.filter(user=user, ended_at__isnull=True).exists()


def _game_email(kind: str, game_id: int, position: int, key: str, now):
    game = Game.objects.filter(pk=game_id).first()
    seat = game and game.seats.select_related("user").filter(position=position).first()
    if seat is None or seat.user is None or game.tutorial:
        return None  # a tutorial sends nothing: its player is on its page
    if kind in TURN_KINDS:
        still_due = (
            game.status == Game.Status.ACTIVE
            and seat.acting_since is not None
            and turn_key(game_id, position, seat.acting_since) == key
            and seat.deadline is not None
            and seat.deadline > now
        )
        if not still_due:
            return None  # the turn is over: the player moved, or a bot did
    if kind in TURN_KINDS | {"bot_moved"} and _on_vacation(seat.user):
        return None  # they said they are away
    context = {
        "game": game,
        "seat": seat,
        "game_url": site_url(reverse("game", args=[game.pk])),
        "deadline": seat.deadline,
    }
    if kind == "game_aborted":
        context["aborted_by"] = game.aborted_by.name if game.aborted_by else ""
    if kind == "player_resigned":
        resigned = game.seats.filter(position=int(key.split(":")[1])).first()
        context["resigned"] = resigned.name if resigned else ""
    if kind == "rematch_offered":
        offer = (
            RematchOffer.objects.filter(pk=int(key.split(":")[1]), outcome="open")
            .select_related("asked_by")
            .first()
        )
        if offer is None or seat.user_id in offer.accepted:
            return None  # answered, started or over: nothing left to ask
        context["asker"] = offer.asked_by.name if offer.asked_by else ""
        context["expires_at"] = offer.expires_at
    if kind == "game_over":
        totals = game_standings(state_from_json(game.state)).totals
        seats = list(game.seats.select_related("user"))
        context["result"] = result = results.of_seats(totals, seats)
        context["won"] = result.place_of(position).rank == 1 and not seat.autopilot
        change = RatingChange.objects.filter(game=game, position=position).first()
        if change is not None:
            context["rating"] = {
                "before": shown(change.mu_before, change.sigma_before),
                "after": shown(change.mu_after, change.sigma_after),
            }
    return seat.user, kind, key, context


def _invitation(game_id: int, invitee_id: int, inviter: str, now):
    game = Game.objects.filter(pk=game_id).first()
    invitee = User.objects.filter(pk=invitee_id).first()
    if game is None or invitee is None:
        return None
    context = {
        "game": game,
        "inviter": inviter,
        "invite_url": site_url(reverse("game_invite", args=[game.invite_code])),
    }
    return invitee, "invitation", str(game.pk), context


def _digest(user_id: int, key: str, now):
    """The games waiting for the player's move, as they stand when the digest goes, each saying
    whether others wrote in its chat since the player was last on the site (never the text)."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or _on_vacation(user):
        return None
    unread = ChatMessage.objects.filter(game=OuterRef("game"), hidden=False).exclude(user=user)
    if user.last_seen is not None:
        unread = unread.filter(created_at__gt=user.last_seen)
    waiting = (
        Seat.objects.filter(
            user=user, game__status=Game.Status.ACTIVE, acting_since__isnull=False, autopilot=False
        )
        .exclude(game__tutorial=True)
        .select_related("game")
        .annotate(unread_chat=Exists(unread))
        .order_by(F("deadline").asc(nulls_last=True))
    )
    games = [
        {
            "game": s.game,
            "deadline": s.deadline,
            "url": site_url(f"/games/{s.game_id}/"),
            "unread_chat": s.unread_chat and not user.chat_hidden,
        }
        for s in waiting
    ]
    if not games:
        return None
    return user, "digest", key, {"games": games}


def _vacation_ending(vacation_id: int, now):
    vacation = Vacation.objects.select_related("user").filter(pk=vacation_id).first()
    if vacation is None or vacation.ended_at is not None:
        return None
    return vacation.user, "vacation_ending", str(vacation.pk), {"ends_at": vacation.ends_at}


def compose(kind: str, args: list, now) -> tuple[User, str, str, dict] | None:
    """(recipient, kind, occasion key, template context) of an outbox email, or None when it
    no longer makes sense to send it."""
    if kind in GAME_KINDS:
        return _game_email(kind, *args, now)
    if kind == "invitation":
        return _invitation(*args, now)
    if kind == "digest":
        return _digest(*args, now)
    if kind == "vacation_ending":
        return _vacation_ending(*args, now)
    raise ValueError(f"no email kind {kind!r}")


# --- sending ------------------------------------------------------------------------------------


class Delivery(enum.Enum):
    """What became of an email handed to the mail server (``transmit``)."""

    SENT = "sent"
    NOT_SENT = "not sent"  # certainly not delivered: try again later
    UNKNOWN = "fate unknown"  # handed over, no answer: never sent again by itself


def transmit(message: EmailMultiAlternatives) -> Delivery:
    """Hand ``message`` to the mail server, telling a failure before the hand-over (retry)
    from one after it (the server may have taken it)."""
    connection = get_connection()
    try:
        connection.open()
    except Exception:
        log.warning("no connection to the mail server", exc_info=True)
        return Delivery.NOT_SENT
    try:
        connection.send_messages([message])
    except (
        smtplib.SMTPResponseException,
        smtplib.SMTPRecipientsRefused,
        smtplib.SMTPSenderRefused,
    ):
        log.warning("the mail server refused an email to %s", message.to, exc_info=True)
        return Delivery.NOT_SENT
    except Exception:
        log.error(
            "no answer from the mail server after an email to %s: its fate is unknown, it is "
            "not sent again (the admin's sent emails list it, to send again by hand)",
            message.to,
            exc_info=True,
        )
        return Delivery.UNKNOWN
    finally:
        try:
            connection.close()
        except Exception:
            pass
    return Delivery.SENT
