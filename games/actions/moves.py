"""Moves: a person's through ``submit_move``, a bot's through ``play_bot_move``.

Both lock the game row, check the version the move was made for, let the engine validate it,
write the records and queue what follows (bot turns) only once the transaction has committed.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.ratings import rate_finished_game
from games import clock, engine
from games.engine import IllegalMove, state_from_json, state_to_json, to_act
from games.models import Game, MoveRecord, Seat

from .errors import ActionError, StaleVersion
from .notify import notify_on_commit, notify_people_on_commit
from .records import write_records
from .turns import after_commit, bot_levels, sync_acting

TIMEOUTS_BEFORE_AUTOPILOT = 3


def submit_move(user, game_id: int, version: int, move: dict, now=None) -> Game:
    """Make ``move`` (the engine's JSON form without the seat, e.g. ``{"play": "Y7"}``) for the
    seat ``user`` holds, if the game is still at ``version``."""
    if not user.is_authenticated:
        raise ActionError(_("Log in to play."), code="login")
    with transaction.atomic():
        game, state, seat = check_move(user, game_id, version)
        try:
            parsed = engine.move_from_json({"seat": seat, **move})
            after = engine.apply(state, parsed)
        except IllegalMove as refusal:
            raise ActionError.from_illegal_move(refusal) from None
        except TypeError:
            raise ActionError(_("That move is not understood."), code="malformed") from None
        do_move(game, state, after, parsed, now=now)
    return game


def check_move(user, game_id: int, version: int):
    """Lock the game and find the user's seat in it: (game, state, seat)."""
    game = _lock_active_game(game_id)
    seat = Seat.objects.filter(game=game, user=user).values_list("position", flat=True).first()
    if seat is None:
        raise ActionError(_("You do not have a seat in this game."), code="not_seated")
    if version != game.version:
        raise StaleVersion(
            _("The game has moved on since this page was loaded: here is where it stands now."),
            code="stale",
        )
    return game, state_from_json(game.state), seat


def _lock_active_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ActionError(_("There is no such game."), code="no_game")
    if game.status == Game.Status.OPEN:
        raise ActionError(_("This game has not started yet."), code="not_started")
    if game.status == Game.Status.FINISHED:
        raise ActionError(_("This game is over."), code="game_over")
    return game


def play_bot_move(game_id: int, version: int, now=None) -> int | None:
    """One move for a bot seat that must act, if the game is still at ``version``.

    Returns the new version, or None when there is nothing for a bot to do (the game moved on,
    ended, or waits for a person). Safe to call twice or late.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.version != version:
            return None
        state = state_from_json(game.state)
        bots = bot_levels(game)
        seat = next((s for s in to_act(state) if s in bots), None)
        if seat is None:
            return None
        bot = site_bot(bots[seat], seed=f"{game.seed}/{game.version}/{seat}")
        move = bot.choose(engine.view(state, seat))
        do_move(game, state, engine.apply(state, move), move, by_bot=True, now=now)
        return game.version


def site_bot(level: str, seed: str):
    """A bot as the site runs it: Hard searches its usual number of deals, or stops at
    ``settings.HARD_BOT_SECONDS`` if that comes sooner (the bots read no clock themselves)."""
    from games.bots import hard, make_bot  # the bots package imports the engine only

    if level == "hard":
        return make_bot(
            level,
            seed,
            samples=hard.SAMPLES,
            seconds=settings.HARD_BOT_SECONDS,
            clock=time.perf_counter,
        )
    return make_bot(level, seed)


def do_move(game: Game, before, after, move, *, by_bot=False, timeout=False, now=None) -> None:
    """Write an accepted move (the game row is locked, the move checked)."""
    now = now or clock.now()
    MoveRecord.objects.create(
        game=game,
        number=MoveRecord.objects.filter(game=game).count() + 1,
        seat=move.seat,
        move=engine.move_to_json(move),
        round=before.round,
        by_bot=by_bot,
        timeout=timeout,
    )
    write_records(game, before, after, move)
    game.state = state_to_json(after)
    game.version += 1
    fields = ["state", "version"]
    if after.phase == engine.OVER:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        fields += ["status", "finished_at"]
        rate_finished_game(game, after)
        notify_people_on_commit("game_over", game, key=str(game.pk))
    game.save(update_fields=fields)
    sync_acting(game, after, now, moved=None if by_bot else move.seat)
    if not by_bot:
        after_commit(game, after)


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
        from games.bots import STAND_IN

        state = state_from_json(game.state)
        bot = site_bot(STAND_IN, seed=f"{game.seed}/{game.version}/{seat.position}")
        move = bot.choose(engine.view(state, seat.position))
        after = engine.apply(state, move)
        do_move(game, state, after, move, by_bot=True, timeout=True, now=now)
        seat.refresh_from_db()
        seat.timeouts_in_a_row += 1
        seat.autopilot = seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_AUTOPILOT
        seat.save(update_fields=["timeouts_in_a_row", "autopilot"])
        notify_on_commit("bot_moved", game, seat.position, key=f"{game.pk}/{version}")
        after_commit(game, after)
        return game.version


def come_back(user, game_id: int, now=None) -> Game:
    """The player is back: their seat leaves autopilot and they play again themselves."""
    now = now or clock.now()
    with transaction.atomic():
        game = _lock_active_game(game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise ActionError(_("You do not have a seat in this game."), code="not_seated")
        if not seat.autopilot:
            raise ActionError(_("You are already playing this seat yourself."), code="not_away")
        seat.autopilot = False
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["autopilot", "timeouts_in_a_row"])
        game.version += 1
        game.save(update_fields=["version"])
        state = state_from_json(game.state)
        # The turn starts afresh: a new deadline if the seat must act now.
        Seat.objects.filter(pk=seat.pk).update(acting_since=None)
        sync_acting(game, state, now)
    return game
