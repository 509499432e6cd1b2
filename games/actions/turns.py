"""Whose turn it is, in the database: acting seats, their deadlines, and who plays bot turns."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from games.engine import to_act
from games.models import Game, Seat, Vacation

REMINDER_AT = 0.75  # of the time per move


def bot_levels(game: Game) -> dict[int, str]:
    """The seats a bot plays now, with its level: bots, and players on autopilot."""
    from games.bots import STAND_IN

    levels = {}
    for position, level, autopilot in Seat.objects.filter(game=game).values_list(
        "position", "user__bot_level", "autopilot"
    ):
        if level or autopilot:
            levels[position] = level or STAND_IN
    return levels


def sync_acting(game: Game, state, now, moved: int | None = None) -> None:
    """Start the clock of each seat that must act now and stop the others'.

    A person's turn gets a deadline (``move_seconds`` from now) and a reminder at 75% of it;
    in a correspondence game, a player on vacation gets their time paused instead. Bots and
    seats on autopilot have no deadline: they move at once. ``moved``: the seat a person just
    moved for, whose run of timeouts ends.
    """
    acting = set(to_act(state))
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    away = set()
    if game.time_control == Game.TimeControl.CORRESPONDENCE:
        away = set(
            Vacation.objects.filter(
                user__in=[s.user_id for s in seats if s.user_id], ended_at__isnull=True
            ).values_list("user_id", flat=True)
        )
    changed = []
    for seat in seats:
        before = (seat.acting_since, seat.deadline, seat.timeouts_in_a_row)
        if seat.position == moved:
            seat.timeouts_in_a_row = 0
        if seat.position not in acting:
            seat.acting_since = seat.deadline = seat.reminder_due = seat.paused_seconds = None
        elif seat.acting_since is None:
            seat.acting_since = now
            person = seat.user is not None and not seat.user.is_bot and not seat.autopilot
            if person and seat.user_id in away:
                seat.paused_seconds = game.move_seconds
            elif person:
                start_clock(seat, game.move_seconds, now)
        if (seat.acting_since, seat.deadline, seat.timeouts_in_a_row) != before:
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(
            changed,
            ["acting_since", "deadline", "reminder_due", "paused_seconds", "timeouts_in_a_row"],
        )


def start_clock(seat: Seat, seconds: float, now) -> None:
    seat.deadline = now + timedelta(seconds=seconds)
    seat.reminder_due = now + timedelta(seconds=seconds * REMINDER_AT)
    seat.paused_seconds = None


def after_commit(game: Game, state) -> None:
    """Queue the bots' turns once the move is committed. A broker that cannot be reached never
    undoes a move: the failure is logged and the sweep plays the stalled turn later."""
    bots = bot_levels(game)
    if not any(s in bots for s in to_act(state)):
        return
    from games.tasks import play_bots

    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: play_bots.delay(game_id, version), robust=True)
