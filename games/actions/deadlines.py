"""Time: what the periodic sweep finds due, and vacations that pause correspondence deadlines."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock, notifications
from games.models import Game, PendingEmail, Seat, Vacation

from .errors import ActionError
from .turns import start_clock

log = logging.getLogger(__name__)

STALLED_BOT = timedelta(seconds=30)  # a bot turn not played by then was lost on the way
STALLED_EMAIL = timedelta(minutes=2)  # a queued email not sent by then had its task lost
STALE_EMAIL = timedelta(days=1)  # too late to be of use: given up
QUIET = timedelta(minutes=5)  # "your turn" waits until the player has been away this long
VACATION_DAYS = 14  # a year
VACATION_WARNING = timedelta(days=1)


def due(now=None) -> dict:
    """Everything the sweep does at ``now``; returns how many of each it found."""
    now = now or clock.now()
    done = {
        "timeouts": _queue_timeouts(now),
        "stalled": _queue_stalled_bots(now),
        "emails_caught_up": _send_pending(now),
        "reminders": _send_reminders(now),
        "your_turn": _send_your_turn(now),
        "vacations_ended": _end_vacations(now),
        "vacations_warned": _warn_vacations(now),
    }
    return done


def _queue(task, game_ids_and_versions) -> int:
    count = 0
    for game_id, version in game_ids_and_versions:
        try:
            task.delay(game_id, version)
            count += 1
        except Exception:  # the broker is down: the next sweep tries again
            log.exception("could not queue %s for game %s", task.name, game_id)
    return count


def _queue_timeouts(now) -> int:
    from games.tasks import play_timeouts

    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__deadline__lte=now)
        .values_list("pk", "version")
        .distinct()
    )
    return _queue(play_timeouts, games)


def _queue_stalled_bots(now) -> int:
    from games.tasks import play_bots

    bot_turn = Q(seats__user__bot_level__gt="") | Q(seats__autopilot=True)
    games = (
        Game.objects.filter(
            bot_turn, status=Game.Status.ACTIVE, seats__acting_since__lte=now - STALLED_BOT
        )
        .values_list("pk", "version")
        .distinct()
    )
    return _queue(play_bots, games)


def _send_pending(now) -> int:
    """The emails that actions queued but no task sent (the broker was down)."""
    for pending in PendingEmail.objects.filter(created_at__lte=now - STALE_EMAIL):
        log.error("gave up on the email %s", pending)
        pending.delete()
    sent = 0
    for pk in PendingEmail.objects.filter(created_at__lte=now - STALLED_EMAIL).values_list(
        "pk", flat=True
    ):
        sent += bool(_safely(notifications.send_pending, pk, now))
    return sent


def _away():
    """Players on vacation get no turn emails, in live games either: they said they are away."""
    return Exists(Vacation.objects.filter(user=OuterRef("user"), ended_at__isnull=True))


def _safely(send, *args) -> bool | None:
    """Whether ``send(*args)`` sent its email; None when it failed (the mail server is down):
    one bad email must not stop the others, and what was not sent is tried again next time."""
    try:
        return send(*args)
    except Exception:
        log.exception("could not send %s%r", send.__name__, args[:-1])
        return None


def _send_reminders(now) -> int:
    sent = 0
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE, reminder_due__lte=now, deadline__gt=now
        )
        .exclude(_away())
        # at a live table the player who is on the site sees the clock: no email for that
        .exclude(game__time_control=Game.TimeControl.LIVE, user__last_seen__gt=now - QUIET)
        .values_list("pk", "game_id", "position", "acting_since")
    )
    for pk, game_id, position, acting_since in seats:
        key = f"{game_id}/{position}/{acting_since.isoformat()}"
        result = _safely(notifications.game_email, "reminder", game_id, position, key, now)
        if result is not None:
            sent += result
            Seat.objects.filter(pk=pk).update(reminder_due=None)
    return sent


def _send_your_turn(now) -> int:
    """A person whose turn it is, who has been away a few minutes and has not been emailed
    about this game since their last visit, gets one email."""
    sent = 0
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            acting_since__lte=now - QUIET,
            autopilot=False,
            user__bot_level="",
            user__email_turn=User.TurnEmail.AT_ONCE,
        )
        .filter(Q(user__last_seen__isnull=True) | Q(user__last_seen__lte=now - QUIET))
        .filter(Q(turn_emailed_at__isnull=True) | Q(turn_emailed_at__lt=F("user__last_seen")))
        .exclude(_away())
        .values_list("pk", "game_id", "position", "acting_since")
    )
    for pk, game_id, position, acting_since in seats:
        key = f"{game_id}/{position}/{acting_since.isoformat()}"
        result = _safely(notifications.game_email, "your_turn", game_id, position, key, now)
        if result is not None:
            sent += result
            Seat.objects.filter(pk=pk).update(turn_emailed_at=now)
    return sent


def send_digests(now=None) -> int:
    """Once a day: one email per player who chose the digest, listing the games waiting for
    them."""
    now = now or clock.now()
    sent = 0
    waiting = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            acting_since__isnull=False,
            autopilot=False,
            user__email_turn=User.TurnEmail.DAILY,
        )
        .exclude(_away())
        .select_related("user", "game")
        .order_by("user_id", "deadline")
    )
    by_user: dict[int, list[Seat]] = {}
    for seat in waiting:
        by_user.setdefault(seat.user_id, []).append(seat)
    for seats in by_user.values():
        user = seats[0].user
        games = [
            {
                "game": s.game,
                "deadline": s.deadline,
                "url": notifications.site_url(f"/games/{s.game_id}/"),
            }
            for s in seats
        ]
        key = now.date().isoformat()
        sent += bool(_safely(notifications.send, user, "digest", key, {"games": games}, now))
    return sent


# --- vacations ----------------------------------------------------------------------------------


def vacation_left(user, now) -> timedelta:
    """What is left of this calendar year's vacation days."""
    year_start = datetime(now.year, 1, 1, tzinfo=UTC)
    used = timedelta()
    for vacation in Vacation.objects.filter(user=user, ends_at__gt=year_start):
        end = vacation.ended_at or min(vacation.ends_at, now)
        used += max(end - max(vacation.started_at, year_start), timedelta())
    return max(timedelta(days=VACATION_DAYS) - used, timedelta())


