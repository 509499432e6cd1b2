"""Moving a game on through the site's own actions where a test does not need to click: the
person's moves are steered (towards being the first player, towards a discard rule), the Easy
bots answer at once (Celery runs tasks in-process in the tests)."""

from __future__ import annotations

import random

from games import engine
from games.actions import submit_move
from games.models import Game


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
