"""Easy: legal, with simple habits."""

from games.bots.easy import Easy
from games.engine import ChooseTeams, Discard, PlayCard, apply, view

from .helpers import SEAT0, SEAT1, SEAT2, SEAT3, complete_hands, play, round_with, tricks_round


def test_it_wins_with_its_highest_card_or_plays_its_lowest():
    state = play(tricks_round(2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Easy(1).choose(view(state, 0)) == PlayCard(0, "G12")
    state = play(tricks_round(2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G13", "G5")
    assert Easy(1).choose(view(state, 0)) == PlayCard(0, "G1")


def test_with_negative_points_it_plays_its_lowest_card():
    state = play(tricks_round(-2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    assert Easy(1).choose(view(state, 0)) == PlayCard(0, "G1")


def test_it_discards_its_lowest_card():
    hand = ["G7", "R9", "R10", "R11", "B9", "B10", "B11", "Y13", "Y12", "Y11", "Y10", "Y9", "Y8"]
    hand += ["R12", "G2"]
    terms = {"first": 1, "discard": "1", "trump": "Y", "super": "none", "points": 2}
    state = apply(round_with(complete_hands(4, hand), terms), ChooseTeams(1, (1, 3), None))
    assert Easy(1).choose(view(state, 0)) == Discard(0, ("G2",))


def test_it_never_covers_its_own_first_player_box_while_it_may_cover_another():
    from games.engine import new_game

    for seed in range(30):
        state = new_game(3, seed)
        move = Easy(seed).choose(view(state, state.turn))
        assert (move.line, move.box) != ("first", str(state.turn))
