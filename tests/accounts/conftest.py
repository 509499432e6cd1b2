"""Helpers for the account tests. Games are played through the real actions, as in
tests/games/conftest.py (the same few helpers, copied so these tests stand on their own)."""

from __future__ import annotations

import random

import pytest

from accounts.models import User
from games import engine
from games.actions import create_game, join_game, submit_move
from games.actions import lobby as lobby_actions
from games.models import Game

PASSWORD = "a long passphrase 42"


@pytest.fixture
def make_person(db):
    def make(name: str = "alice", **fields) -> User:
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", password=PASSWORD, **fields
        )

    return make


@pytest.fixture
def alice(make_person):
    return make_person("alice")


@pytest.fixture
def bob(make_person):
    return make_person("bob")


@pytest.fixture
def carol(make_person):
    return make_person("carol")


@pytest.fixture
def act(django_capture_on_commit_callbacks):
    """Run an action as a request would: its on-commit work (bot turns) runs after it."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def state_of(game: Game) -> engine.GameState:
    game.refresh_from_db()
    return engine.state_from_json(game.state)


def play_person_move(act, game: Game, user, rng: random.Random) -> bool:
    state = state_of(game)
    seat = game.seats.get(user=user).position
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


@pytest.fixture
def finish_game(act):
    """A short game (to 1 point) of ``person`` against bots, played to its end."""

    def finish(person, bots=("easy", "easy"), seed=1) -> Game:
        game = act(create_game, person, players=len(bots) + 1, bots=list(bots), target=1)
        return play_out(act, game, [person], random.Random(seed))

    return finish


# A 3-player game to 1 point that ends with seats 0 and 1 tied on 28 (seat 2: 24) when the
# players (in seat order) make the moves random.Random(TIE_MOVES) picks: found by replaying the
# engine. It needs no bot, so it stays the same while the bots change.
TIE_SEED, TIE_MOVES, TIE_TOTALS = 3, 7, [28, 28, 24]


@pytest.fixture
def tied_game(act):
    def play(first, second, third) -> Game:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lobby_actions.secrets, "randbits", lambda bits: TIE_SEED)
            game = act(create_game, first, players=3, target=1)
        act(join_game, second, game.pk)
        act(join_game, third, game.pk)
        return play_out(act, game, [first, second, third], random.Random(TIE_MOVES))

    return play
