"""Whose turn it is, in the database: acting seats, their deadlines, and who plays bot turns."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from games.bots import STAND_IN
from games.engine import to_act
from games.models import THINKING_BOT_LEVELS, Game, MoveRecord, Seat, Vacation
from games.queue import publish_on_commit

REMINDER_AT = 0.75  # of the time per move


def game_seats(game: Game) -> list[Seat]:
    """The game's seats with their players, every column: one query, which a change reads once
    (under the game's lock) and hands to ``bot_levels``, ``autopilot_seats``, ``attended``,
    ``sync_acting`` and ``after_commit``. (The pages read fewer columns:
    ``selectors.table_seats``.)"""
    return list(Seat.objects.filter(game=game).select_related("user"))


def bot_levels(seats: list[Seat]) -> dict[int, str]:
    """The seats a bot plays now, with its level: bots, and players on autopilot (whose level
    is the stand-in's, and who are in ``autopilot_seats``)."""
    levels = {}
    for seat in seats:
        level = seat.user.bot_level if seat.user else ""
        if level or seat.autopilot:
            levels[seat.position] = level or STAND_IN
    return levels


def bots_task(levels, attended: bool = True) -> tuple[str, str]:
    """The task, and its queue, that play the bot turns of a table whose bots have these
    ``levels`` (``bot_levels(seats).values()``).

    - ``think``: a table with an Expert (correspondence only), each of whose moves takes
      seconds (``EXPERT_BOT_SECONDS``): on their own queue they never delay a live table's bot
      reply nor a timeout. All the bot turns of such a table go there, Expert's and the others'
      alike; nobody waits at such a table. Whichever a table has is fixed when it starts: no
      level is seated later but the stand-in's.
    - ``play``: a table where a person plays (``attended``), who waits for the bots' replies.
    - ``catchup``: a table with no person left at it (all bots, resigned or on autopilot):
      finished at full speed, but on the queue of the sweep's work, so that its slices never
      stand in front of a person's bot reply."""
    if THINKING_BOT_LEVELS.intersection(levels):
        return "games.tasks.think", "think"
    return "games.tasks.play_bots", "play" if attended else "catchup"


def attended(seats: list[Seat]) -> bool:
    """Whether a person still plays a seat of the game themselves."""
    return any(s.user is not None and not s.user.bot_level and not s.autopilot for s in seats)


def autopilot_seats(seats: list[Seat]) -> set[int]:
    return {s.position for s in seats if s.autopilot and not (s.user and s.user.bot_level)}


def sync_acting(
    game: Game,
    state,
    now,
    seats: list[Seat],
    moved: int | None = None,
    by_person: bool = False,
) -> None:
    """Start the clock of each seat that must make a new decision and stop the others'.

    A person's turn gets a deadline (``move_seconds`` from now) and a reminder at 75% of it;
    in a correspondence game, a player on vacation gets their time paused instead. Bots and
    seats on autopilot have no deadline: they move at once. At a live table the clock also
    gives back the time the page takes to show the bots' moves before it (``pacing_grace``).

    ``moved``: the seat whose move was just made, by its player (``by_person``: their run of
    timeouts ends) or by a bot for them. Its decision is over: if it must act again (the team
    chooser going on to discard, a trick's winner leading the next), that is a new decision
    with a full clock. The other seats that were acting keep their clocks (several seats
    choose their discards at once, each on their own time).
    """
    acting = set(to_act(state))
    away = set()
    if game.time_control == Game.TimeControl.CORRESPONDENCE:
        away = set(
            Vacation.objects.filter(
                user__in=[s.user_id for s in seats if s.user_id], ended_at__isnull=True
            ).values_list("user_id", flat=True)
        )
    changed = []
    grace = None
    for seat in seats:
        before = (seat.acting_since, seat.deadline, seat.timeouts_in_a_row)
        if seat.position == moved:
            seat.acting_since = None
            if by_person:
                seat.timeouts_in_a_row = 0
        if seat.position not in acting:
            seat.acting_since = seat.deadline = seat.reminder_due = seat.paused_seconds = None
        elif seat.acting_since is None:
            seat.acting_since = now
            person = seat.user is not None and not seat.user.is_site_bot and not seat.autopilot
            # A tutorial has no clock: a newcomer reads its hints at their own pace.
            person = person and not game.tutorial
            if person and seat.user_id in away:
                seat.paused_seconds = game.move_seconds
            elif person:
                if grace is None:
                    grace = pacing_grace(game)
                start_clock(seat, game.move_seconds + grace, now)
        if (seat.acting_since, seat.deadline, seat.timeouts_in_a_row) != before:
            changed.append(seat)
    # One UPDATE a changed seat (one or two a move): bulk_update's CASE expressions cost Django
    # about 4 ms a move to build, two plain UPDATEs under 1.5 ms (SQLite and PostgreSQL alike).
    for seat in changed:
        Seat.objects.filter(pk=seat.pk).update(
            acting_since=seat.acting_since,
            deadline=seat.deadline,
            reminder_due=seat.reminder_due,
            paused_seconds=seat.paused_seconds,
            timeouts_in_a_row=seat.timeouts_in_a_row,
        )


# The page shows at most this many moves one by one before jumping to the newest (live.js).
MOST_STEPS = 20


def pacing_grace(game: Game) -> float:
    """Seconds a live turn's clock adds for the bots' moves just made (the run of them since a
    person last moved): the page shows them one by one, ``BOT_PAUSE_SECONDS`` apart, before
    the player sees that it is their turn. The server makes them in milliseconds, and the clock
    must not run while the player watches them come."""
    if game.time_control != Game.TimeControl.LIVE or not settings.BOT_PAUSE_SECONDS:
        return 0.0
    latest = MoveRecord.objects.filter(game=game).order_by("-number")
    run = 0
    for by_bot in latest.values_list("by_bot", flat=True)[:MOST_STEPS]:
        if not by_bot:
            break
        run += 1
    return run * settings.BOT_PAUSE_SECONDS


def start_clock(seat: Seat, seconds: float, now) -> None:
    seat.deadline = now + timedelta(seconds=seconds)
    seat.reminder_due = now + timedelta(seconds=seconds * REMINDER_AT)
    seat.paused_seconds = None


def after_commit(game: Game, state, seats: list[Seat]) -> bool:
    """Queue the bots' turns once the move is committed. A broker that cannot be reached never
    undoes a move: the failure is logged and the live tick (or the sweep) plays the stalled turn
    later (``deadlines.tick``)."""
    bots = bot_levels(seats)
    if any(s in bots for s in to_act(state)):
        task, queue = bots_task(bots.values(), attended(seats))
        publish_on_commit(task, game.pk, game.version, queue=queue)
        return True
    return False
