"""``apply`` refuses anything that is not a well-formed move with ``IllegalMove``, in every phase,
and leaves the state as it was: no TypeError, no AttributeError, and a bool is never a seat."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    BOARD,
    DISCARD,
    OVER,
    TEAMS,
    TRICKS,
    ChooseTeams,
    Discard,
    IllegalMove,
    PassCard,
    PlaceToken,
    PlayCard,
    apply,
    legal_moves,
    new_game,
    state_to_json,
    to_act,
)

from .playing import play_until


def state_in(phase: str, players: int = 5, seed: int = 3, rule: str | None = None):
    """A 5-player game in ``phase`` (and, for the discard phase, under ``rule`` if given)."""
    rng = random.Random(seed)
    for attempt in range(200):
        state = play_until(
            new_game(players, seed + attempt), rng, lambda s: s.phase in (phase, OVER)
        )
        if state.phase == phase and (rule is None or state.terms.discard == rule):
            return state
    raise AssertionError(f"no {phase} phase found")


PHASES = {
    "board": lambda: state_in(BOARD),
    "teams": lambda: state_in(TEAMS),
    "discard": lambda: state_in(DISCARD, rule="1"),
    "pass": lambda: state_in(DISCARD, rule="pass_left"),
    "tricks": lambda: state_in(TRICKS),
    "over": lambda: play_until(new_game(3, 1, target=1), random.Random(1), lambda s: False),
}


def refused(state, move) -> str:
    before = state_to_json(state)
    with pytest.raises(IllegalMove) as refusal:
        apply(state, move)
    assert state_to_json(state) == before
    return refusal.value.code


def seat_one_to_act(phase: str):
    """A 5-player game in ``phase`` where seat 1 may act."""
    rng = random.Random(5)
    for seed in range(300):
        state = play_until(
            new_game(5, seed), rng, lambda s: s.phase in (phase, OVER) and 1 in to_act(s)
        )
        if state.phase == phase:
            return state
    raise AssertionError(f"seat 1 never acts in the {phase} phase")


@pytest.mark.parametrize("phase", [BOARD, TEAMS, DISCARD, TRICKS])
def test_a_bool_is_never_a_seat(phase):
    """True == 1: the card-play path took True for seat 1."""
    state = seat_one_to_act(phase)
    for move in legal_moves(state, 1)[:5]:
        assert refused(state, move._replace(seat=True)) == "malformed"
        apply(state, move)  # the same move with the int seat is fine


MALFORMED = [
    None,
    0,
    "Y7",
    {"seat": 0, "play": "Y7"},
    ("token", 0),
    object(),
    PlaceToken(0, ["trump"], "R"),
    PlaceToken(0, "trump", ["R"]),
    PlaceToken(0, "trump", None),
    PlaceToken(True, "trump", "R"),
    PlaceToken(0.0, "trump", "R"),
    PlaceToken("0", "trump", "R"),
    PlaceToken(0, "trump", "R", kind="play"),
    ChooseTeams(0, None, None),
    ChooseTeams(0, "01", None),
    ChooseTeams(0, (0, True), None),
    ChooseTeams(0, (0, 1), False),
    ChooseTeams(0, (0, 1), "1"),
    ChooseTeams(0, {0: 1}, None),
    Discard(0, None),
    Discard(0, "Y7"),
    Discard(0, (None,)),
    Discard(0, (["Y7"],)),
    Discard(0, ("Y7",), kind="pass"),
    PassCard(0, None),
    PassCard(0, ["Y7"]),
    PassCard(0, ("Y7",)),
    PlayCard(0, None),
    PlayCard(0, ["Y7"]),
    PlayCard(None, "Y7"),
    PlayCard(0, "Y7", kind="pass"),
]


@pytest.mark.parametrize("phase", list(PHASES))
def test_malformed_moves_are_refused_in_every_phase(phase):
    state = PHASES[phase]()
    for move in MALFORMED:
        code = refused(state, move)
        # A malformed move may be refused for its form or, when its form is fine and only its
        # values are odd, by the rules: never by an exception of another kind.
        assert code, move


def test_a_well_formed_move_of_the_wrong_kind_name_is_refused_on_the_card_path():
    state = PHASES["tricks"]()
    move = legal_moves(state, state.turn)[0]
    assert refused(state, move._replace(kind="pass")) == "malformed"
    assert refused(state, PlayCard(state.turn, ["Y7"])) == "malformed"
    assert refused(state, PlayCard(state.turn, None)) == "malformed"


def objects():
    """Anything: scalars, containers, and move tuples whose fields are anything."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-3, max_value=6),
        st.floats(allow_nan=False),
        st.text(max_size=4),
        st.sampled_from(["Y7", "B1", "R13", "G10", "trump", "R", "first", "0", "pass_left"]),
    )
    values = st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner), max_leaves=6
    )
    moves = st.one_of(
        st.builds(PlaceToken, values, values, values),
        st.builds(ChooseTeams, values, values, values),
        st.builds(Discard, values, values),
        st.builds(PassCard, values, values),
        st.builds(PlayCard, values, values),
        st.builds(PlayCard, values, values, values),
    )
    return st.one_of(values, moves, st.dictionaries(st.text(max_size=5), values, max_size=3))


STATES = {name: make() for name, make in PHASES.items()}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(STATES)), objects())
def test_apply_takes_any_object_and_answers_a_new_state_or_illegal_move(phase, move):
    state = STATES[phase]
    before = state_to_json(state)
    try:
        after = apply(state, move)
    except IllegalMove:
        assert state_to_json(state) == before
        return
    # Accepted: then it was a real move with exact types, made by a seat that may act.
    assert type(move) in (PlaceToken, ChooseTeams, Discard, PassCard, PlayCard)
    assert type(move.seat) is int and move.seat in to_act(state)
    assert after is not state
