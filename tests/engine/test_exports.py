"""What the engine exports for the rest of the site agrees with the rules it applies: each rule
is stated once, in the engine, and read from there."""

import pytest

from games import engine
from games.engine.cards import VALUE

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
