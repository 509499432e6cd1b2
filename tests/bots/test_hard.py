"""Hard: a search over deals of the hidden cards, within a budget of deals or of time."""

import itertools
import random

from games.bots.evaluate import keep_values
from games.bots.hard import DISCARD_OPTIONS, Hard, _cards, equivalent_cards, prefer
from games.bots.knowledge import Knowledge
from games.bots.medium import Medium
from games.engine import (
    BOARD,
    DISCARD,
    TEAMS,
    PlayCard,
    apply,
    legal_moves,
    new_game,
    to_act,
    view,
)

from .helpers import SEAT0, SEAT1, SEAT2, SEAT3, mid_round, play, play_until, tricks_round


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


def test_the_board_is_mediums_and_so_are_the_teams_without_team_deals():
    phases = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = new_game(4, seed)
        while state.phase in (BOARD, TEAMS):
            seat = to_act(state)[0]
            seen = view(state, seat)
            assert Hard(seed, samples=2, team_samples=0).choose(seen) == Medium(seed).choose(seen)
            phases.add(state.phase)
            state = apply(state, rng.choice(legal_moves(state, seat)))
    assert phases == {BOARD, TEAMS}


def test_the_discard_is_searched_among_the_cards_medium_would_let_go():
    searched = 0
    for seed in range(8):
        state = play_until(new_game(4, seed), random.Random(seed), lambda s: s.phase == DISCARD)
        if state.phase != DISCARD:
            continue
        seat = to_act(state)[0]
        seen = view(state, seat)
        terms = state.terms
        keep = keep_values(state.hands[seat], terms.trump, terms.super, 4, terms.points)
        legal = legal_moves(state, seat)
        worst = sorted(legal, key=lambda m: sum(keep[c] for c in _cards(m)))[:DISCARD_OPTIONS]
        bot = Hard(seed, samples=3)
        move = bot.choose(seen)
        assert move in [*worst, Medium(seed).choose(seen)]
        assert move == Hard(seed, samples=3).choose(seen)
        searched += bot.deals == 3
    assert searched >= 3


def test_it_keeps_mediums_choice_unless_the_search_beats_it_clearly():
    medium = 0
    assert prefer([[1.0, 2.0]] * 2, medium) == 0  # too few deals to judge
    assert prefer([[1.0, 2.0], [1.0, 2.5], [1.0, 2.2]], medium) == 1  # better every time
    assert prefer([[1.0, 9.0], [1.0, -6.0], [1.0, -0.5]], medium) == 0  # better on luck
    assert prefer([[3.0, 2.0], [3.0, 2.5], [3.0, 2.2]], medium) == 0  # Medium's is best


def test_cards_with_nothing_left_between_them_play_alike():
    state = play(tricks_round(2, [SEAT0, SEAT1, SEAT2, SEAT3]), "G10", "G3", "G5")
    k = Knowledge(view(state, 0))
    cards = ["G1", "G4", "G9", "G11", "G12"]
    assert equivalent_cards(k, cards) == [["G1"], ["G4"], ["G9"], ["G11", "G12"]]


def test_hard_draws_its_deals_apart_from_its_tie_breaks():
    state = mid_round(4, seed=5, tricks=3, cards=1)
    bot = Hard(3, samples=4)
    bot.choose(view(state, state.turn))
    assert bot.random.random() == Medium(3).random.random()
