"""What the engine exports for the rest of the site agrees with the rules it applies: each rule
is stated once, in the engine, and read from there."""

import pytest

from games import engine
from games.engine.cards import VALUE
from games.engine.tricks import strengths, winning_index

from .playing import board_done, tokens_for


@pytest.mark.parametrize("rule", ["1", "2", "except_1", "pass_left"])
def test_every_legal_choice_takes_the_cards_the_rule_says(rule):
    state = board_done(4, tokens=tokens_for(4, rule))
    state = engine.apply(state, engine.legal_moves(state, state.turn)[0])  # the teams
    assert state.phase == engine.DISCARD
    seat = engine.to_act(state)[0]
    moves = engine.legal_moves(state, seat)
    chosen = {len(m.cards) if isinstance(m, engine.Discard) else 1 for m in moves}
    assert chosen == {engine.CARDS_CHOSEN[rule]}
    # A passed card stays in play, in the next hand; a discarded one leaves the round.
    before = len(state.hands[seat])
    for s in engine.to_act(state):
        state = engine.apply(state, engine.legal_moves(state, s)[0])
    assert len(state.hands[seat]) == before - engine.cards_discarded(rule)


def test_no_discard_takes_no_card():
    assert engine.CARDS_CHOSEN["none"] == engine.cards_discarded("none") == 0


def test_the_trick_winner_is_a_seat_counted_from_the_leader():
    # Seat 3 leads at a 4-player table: Y13 by seat 3, Y2 by 0, B5 (trump) by 1, Y12 by 2.
    assert engine.trick_winner(3, ["Y13", "Y2", "B5", "Y12"], 4, "B", "none") == 1
    # A supertrump (the 1s of line 4's color) beats every trump; the last of equal cards wins.
    assert engine.trick_winner(0, ["G1", "B13", "G1"], 3, "B", "G") == 2


def test_team_of_and_loot():
    team = engine.team_of(((2, 0), (1, 3, 4)))
    assert team == (0, 1, 0, 1, 1)
    assert engine.is_loot("R1", 1, 0, team)  # a 1 by an opponent of the winner
    assert not engine.is_loot("R1", 2, 0, team)  # by the winner's teammate
    assert not engine.is_loot("R7", 1, 0, team) and VALUE["R7"] != 1


def test_the_board_is_exported_once():
    assert engine.LINES == tuple(engine.BOXES)
    assert set(engine.CARDS_CHOSEN) == set(engine.BOXES["discard"])


def test_discardable_keeps_the_1s_for_a_hand_of_nothing_else():
    hand = ["B1", "R7", "B1", "Y2"]
    assert engine.discardable("except_1", hand) == ["R7", "Y2"]
    assert engine.discardable("except_1", ["B1", "G1", "B1"]) == ["B1", "G1", "B1"]
    for rule in ("1", "2", "pass_left"):
        assert engine.discardable(rule, hand) == hand


def test_hands_after_the_choices_lose_them_and_pass_them_left():
    hands = [["B1", "R7"], ["Y2", "G3"], ["R9", "B4"]]
    choices = [("R7",), ("Y2",), ("B4",)]
    assert engine.hands_after("1", hands, choices) == [["B1"], ["G3"], ["R9"]]
    # Each passed card arrives last in the hand on its chooser's left.
    assert engine.hands_after("pass_left", hands, choices) == [
        ["B1", "B4"],
        ["G3", "R7"],
        ["R9", "Y2"],
    ]
    assert hands == [["B1", "R7"], ["Y2", "G3"], ["R9", "B4"]]  # unchanged


def test_the_engine_applies_the_choices_as_hands_after_says():
    state = board_done(4, tokens=tokens_for(4, "pass_left"))
    state = engine.apply(state, engine.legal_moves(state, state.turn)[0])
    chosen = []
    before = state.hands
    for s in engine.to_act(state):
        move = engine.legal_moves(state, s)[-1]
        chosen.append((move.card,))
        state = engine.apply(state, move)
    expected = engine.hands_after("pass_left", before, chosen)
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in expected]


def test_legal_cards_follow_the_suit_led_if_the_hand_can():
    hand = ["R2", "Y5", "R9", "Y5", "G1"]
    assert engine.legal_cards(hand, [], "B", "none") == ["R2", "Y5", "R9", "G1"]
    assert engine.legal_cards(hand, ["Y13"], "B", "none") == ["Y5"]
    assert engine.legal_cards(hand, ["B3"], "B", "none") == ["R2", "Y5", "R9", "G1"]
    # The 1s of the supertrump color are trumps: G1 follows a trump lead, not a green one.
    assert engine.legal_cards(hand, ["B3"], "B", "G") == ["G1"]
    assert engine.legal_cards(["G1", "G7"], ["G9"], "B", "G") == ["G7"]


def test_play_order_is_clockwise_from_the_leader():
    assert engine.play_order(3, 5) == (3, 4, 0, 1, 2)
    assert engine.play_order(0, 3) == (0, 1, 2)
    # Mid-trick: the seat holding the trick so far.
    assert engine.trick_winner(2, ["R5", "R9"], 3, "B", "none") == 0


def test_strengths_say_which_card_takes_the_trick_in_play():
    strength = strengths("B", "G", "R5")
    assert strength["Y13"] == -1  # neither a trump nor red: it cannot take the trick
    assert strength["G1"] > strength["B13"] > strength["R13"] > strength["R5"] >= 0
    # Card by card, a card at least as strong as the holder's takes it: as winning_index says.
    cards = ["R5", "R9", "Y13", "B2", "R13", "B2"]
    holder = 0
    for i in range(1, len(cards)):
        if strength[cards[i]] >= strength[cards[holder]]:
            holder = i
        assert holder == winning_index(cards[: i + 1], "B", "G")


def test_the_color_lines_are_those_of_the_four_colors():
    assert engine.COLOR_LINES == ("trump", "super")
