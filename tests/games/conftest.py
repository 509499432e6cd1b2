import random

import pytest

from games import engine
from games.actions import submit_move
from games.models import Game

DAY = 24 * 3600  # seconds


def correspondence_game(act, user, bots=("easy", "easy")):
    """A started correspondence game (a day a move) of ``user`` against ``bots``."""
    from games.actions import create_game

    return act(
        create_game,
        user,
        players=len(bots) + 1,
        bots=list(bots),
        time_control=Game.TimeControl.CORRESPONDENCE,
        move_seconds=DAY,
    )


def state_of(game: Game) -> engine.GameState:
    game.refresh_from_db()
    return engine.state_from_json(game.state)


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).position


def play_person_move(act, game: Game, user, rng: random.Random) -> bool:
    """One random legal move for ``user`` if they must act; whether they moved."""
    state = state_of(game)
    seat = seat_of(game, user)
    legal = engine.view(state, seat)["legal"]
    if not legal:
        return False
    move = rng.choice(legal)
    del move["seat"]
    act(submit_move, user, game.pk, game.version, move)
    return True


def play_out(act, game: Game, people, rng: random.Random, until=None) -> Game:
    """People make random legal moves (bots answer) until the game ends or ``until(state)``."""
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED or (until and until(state_of(game))):
            return game
        if not any(play_person_move(act, game, user, rng) for user in people):
            raise AssertionError("nobody can move: the game is stuck")
    raise AssertionError("the game did not end")


class FakeClock:
    """The time, as the test says: ``clock.advance(hours=6)``."""

    def __init__(self, start):
        self.current = start

    def __call__(self):
        return self.current

    def advance(self, **delta):
        from datetime import timedelta

        self.current += timedelta(**delta)
        return self.current


@pytest.fixture
def clock(monkeypatch):
    from django.utils import timezone

    from games import clock as site_clock

    fake = FakeClock(timezone.now())
    monkeypatch.setattr(site_clock, "now", fake)
    return fake


def form_data(move: dict) -> dict:
    """The game page's move form (games.forms.table.MoveForm) for an engine move's JSON form."""
    if "token" in move:
        return {"kind": "token", "box": ":".join(move["token"])}
    if "teams" in move:
        bonus = move["teams"]["bonus"]
        partners = [s for s in move["teams"]["team"] if s != move["seat"]]
        return {"kind": "teams", "partner": partners, "bonus": "" if bonus is None else bonus}
    if "discard" in move:
        return {"kind": "discard", "cards": move["discard"]}
    kind = "pass" if "pass" in move else "play"
    return {"kind": kind, "card": move[kind]}
