"""Every level: chosen by name, always legal, and deciding from the seat's view alone."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import LEVELS, STAND_IN, Easy, Expert, Hard, Medium, make_bot
from games.bots.determinize import determinize
from games.engine import (
    BOARD,
    OVER,
    SETUPS,
    TEAMS,
    TRICKS,
    apply,
    legal_moves,
    new_game,
    to_act,
    view,
)

FAST = {  # deals in tests
    "hard": {"samples": 2, "team_samples": 2},
    "expert": {"samples": 2, "board_samples": 2, "team_samples": 2},
}


def bot(level: str, seed):
    return make_bot(level, seed, **FAST.get(level, {}))


def test_make_bot_gives_each_level():
    assert isinstance(make_bot("easy", 1), Easy)
    assert isinstance(make_bot("medium", 1), Medium)
    assert isinstance(make_bot("hard", 1, samples=3), Hard)
    assert make_bot("hard", 1, samples=3).samples == 3
    assert isinstance(make_bot("expert", 1, samples=3), Expert)
    assert STAND_IN == "medium"
    with pytest.raises(ValueError):
        make_bot("grandmaster", 1)


def play_round(players, seed, levels, random_board):
    """One round with these levels by seat; the board and teams may be random instead."""
    rng = random.Random(seed)
    bots = [bot(level, f"{seed}/{s}") for s, level in enumerate(levels)]
    state = new_game(players, seed)
    while not state.results:
        seat = rng.choice(to_act(state))
        legal = legal_moves(state, seat)
        if random_board and state.phase in (BOARD, TEAMS):
            move = rng.choice(legal)
        else:
            move = bots[seat].choose(view(state, seat))
            assert move in legal, (levels[seat], state.phase, move)
        state = apply(state, move)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    random_board=st.booleans(),
    levels=st.lists(st.sampled_from(LEVELS), min_size=5, max_size=5),
)
def test_every_level_always_moves_legally(players, seed, random_board, levels):
    play_round(players, seed, levels[:players], random_board)


def test_every_board_outcome_is_played_legally():
    """Random boards give every discard rule, trump, supertrump and points value."""
    seen = {"discard": set(), "trump": set(), "super": set(), "points": set()}
    for seed in range(36):
        players = 2 + seed % 4
        levels = [LEVELS[(seed + s) % len(LEVELS)] for s in range(players)]
        terms = play_round(players, seed, levels, random_board=True).results[0].terms
        for line in seen:
            seen[line].add(str(getattr(terms, line)))
    assert seen["discard"] == {"none", "1", "2", "except_1", "pass_left"}
    assert len(seen["trump"]) == 4 and len(seen["super"]) == 5 and len(seen["points"]) == 5


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_of_bots(players):
    levels = [LEVELS[s % len(LEVELS)] for s in range(players)]
    bots = [bot(level, s) for s, level in enumerate(levels)]
    state = new_game(players, seed=players)
    while state.phase != OVER:
        seat = to_act(state)[-1]
        state = apply(state, bots[seat].choose(view(state, seat)))
    assert len(state.results) == SETUPS[players].rounds


def situations():
    """A seat to act in every phase of a 4-player round, and in a 5-player trick."""
    rng = random.Random(4)
    state = new_game(4, seed=4)
    picked = {}
    while not state.results:
        if state.phase not in picked and rng.random() < 0.3:
            picked[state.phase] = state
        elif state.phase == TRICKS and state.tricks and "late" not in picked:
            picked["late"] = state
        state = apply(state, rng.choice(legal_moves(state, rng.choice(to_act(state)))))
    return list(picked.values())


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_seed_give_the_same_move_whatever_the_others_hold(level):
    for state in situations():
        seat = to_act(state)[0]
        seen = view(state, seat)
        other = determinize(seen, random.Random(99))  # the others' hands dealt anew
        assert other.hands != state.hands and other.hands[seat] == state.hands[seat]
        assert view(other, seat) == seen
        assert bot(level, 7).choose(view(other, seat)) == bot(level, 7).choose(seen)
