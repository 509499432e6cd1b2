"""Moving a game on through the site's own actions where a test does not need to click: the
person's moves are steered (towards being the first player, towards a discard rule), the Easy
bots answer at once (Celery runs tasks in-process in the tests). And whole situations several
tests start from: a player's games of every kind, a game whose top scorer resigned."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games import engine
from games.actions import abort_game, create_game, deadlines, join_game, resign, submit_move
from games.actions import lobby as lobby_actions
from games.models import Game, Seat
from tests.games.conftest import play_out


def steer_token(seen: dict, prefer: list[tuple[str, str]]) -> dict:
    """A token for the person: the first open box of ``prefer``, else any box but their own
    first-player box (so that they may become the first player), else any."""
    legal = [tuple(m["token"]) for m in seen["legal"]]
    for wanted in prefer:
        if wanted in legal:
            return {"token": list(wanted)}
    others = [b for b in legal if b != ("first", str(seen["seat"]))]
    return {"token": list(random.Random(len(seen["board"]["tokens"])).choice(others or legal))}


def prefer_boxes(seat: int, players: int, rule: str) -> list[tuple[str, str]]:
    """Boxes to cover first: the other players' first-player boxes (to be the first player
    and choose the teams), then the discard line's boxes other than ``rule``."""
    boxes = [("first", str(s)) for s in range(players) if s != seat]
    boxes += [
        ("discard", box) for box in ("none", "2", "1", "except_1", "pass_left") if box != rule
    ]
    return boxes


def person_move(seen: dict, prefer) -> dict:
    legal = [dict(m) for m in seen["legal"]]
    for move in legal:
        del move["seat"]
    if "token" in legal[0]:
        return steer_token(seen, prefer)
    if "discard" in legal[0]:
        # The highest cards: never a 1 where the rule forbids it (the engine lists only legal).
        return max(legal, key=lambda m: sum(int(c[1:]) for c in m["discard"]))
    return legal[0]


def play_until(game: Game, user, until, prefer=(), act=None, limit=3000) -> engine.GameState:
    """The person moves (the Easy bots answer at once) until ``until(state)`` or the game ends.
    ``act``: how to run an action so that its on-commit work runs (the ``act`` fixture inside a
    test's transaction; nothing to do in a live server's test)."""
    seat = game.seats.get(user=user).position
    for _ in range(limit):
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if until(state) or state.phase == engine.OVER:
            return state
        seen = engine.view(state, seat)
        if not seen["legal"]:
            raise AssertionError(f"the person cannot move and the bots did not: {seen['phase']}")
        move = person_move(seen, prefer)
        if act:
            act(submit_move, user, game.pk, game.version, move)
        else:
            submit_move(user, game.pk, game.version, move)
    raise AssertionError("the game did not get there")


# --- whole situations --------------------------------------------------------------------------


def your_games(act, me, other):
    """One game of each kind for ``me``: their turn, another's turn, an open table, a finished
    game, an aborted one and an expired one (``other`` is the person they wait for)."""
    expired = act(create_game, me, players=3)
    week_old = timezone.now() - settings.TABLE_EXPIRES_AFTER - timedelta(minutes=1)
    Game.objects.filter(pk=expired.pk).update(created_at=week_old)
    act(deadlines._expire_tables, timezone.now())
    turn = act(create_game, me, players=2, bots=["easy"])
    aborted = act(create_game, me, players=2, bots=["easy"])
    act(abort_game, me, aborted.pk)
    others = act(create_game, me, players=2)
    act(join_game, other, others.pk)
    # Whoever the deal made first: the game waits for ``other`` here.
    Seat.objects.filter(game=others, user=me).update(acting_since=None, deadline=None)
    Seat.objects.filter(game=others, user=other).update(acting_since=timezone.now())
    finished = act(create_game, me, players=2, bots=["easy"], target=1)
    finished = play_out(act, finished, [me], random.Random(1))
    open_table = act(create_game, me, players=3, bots=["easy"])
    return {
        "turn": turn,
        "others": others,
        "open": open_table,
        "ended": [finished, aborted, expired],
    }


SEED = 11


def outscoring_moves() -> tuple[list[tuple[int, dict]], int]:
    """Moves (seat, move) of a whole game and the seat that ends it with the most points, without
    making the last move; the three totals differ."""
    for picks in range(50):
        rng = random.Random(picks)
        state = engine.new_game(3, SEED, 1)
        moves = []
        while state.phase != engine.OVER:
            seat = next(s for s in range(3) if engine.view(state, s)["legal"])
            move = rng.choice(engine.view(state, seat)["legal"])
            moves.append((seat, {k: v for k, v in move.items() if k != "seat"}))
            state = engine.play(state, engine.move_from_json(move)).state
        totals = engine.game_standings(state).totals
        top = max(range(3), key=lambda s: totals[s])
        others = sorted(totals[s] for s in range(3) if s != top)
        if others[1] < totals[top] and others[0] < others[1] and moves[-1][0] != top:
            return moves, top
    raise AssertionError("no such game in 50 tries")


def finish_with_top_resigned(act, first, second, third) -> tuple[Game, object]:
    """A finished game of three people whose top scorer resigned before its last move: the game
    and that player. ``act`` runs an action (with its on-commit work)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lobby_actions.secrets, "randbits", lambda bits: SEED)
        game = act(create_game, first, players=3, target=1)
    act(join_game, second, game.pk)
    act(join_game, third, game.pk)
    people = {s.position: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    moves, top = outscoring_moves()
    for seat, move in moves[:-1]:
        game.refresh_from_db()
        act(submit_move, people[seat], game.pk, game.version, move)
    act(resign, people[top], game.pk)
    game.refresh_from_db()
    mail.outbox.clear()
    act(submit_move, people[moves[-1][0]], game.pk, game.version, moves[-1][1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, people[top]
