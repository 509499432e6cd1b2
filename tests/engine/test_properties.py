"""Properties of random legal play, for 2 to 5 players (hypothesis)."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    OVER,
    SETUPS,
    ChooseTeams,
    Discard,
    IllegalMove,
    PassCard,
    PlaceToken,
    PlayCard,
    apply,
    legal_moves,
    move_from_json,
    move_to_json,
    new_game,
    replay,
    state_from_json,
    state_to_json,
    to_act,
    view,
)
from games.engine.board import BOXES
from games.engine.cards import ALL_CARDS, VALUE

from .playing import card_places, full_deck, random_move, strings_in

players = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2**64)
SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def any_move(rng: random.Random, n: int):
    """A move of any kind, legal or not."""
    seat = rng.randrange(-1, n + 1)
    kind = rng.randrange(5)
    c = rng.choice(ALL_CARDS)
    if kind == 0:
        line = rng.choice(list(BOXES))
        return PlaceToken(seat, line, rng.choice(BOXES[line]))
    if kind == 1:
        team = tuple(rng.sample(range(n), rng.randint(1, n)))
        return ChooseTeams(seat, team, rng.choice([None, *range(n)]))
    if kind == 2:
        return Discard(seat, tuple(rng.choice(ALL_CARDS) for _ in range(rng.randint(0, 3))))
    return (PassCard if kind == 3 else PlayCard)(seat, c)


@SLOW
@given(players, seeds)
def test_random_play_finishes_after_the_rounds_and_keeps_every_card_in_one_place(n, seed):
    rng = random.Random(seed)
    state = new_game(n, seed)
    while state.phase != OVER:
        state = apply(state, random_move(state, rng))
        assert card_places(state) == full_deck(n)
    assert len(state.results) == SETUPS[n].rounds
    assert to_act(state) == ()


@SLOW
@given(players, seeds, st.integers(min_value=1, max_value=200))
def test_target_games_end_once_someone_reaches_the_target(n, seed, target):
    rng = random.Random(seed)
    state = new_game(n, seed, target=target)
    while state.phase != OVER:
        state = apply(state, random_move(state, rng))
    totals = [sum(r.scores[s] for r in state.results) for s in range(n)]
    before = [t - s for t, s in zip(totals, state.results[-1].scores, strict=True)]
    assert max(totals) >= target > max(before)


def same_choice(move, listed, n) -> bool:
    """Whether ``move`` is the listed legal move, written in another order."""
    if type(move) is not type(listed) or move.seat != listed.seat:
        return False
    if isinstance(move, Discard):
        return sorted(move.cards) == sorted(listed.cards)
    if isinstance(move, ChooseTeams):
        bonus_free = n == 3 and move.bonus is None  # with 3 players the solo player holds it
        return set(move.team) == set(listed.team) and (bonus_free or move.bonus == listed.bonus)
    return move == listed


@SLOW
@given(players, seeds)
def test_a_refused_move_changes_nothing_and_legal_moves_are_accepted(n, seed):
    rng = random.Random(seed)
    state = new_game(n, seed)
    while state.phase != OVER:
        before = state_to_json(state)
        for _ in range(3):
            move = any_move(rng, n)
            if rng.random() < 0.3:  # a legal move's fields with another seat: often refused
                seat = rng.choice(to_act(state))
                move = rng.choice(legal_moves(state, seat))._replace(seat=rng.randrange(n))
            legal = 0 <= move.seat < n and any(
                same_choice(move, m, n) for m in legal_moves(state, move.seat)
            )
            try:
                apply(state, move)
            except IllegalMove as refusal:
                assert not legal, f"{move} is listed as legal but refused: {refusal}"
            else:
                assert legal, f"{move} was accepted but is not listed as legal"
            assert state_to_json(state) == before
        state = apply(state, random_move(state, rng))


def hidden_from(state, seat) -> set[str]:
    """Cards that ``seat`` may not see and that exist only once (every value above 1)."""
    hidden = set(state.out_of_play)
    for other in range(state.players):
        if other != seat:
            hidden.update(state.hands[other])
            if state.choices[other] and state.terms.discard != "pass_left":
                hidden.update(state.choices[other])
    hidden -= set(state.hands[seat]) | set(state.choices[seat] or ())
    return {c for c in hidden if VALUE[c] > 1}


@SLOW
@given(players, seeds)
def test_a_view_shows_no_hidden_card_and_no_seed(n, seed):
    rng = random.Random(seed)
    state = new_game(n, seed)
    for _ in range(3 * (n + 14) + 80):
        if state.phase == OVER:
            break
        for seat in [None, *range(n)]:
            seen = view(state, seat)
            assert "seed" not in strings_in(seen)
            assert json.loads(json.dumps(seen)) == seen
            if seat is None:
                assert seen["hand"] == [] and seen["choice"] is None and seen["legal"] == []
                assert not strings_in(seen) & {c for h in state.hands for c in h if VALUE[c] > 1}
            else:
                assert seen["hand"] == list(state.hands[seat])
                assert not strings_in(seen) & hidden_from(state, seat)
        state = apply(state, random_move(state, rng))


def swap_hidden(state, seat, rng):
    """The same state but for two cards swapped between two other seats' hands."""
    others = [s for s in range(state.players) if s != seat and state.hands[s]]
    if len(others) < 2:
        return None
    a, b = rng.sample(others, 2)
    hands = [list(h) for h in state.hands]
    i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    swapped = state.evolve()
    swapped.hands = tuple(tuple(h) for h in hands)
    return swapped


@SLOW
@given(players, seeds)
def test_other_hands_do_not_change_a_view(n, seed):
    rng = random.Random(seed)
    state = new_game(n, seed)
    for _ in range(200):
        if state.phase == OVER:
            break
        seat = rng.randrange(n)
        if state.phase != "discard":  # pending choices must stay in their owners' hands
            swapped = swap_hidden(state, seat, rng)
            if swapped is not None:
                assert view(swapped, seat) == view(state, seat)
        state = apply(state, random_move(state, rng))


@SLOW
@given(players, seeds, st.integers(min_value=0, max_value=900))
def test_seed_and_log_replay_the_state_and_json_round_trips(n, seed, length):
    rng = random.Random(seed)
    state, log = new_game(n, seed), []
    for _ in range(length):
        if state.phase == OVER:
            break
        move = random_move(state, rng)
        assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move
        log.append(move)
        state = apply(state, move)
        stored = json.loads(json.dumps(state_to_json(state)))
        assert state_from_json(stored) == state
    assert replay(n, seed, None, log) == state
