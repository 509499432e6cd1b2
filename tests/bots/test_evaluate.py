"""evaluate: a hand's rough worth follows its strength."""

import random
import statistics

import pytest

from games.bots.evaluate import expected_tricks, keep_values
from games.engine import SETUPS
from games.engine.cards import deck

from .helpers import STRONG, WEAK


def test_a_strong_hand_is_worth_more_than_a_weak_one_and_its_trump_matters():
    strong = expected_tricks(STRONG, "Y", "B", 4)
    assert strong > 9 > expected_tricks(STRONG, "G", "none", 4) > expected_tricks(WEAK, "Y", "B", 4)
    assert expected_tricks(WEAK, "Y", "B", 4) < 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_average_hand_is_worth_its_fair_share(players):
    rng = random.Random(players)
    size = SETUPS[players].hand
    worths = []
    for _ in range(300):
        cards = list(deck(players))
        rng.shuffle(cards)
        trump, super_ = rng.choice("BRYG"), rng.choice(["B", "R", "Y", "G", "none"])
        worths.append(expected_tricks(cards[:size], trump, super_, players))
    assert statistics.fmean(worths) == pytest.approx(size / players, abs=0.4)


def test_keep_values_turn_around_with_negative_points():
    hand = STRONG[:10] + ["G1", "G2"]
    up = keep_values(hand, "Y", "B", 4, 2)
    down = keep_values(hand, "Y", "B", 4, -2)
    assert min(up, key=up.get) == "G1"
    assert min(down, key=down.get) == "B1"
    assert up["Y13"] > up["G2"] and down["Y13"] < down["G2"]