def start_vacation(user, days: int, now=None) -> Vacation:
    """Go away for ``days`` days: deadlines in correspondence games stop until the vacation
    ends (by itself, or when the player comes back)."""
    now = now or clock.now()
    if not user.is_authenticated or user.is_bot:
        raise ActionError(_("Log in to take a vacation."), code="login")
    if type(days) is not int or days < 1:
        raise ActionError(_("Choose a whole number of days, at least one."), code="days")
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)  # one request at a time per player
        if Vacation.objects.filter(user=user, ended_at__isnull=True).exists():
            raise ActionError(_("You are already on vacation."), code="on_vacation")
        left = vacation_left(user, now)
        if timedelta(days=days) > left:
            raise ActionError(
                _("You have %(days)s vacation days left this year.")
                % {"days": round(left / timedelta(days=1), 1)},
                code="too_long",
            )
        vacation = Vacation.objects.create(
            user=user, started_at=now, ends_at=now + timedelta(days=days)
        )
        for seat in _correspondence_seats(user).filter(deadline__isnull=False):
            seat.paused_seconds = max(int((seat.deadline - now).total_seconds()), 0)
            seat.deadline = seat.reminder_due = None
            seat.save(update_fields=["paused_seconds", "deadline", "reminder_due"])
    return vacation


def end_vacation(user, now=None) -> None:
    """Back from vacation: paused deadlines run again with the time they had left."""
    now = now or clock.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True)
        vacation = vacation.first()
        if vacation is None:
            raise ActionError(_("You are not on vacation."), code="not_on_vacation")
        vacation.ended_at = min(now, vacation.ends_at)
        vacation.save(update_fields=["ended_at"])
        for seat in _correspondence_seats(user).filter(paused_seconds__isnull=False):
            start_clock(seat, seat.paused_seconds, now)
            seat.save(update_fields=["deadline", "reminder_due", "paused_seconds"])


def _correspondence_seats(user):
    return Seat.objects.filter(
        user=user,
        acting_since__isnull=False,
        game__status=Game.Status.ACTIVE,
        game__time_control=Game.TimeControl.CORRESPONDENCE,
    )


def _end_vacations(now) -> int:
    ended = 0
    for vacation in Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now).select_related(
        "user"
    ):
        end_vacation(vacation.user, vacation.ends_at)
        ended += 1
    return ended


def _warn_vacations(now) -> int:
    sent = 0
    ending = Vacation.objects.filter(
        ended_at__isnull=True, ends_at__lte=now + VACATION_WARNING, ends_at__gt=now
    ).select_related("user")
    for vacation in ending:
        context = {"ends_at": vacation.ends_at}
        key = str(vacation.pk)
        sent += bool(
            _safely(notifications.send, vacation.user, "vacation_ending", key, context, now)
        )
    return sent
