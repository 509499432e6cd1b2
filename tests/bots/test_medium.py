"""Medium: hand-evaluation heuristics for the board, the teams, the discards and the tricks."""

import pytest

from games.bots.medium import Medium
from games.engine import (
    ChooseTeams,
    Discard,
    PlaceToken,
    PlayCard,
    apply,
    new_game,
    to_act,
    view,
    with_deal,
)

from .helpers import (
    SEAT0,
    SEAT1,
    SEAT2,
    SEAT3,
    STRONG,
    WEAK,
    complete_hands,
    play,
    round_with,
    tricks_round,
)


def board_with_only_points_open(hand):
    """4 players, dealer 0: every line but the points one decided (trump Y, supertrump B);
    seat 2 is to cover a points box and holds ``hand``."""
    hands = complete_hands(4, [], [], hand)
    state = with_deal(new_game(4, seed=1), 0, hands)
    covers = [("first", "0"), ("first", "2"), ("first", "3")]
    covers += [("discard", b) for b in ("1", "2", "except_1", "pass_left")]
    covers += [("trump", b) for b in ("B", "R", "G")] + [("super", b) for b in "RYG"]
    covers += [("super", "none")]
    for line, box in covers:
        state = apply(state, PlaceToken(state.turn, line, box))
    assert to_act(state) == (2,)
    return state


def test_a_strong_hand_covers_the_negative_points():
    state = board_with_only_points_open(STRONG)
    assert Medium(1).choose(view(state, 2)) == PlaceToken(2, "points", "-2")


def test_a_weak_hand_covers_the_high_points():
    state = board_with_only_points_open(WEAK)
    assert Medium(1).choose(view(state, 2)) == PlaceToken(2, "points", "4")


def test_the_board_keeps_the_trump_the_hand_is_long_in():
    hands = complete_hands(4, STRONG)
    state = with_deal(new_game(4, seed=1), 0, hands)
    move = Medium(1).choose(view(state, 0))
    assert (move.line, move.box) != ("trump", "Y") and (move.line, move.box) != ("super", "B")


def test_with_positive_points_it_wins_as_cheaply_as_it_can():
    state = play(tricks_round(2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Medium(1).choose(view(state, 0)) == PlayCard(0, "G11")


def test_with_negative_points_it_gives_its_1_to_the_other_team():
    state = play(tricks_round(-2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Medium(1).choose(view(state, 0)) == PlayCard(0, "G1")


def test_with_negative_points_it_ducks_with_its_highest_losing_card():
    hand = [c for c in SEAT0 if c != "G1"] + ["R10"]
    seat2 = [c for c in SEAT2 if c != "R10"] + ["G1"]
    state = play(tricks_round(-2, [hand, SEAT1, seat2, SEAT3]), "G10", "G3", "G5")
    assert Medium(1).choose(view(state, 0)) == PlayCard(0, "G9")


def test_it_throws_a_1_into_its_partners_safe_trick_and_not_into_the_others():
    seat0 = ["R1", "R5", "R9", "B2", "B3", "B9", "Y2", "Y3", "B4", "B5", "R10", "R11", "B6"]
    seat0 += ["B7", "B8"]
    seat2 = ["G13", "G3", "R2", "R3", "R12", "B11", "B12", "B13", "Y7", "Y8", "Y9", "R13", "B1"]
    seat2 += ["Y10", "Y11"]
    seat1 = ["G10", "G2", "G11", "G12", "R4", "R6", "R7", "R8", "Y4", "Y5", "Y6", "B10", "G4"]
    seat1 += ["G9", "G1"]
    base = tricks_round(2, [seat0, seat1, seat2])
    ours = play(base, "G2", "G13", next(c for c in base.hands[3] if c[0] == "G"))
    assert Medium(1).choose(view(ours, 0)) == PlayCard(0, "R1")
    theirs = play(base, "G12", "G3", next(c for c in base.hands[3] if c[0] == "G"))
    assert Medium(1).choose(view(theirs, 0)).card != "R1"


@pytest.mark.parametrize(("points", "expected"), [(2, ("G1",)), (-2, ("Y13",))])
def test_it_discards_a_liability(points, expected):
    hand = ["G1", "G7", "R9", "R10", "R11", "B9", "B10", "B11", "Y13", "Y12", "Y11", "Y10", "Y9"]
    hand += ["Y8", "R12"]
    terms = {"first": 1, "discard": "1", "trump": "Y", "super": "none", "points": points}
    state = round_with(complete_hands(4, hand), terms)
    state = apply(state, ChooseTeams(1, (1, 3), None))
    assert Medium(1).choose(view(state, 0)) == Discard(0, expected)


def test_with_a_weak_hand_and_negative_points_it_goes_alone_with_3_players():
    hand = ["R2", "R3", "R4", "R5", "R6", "G2", "G3", "G4", "G5", "G6", "B2", "B3", "B4", "B5"]
    hand += ["B6", "B7"]
    for points, alone in ((-2, True), (4, False)):
        terms = {"first": 0, "discard": "none", "trump": "Y", "super": "none", "points": points}
        state = round_with(complete_hands(3, hand), terms)
        move = Medium(1).choose(view(state, 0))
        assert (move.team == (0,)) is alone, points
