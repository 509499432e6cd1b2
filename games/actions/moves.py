"""Moves: a person's through ``submit_move``, a bot's through ``play_bot_move``.

Both lock the game row, check the version the move was made for, let the engine validate it,
write the records and queue what follows (bot turns) only once the transaction has committed.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from games import clock, engine
from games.bots import STAND_IN, hard, make_bot
from games.engine import IllegalMove, state_from_json, state_to_json, to_act
from games.live import announce_on_commit
from games.models import THINKING_BOT_LEVELS, Game, MoveRecord, Seat, before_first_card
from games.ratings import rate_finished_game
from games.selectors import position_of, seat_of

from .errors import ActionError, StaleVersion
from .notify import notify_on_commit, notify_people_on_commit
from .records import write_records
from .turns import after_commit, autopilot_seats, bot_levels, game_seats, sync_acting

TIMEOUTS_BEFORE_AUTOPILOT = 3


def submit_move(
    user, game_id: int, version: int, move: dict, now=None, round_number: int | None = None
) -> Game:
    """Make ``move`` (the engine's JSON form without the seat, e.g. ``{"play": "Y7"}``) for the
    seat ``user`` holds, if the game is still at ``version``.

    A discard or a pass is chosen by every seat at once: one made at a version of the discard
    phase it is still this seat's to choose in is taken even when others chose meanwhile (the
    version moved on). ``round_number`` (the pages send it; the API no longer needs it): the
    round it was chosen in, which then decides instead of the version."""
    if not user.is_authenticated:
        raise ActionError(_("Log in to play."), code="login")
    if isinstance(move, dict) and "seat" in move:  # a move is made for the user's own seat
        raise ActionError(_("That move is not understood."), code="malformed")
    with transaction.atomic():
        game, state, seat = check_move(
            user, game_id, version, simultaneous=_simultaneous(move, round_number)
        )
        try:
            parsed = engine.move_from_json({"seat": seat, **move})
            outcome = engine.play(state, parsed)
        except IllegalMove as refusal:
            raise ActionError.from_illegal_move(refusal) from None
        except TypeError:
            raise ActionError(_("That move is not understood."), code="malformed") from None
        do_move(game, state, outcome, parsed, now=now, seats=list(game.seats.all()))
    return game


# A discard or pass sent without its round: the version it was chosen at tells (``check_move``).
ROUND_OF_VERSION = -1  # rounds count from 1


def _simultaneous(move: dict, round_number: int | None) -> int | None:
    """The round of a discard or pass (a choice made at the same time as others), or
    ``ROUND_OF_VERSION`` when not given; None for any other move."""
    if isinstance(move, dict) and ("discard" in move or "pass" in move):
        return ROUND_OF_VERSION if round_number is None else round_number
    return None


def check_move(user, game_id: int, version: int, simultaneous: int | None = None):
    """Lock the game and find the user's seat in it: (game, state, seat). ``simultaneous``: the
    round of a discard or pass (``ROUND_OF_VERSION``: the round of ``version``), which a newer
    version does not make stale while the seat still has that choice to make."""
    game = _lock_active_game(game_id)
    # The seats with their players, read once under the lock: the user's seat is found among
    # them (``position_of`` reads a prefetch), and the move's clocks and bot turns read them.
    prefetch_related_objects(
        [game], Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )
    seat = position_of(game, user)
    if seat is None:
        raise ActionError(_("You do not have a seat in this game."), code="not_seated")
    state = state_from_json(game.state)
    still_to_choose = (
        simultaneous is not None
        and state.phase == engine.DISCARD
        and seat in to_act(state)
        and (
            _of_this_discard_phase(game, state, version)
            if simultaneous == ROUND_OF_VERSION
            else simultaneous == state.round
        )
    )
    if version != game.version and not still_to_choose:
        raise StaleVersion(
            _("The game has moved on since this page was loaded: here is where it stands now."),
            code="stale",
        )
    return game, state, seat


def _of_this_discard_phase(game: Game, state, version: int) -> bool:
    """Whether ``version`` is one of the discard phase in play (no query): every choice made in
    it moved the version by one, so a version at most that many behind saw no other move.
    (The version also moves for "I'm back" or a resignation: such a version is then refused
    as stale though it could be taken, never taken when it should not.)"""
    made = sum(choice is not None for choice in state.choices)
    return 0 <= game.version - version <= made


def _lock_active_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ActionError(_("There is no such game."), code="no_game")
    if game.status == Game.Status.OPEN:
        raise ActionError(_("This game has not started yet."), code="not_started")
    if game.status == Game.Status.FINISHED:
        raise ActionError(_("This game is over."), code="game_over")
    if game.status == Game.Status.ABORTED:
        raise ActionError(_("This game was aborted."), code="aborted")
    return game


def play_bot_move(game_id: int, version: int, now=None, think_first: bool = False) -> int | None:
    """One move for a bot seat that must act, if the game is still at ``version``.

    Returns the new version, or None when there is nothing for a bot to do (the game moved on,
    ended, or waits for a person). Safe to call twice or late.

    ``think_first`` (the ``think`` task's): a level that thinks for seconds (Expert) chooses
    its move before the game row is locked, so that a person's request at the table (a discard
    chosen at the same time as the bot's) never waits for its search; the move is made only if
    the game is still at ``version``, where the bot would choose it again (the same view and
    seed). Else the game has moved on, and the task queued with its new version plays.
    """
    thought = _think_ahead(game_id, version) if think_first else None
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.version != version:
            return None
        state = state_from_json(game.state)
        seats = game_seats(game)
        bots = bot_levels(seats)
        seat = _bot_to_act(state, bots)
        if seat is None:
            return None
        if thought is not None and thought[0] == seat:
            move = thought[1]
        else:
            bot = site_bot(bots[seat], seed=f"{game.seed}/{game.version}/{seat}")
            move = bot.choose(engine.view(state, seat))
        autopilot = seat in autopilot_seats(seats)
        outcome = engine.play(state, move)
        do_move(game, state, outcome, move, by_bot=True, autopilot=autopilot, now=now, seats=seats)
        return game.version


def _think_ahead(game_id: int, version: int):
    """(seat, move) of a thinking level (``THINKING_BOT_LEVELS``) that must act at ``version``,
    chosen with no lock held (read, not locked); None for any other level."""
    game = Game.objects.filter(pk=game_id, version=version, status=Game.Status.ACTIVE).first()
    if game is None:
        return None
    state = state_from_json(game.state)
    bots = bot_levels(game_seats(game))
    seat = _bot_to_act(state, bots)
    if seat is None or bots[seat] not in THINKING_BOT_LEVELS:
        return None
    bot = site_bot(bots[seat], seed=f"{game.seed}/{version}/{seat}")
    return seat, bot.choose(engine.view(state, seat))


def queue_bot_turns(game_id: int, version: int) -> bool:
    """Queue the bot turns due at ``version`` (read, not locked), if the game is still there:
    behind the work already queued for other tables. Whether a task was queued."""
    game = Game.objects.filter(pk=game_id, version=version, status=Game.Status.ACTIVE).first()
    if game is None:
        return False
    return after_commit(game, state_from_json(game.state), game_seats(game))


def _bot_to_act(state, bots: dict[int, str]) -> int | None:
    return next((s for s in to_act(state) if s in bots), None)


def site_bot(level: str, seed: str):
    """A bot as the site runs it: Hard and Expert search their usual number of deals (as the
    arena measures them), or stop at ``settings.HARD_BOT_SECONDS`` or ``EXPERT_BOT_SECONDS``
    if that comes sooner (Expert: correspondence tables only, in its own workers,
    ``turns.bots_task``). More deals than that made Expert no stronger (BENCHMARKS.md), so
    they would cost a host CPU for nothing. The bots read no clock themselves: the site passes
    them one."""
    budgets = {
        "hard": (hard.SAMPLES, settings.HARD_BOT_SECONDS),
        "expert": (hard.EXPERT_SAMPLES, settings.EXPERT_BOT_SECONDS),  # where its cards are its own
    }
    if level in budgets:
        samples, seconds = budgets[level]
        return make_bot(level, seed, samples=samples, seconds=seconds, clock=time.perf_counter)
    return make_bot(level, seed)


def do_move(
    game: Game,
    before,
    outcome: engine.Played,
    move,
    *,
    by_bot=False,
    timeout=False,
    autopilot=False,
    now=None,
    seats: list[Seat],
) -> None:
    """Write an accepted move (the game row is locked, the move checked). ``by_bot``: a bot
    chose it; for a person's seat, as the stand-in at a ``timeout`` or on ``autopilot``.
    ``seats``: the game's seats as read under the lock (``turns.game_seats``)."""
    now = now or clock.now()
    after = outcome.state
    game.moves_made += 1
    MoveRecord.objects.create(
        game=game,
        number=game.moves_made,
        seat=move.seat,
        move=engine.move_to_json(move),
        round=before.round,
        by_bot=by_bot,
        timeout=timeout,
        autopilot=autopilot,
    )
    write_records(game, before, outcome, seats)
    game.state = state_to_json(after)
    game.version += 1
    # The game moved: whatever the sweep queued for it is done, and its count starts afresh.
    game.catchup_queued_at = None
    game.catchup_attempts = 0
    fields = ["state", "version", "moves_made", "catchup_queued_at", "catchup_attempts"]
    # A tutorial is one round (games.tutorial): its point target of 1 ends it there, and a
    # round at -2 points, where nobody reaches it, ends it too.
    if after.phase == engine.OVER or (game.tutorial and after.results):
        game.status = Game.Status.FINISHED
        game.finished_at = now
        fields += ["status", "finished_at"]
        rate_finished_game(game, after)
        notify_people_on_commit("game_over", game, key=str(game.pk))
    game.save(update_fields=fields)
    mover = None if by_bot else next(s.user_id for s in seats if s.position == move.seat)
    announce_on_commit(game, by=mover)
    sync_acting(game, after, now, seats, moved=move.seat, by_person=not by_bot)
    if not by_bot:
        after_commit(game, after, seats)


def play_timeout_move(game_id: int, version: int, now=None) -> int | None:
    """The stand-in bot's move for one seat whose deadline has passed, if the game is still at
    ``version``. Returns the new version, or None when nothing is due. Safe to call twice or late.
    After three timeouts in a row the seat goes on autopilot until its player comes back."""
    now = now or clock.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.version != version:
            return None
        seat = (
            Seat.objects.filter(game=game, deadline__lte=now, acting_since__isnull=False)
            .order_by("position")
            .first()
        )
        if seat is None:
            return None
        state = state_from_json(game.state)
        bot = site_bot(STAND_IN, seed=f"{game.seed}/{game.version}/{seat.position}")
        move = bot.choose(engine.view(state, seat.position))
        outcome = engine.play(state, move)
        do_move(
            game, state, outcome, move, by_bot=True, timeout=True, now=now, seats=game_seats(game)
        )
        seat.refresh_from_db()
        seat.timeouts_in_a_row += 1
        seat.autopilot = seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_AUTOPILOT
        seat.save(update_fields=["timeouts_in_a_row", "autopilot"])
        notify_on_commit("bot_moved", game, seat.position, key=f"{game.pk}/{version}")
        return game.version


# A game has at most 5 seats, each out of time once a version: a bound keeps a bug from looping.
MAX_TIMEOUTS = 10


def play_due_timeouts(game_id: int, version: int, now=None) -> int:
    """The stand-in's moves for every seat of the game out of time at ``now``, starting at
    ``version``, then the bot turns that follow queued (not played here: they are the bots'
    task's, behind the other tables' work). How many timeouts were played; none when the game
    has moved on from ``version``. Safe to run twice, late, or at once in two processes."""
    made = 0
    while made < MAX_TIMEOUTS:
        next_version = play_timeout_move(game_id, version, now)
        if next_version is None:
            break
        version = next_version
        made += 1
    if made:
        queue_bot_turns(game_id, version)
    return made


def come_back(user, game_id: int, now=None) -> Game:
    """The player is back: their seat leaves autopilot and they play again themselves."""
    now = now or clock.now()
    with transaction.atomic():
        game = _lock_active_game(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise ActionError(_("You do not have a seat in this game."), code="not_seated")
        if seat.resigned_at is not None:
            raise ActionError(
                _("You resigned this game: a bot plays your seat to the end."), code="resigned"
            )
        if not seat.autopilot:
            raise ActionError(_("You are already playing this seat yourself."), code="not_away")
        seat.autopilot = False
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["autopilot", "timeouts_in_a_row"])
        game.version += 1
        game.save(update_fields=["version"])
        announce_on_commit(game)
        state = state_from_json(game.state)
        # The turn starts afresh: a new deadline if the seat must act now.
        Seat.objects.filter(pk=seat.pk).update(acting_since=None)
        sync_acting(game, state, now, game_seats(game))
    return game


def _person_seat(game: Game, user) -> Seat:
    seat = seat_of(game, user)
    if seat is None:
        raise ActionError(_("You do not have a seat in this game."), code="not_seated")
    return seat


def abort_game(user, game_id: int, now=None) -> Game:
    """A seated person ends the game before its first card: unrated, nobody wins, and the other
    people at the table are told by email."""
    now = now or clock.now()
    with transaction.atomic():
        game = _lock_active_game(game_id)
        seat = _person_seat(game, user)
        if not before_first_card(state_from_json(game.state)):
            raise ActionError(
                _("The first card has been played: the game can no longer be aborted."),
                code="too_late",
            )
        game.status = Game.Status.ABORTED
        game.aborted_by = user
        game.finished_at = now
        game.version += 1
        game.save(update_fields=["status", "aborted_by", "finished_at", "version"])
        Seat.objects.filter(game=game).update(acting_since=None, deadline=None, reminder_due=None)
        announce_on_commit(game)
        notify_people_on_commit("game_aborted", game, key=str(game.pk), skip_user_id=seat.user_id)
    return game


def resign(user, game_id: int, now=None) -> Game:
    """The player gives up for good: the stand-in bot plays their seat to the end, the seat
    ranks last for rating (as one that ended on autopilot), and the other people are told."""
    now = now or clock.now()
    with transaction.atomic():
        game = _lock_active_game(game_id)
        seat = _person_seat(game, user)
        if seat.resigned_at is not None:
            raise ActionError(_("You have already resigned this game."), code="resigned")
        seat.resigned_at = now
        seat.autopilot = True
        # A seat on autopilot has no clock: if it must act, the stand-in moves at once.
        seat.acting_since = seat.deadline = seat.reminder_due = None
        seat.save(
            update_fields=["resigned_at", "autopilot", "acting_since", "deadline", "reminder_due"]
        )
        game.version += 1
        game.save(update_fields=["version"])
        announce_on_commit(game)
        state = state_from_json(game.state)
        seats = game_seats(game)
        sync_acting(game, state, now, seats)
        after_commit(game, state, seats)
        notify_people_on_commit(
            "player_resigned", game, key=f"{game.pk}:{seat.position}", skip_user_id=seat.user_id
        )
    return game
