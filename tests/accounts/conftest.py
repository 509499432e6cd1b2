"""Helpers for the account tests. Games are played through the real actions, with the game
tests' helpers (tests/games/conftest.py) and the people of tests/conftest.py."""

from __future__ import annotations

import random

import pytest

from games.actions import create_game, join_game
from games.actions import lobby as lobby_actions
from games.models import Game
from tests.conftest import PASSWORD  # noqa: F401 (the tests log in with it)
from tests.games.conftest import play_out, state_of  # noqa: F401


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
