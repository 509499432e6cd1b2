"""view(state, seat): exactly what RULES.md lets that seat see."""

import random

import pytest

from games.engine import DISCARD, PassCard, apply, legal_moves, new_game, to_act, view

from .playing import board_done, play_until, strings_in, tokens_for


def test_a_seat_sees_its_hand_and_only_the_sizes_of_the_others():
    state = new_game(4, seed=2)
    seen = view(state, 1)
    assert seen["hand"] == list(state.hands[1])
    assert seen["hand_sizes"] == [15, 15, 15, 15]
    assert seen["legal"] == [] or to_act(state) == (1,)
    assert view(state, state.dealer)["legal"], "the dealer places the first token"


def test_two_player_cards_out_of_play_are_only_counted():
    state = new_game(2, seed=2)
    seen = view(state, 0)
    assert seen["out_of_play"] == 30
    unique = {c for c in state.out_of_play if not c.endswith("1") or c.endswith("11")}
    assert unique and not unique & strings_in(seen)


def test_a_pass_is_secret_until_applied_then_only_the_receiver_learns_it():
    state = board_done(3, tokens=tokens_for(3, rule="pass_left", first=1))
    state = play_until(state, random.Random(1), lambda s: s.phase == DISCARD)
    given = state.hands[0][-1]
    state = apply(state, PassCard(0, given))
    assert view(state, 0)["choice"] == [given]
    assert view(state, 1)["choice"] is None and view(state, 1)["received"] is None
    assert view(state, 1)["chosen"] == [True, False, False]
    for seat in (1, 2):
        state = apply(state, PassCard(seat, state.hands[seat][0]))
    assert view(state, 1)["received"] == given
    assert view(state, 2)["received"] != given or state.hands[1][0] == given
    assert view(state, 0)["choice"] == [given]


def test_a_spectator_sees_the_public_game():
    state = play_until(new_game(5, seed=4), random.Random(2), lambda s: len(s.tricks) == 2)
    seen = view(state, None)
    assert seen["hand"] == [] and seen["legal"] == []
    assert len(seen["tricks"]) == 2
    assert seen["board"]["tokens"] == [[t.seat, t.line, t.box] for t in state.tokens]
    assert seen["terms"] == state.terms.to_json()
    assert seen["teams"] == [list(t) for t in state.teams]


def test_legal_moves_in_the_view_are_the_engines():
    state = play_until(new_game(3, seed=8), random.Random(5), lambda s: s.phase == "tricks")
    seat = to_act(state)[0]
    assert len(view(state, seat)["legal"]) == len(legal_moves(state, seat))


def test_no_such_seat():
    with pytest.raises(ValueError):
        view(new_game(3, seed=1), 3)
