"""The random legal bot decides from a view and its own generator, and always moves legally."""

import pytest

from games.bots.random_bot import RandomBot
from games.engine import OVER, SETUPS, apply, new_game, to_act, view


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_bots_play_a_whole_game(players):
    bots = [RandomBot(seed=f"test/{s}") for s in range(players)]
    state = new_game(players, seed=players)
    while state.phase != OVER:
        seat = to_act(state)[-1]
        state = apply(state, bots[seat].choose(view(state, seat)))
    assert len(state.results) == SETUPS[players].rounds


def test_same_seed_same_choices():
    state = new_game(5, seed=1)
    seen = view(state, to_act(state)[0])
    assert RandomBot(3).choose(seen) == RandomBot(3).choose(seen)
    choices = {RandomBot(s).choose(seen) for s in range(30)}
    assert len(choices) > 1
