"""Vacations: a player's time away, ``VACATION_DAYS`` a calendar year at most. While it lasts,
the deadlines of their correspondence games are paused (each seat keeps the time it had left)
and the sweep sends them no turn emails (``deadlines``); it ends when the player comes back, or
by itself at its end (the sweep, which also emails a warning the day before)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock
from games.models import Game, Seat, Vacation

from .errors import ActionError
from .notify import queue_emails
from .turns import start_clock

VACATION_DAYS = 14  # a year
VACATION_WARNING = timedelta(days=1)


def current_vacation(user) -> Vacation | None:
    """The vacation ``user`` is on, not yet ended (by itself or by coming back), or None."""
    return Vacation.objects.filter(user=user, ended_at__isnull=True).first()


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
    if not user.is_authenticated or user.is_site_bot:
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


def end_vacations(now) -> int:
    ended = 0
    for vacation in Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now).select_related(
        "user"
    ):
        end_vacation(vacation.user, vacation.ends_at)
        ended += 1
    return ended


def warn_vacations(now) -> int:
    with transaction.atomic():
        ending = list(
            Vacation.objects.select_for_update(skip_locked=True)
            .filter(
                ended_at__isnull=True,
                warned_at__isnull=True,
                ends_at__lte=now + VACATION_WARNING,
                ends_at__gt=now,
            )
            .values_list("pk", flat=True)
        )
        Vacation.objects.filter(pk__in=ending).update(warned_at=now)
        return queue_emails((("vacation_ending", [pk]) for pk in ending), now)
