"""Hard: a search over deals of the hidden cards, within a budget of deals or of time."""

import itertools
import random

from games.bots.hard import Hard
from games.bots.medium import Medium
from games.engine import (
    BOARD,
    DISCARD,
    TEAMS,
    TRICKS,
    PlayCard,
    apply,
    legal_moves,
    new_game,
    to_act,
    view,
)

from .helpers import mid_round
from .test_medium import SEAT0, SEAT1, SEAT2, SEAT3, play, tricks_round


def test_a_fixed_budget_of_deals_makes_it_reproducible():
    state = mid_round(4, seed=5, tricks=3, cards=1)
    seen = view(state, state.turn)
    first = Hard(3, samples=4)
    assert first.choose(seen) == Hard(3, samples=4).choose(seen)
    assert first.deals == 4


def test_the_clock_caps_the_search():
    state = mid_round(5, seed=2, tricks=1, cards=0)
    ticks = itertools.count()
    slow = Hard(1, samples=1000, seconds=0.5, clock=lambda: next(ticks) * 0.2)
    move = slow.choose(view(state, state.turn))
    assert isinstance(move, PlayCard)
    assert slow.deals == 3  # checked after each deal: 0.2, 0.4, then 0.6 s >= 0.5 s


def test_it_takes_a_trick_it_can_take_cheaply_as_the_last_to_play():
    state = play(tricks_round(2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Hard(1, samples=8).choose(view(state, 0)) == PlayCard(0, "G11")


def test_with_negative_points_it_lets_the_other_team_take_the_trick():
    state = play(tricks_round(-2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Hard(1, samples=8).choose(view(state, 0)).card in ("G1", "G4", "G9")


def test_the_board_the_teams_and_the_discards_are_mediums():
    phases = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(4, seed)
        while state.phase != TRICKS:
            seat = to_act(state)[0]
            seen = view(state, seat)
            move = Hard(seed, samples=2).choose(seen)
            assert move == Medium(seed).choose(seen)
            phases.add(state.phase)
            state = apply(
                state, move if rng.random() < 0.5 else rng.choice(legal_moves(state, seat))
            )
    assert phases == {BOARD, TEAMS, DISCARD}
