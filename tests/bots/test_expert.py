"""Expert: Hard's search with a larger budget (correspondence games), reproducible without a
clock, and deciding from the seat's view and its seed alone."""

import itertools
import random

from games.bots import Expert, Hard, make_bot
from games.bots.determinize import determinize
from games.bots.hard import (
    EXPERT_BOARD_SAMPLES,
    EXPERT_SAMPLES,
    EXPERT_SEARCHES,
    EXPERT_SECONDS,
    MAX_SAMPLES,
    SAMPLES,
    SEARCHES,
    SECONDS,
)
from games.engine import BOARD, PlayCard, apply, legal_moves, new_game, to_act, view

from .helpers import mid_round

BOARD_AND_TEAMS = frozenset({"board", "teams"})


def test_expert_has_the_larger_budget_and_leaves_hards_alone():
    expert = make_bot("expert", 1)
    assert isinstance(expert, Expert) and expert.samples == EXPERT_SAMPLES > SAMPLES
    assert expert.seconds == EXPERT_SECONDS == 5.0 and expert.clock is None
    timed = make_bot("expert", 1, seconds=7.0, clock=lambda: 0.0)
    assert timed.samples == MAX_SAMPLES and timed.seconds == 7.0, "with a clock, time is the cap"
    hard = make_bot("hard", 1)
    assert type(hard) is Hard and hard.samples == SAMPLES and hard.seconds == SECONDS


def test_without_a_clock_it_searches_its_deals_and_is_reproducible():
    state = mid_round(4, seed=5, tricks=3, cards=1)
    seen = view(state, state.turn)
    first = make_bot("expert", 3, searches={4: SEARCHES})
    move = first.choose(seen)
    assert first.deals == EXPERT_SAMPLES
    assert move == make_bot("expert", 3, searches={4: SEARCHES}).choose(seen)
    assert move in legal_moves(state, state.turn)


def test_by_default_it_plays_hards_cards_at_every_size():
    """Its card search at 500 deals was never measured stronger than Hard's 100 (BENCHMARKS.md):
    by default Expert's card, like Hard's, is searched over Hard's deals."""
    searched = set()
    for players, seed in itertools.product((3, 4, 5), range(3)):
        state = mid_round(players, seed=seed, tricks=2, cards=1)
        seen = view(state, state.turn)
        expert, hard = make_bot("expert", 3), make_bot("hard", 3)
        assert expert.choose(seen) == hard.choose(seen)
        assert expert.deals == hard.deals
        if hard.deals:
            assert hard.deals == SAMPLES
            searched.add(players)
    assert searched == {3, 4, 5}


def test_the_clock_caps_its_search():
    state = mid_round(5, seed=2, tricks=1, cards=0)
    ticks = itertools.count()
    slow = make_bot("expert", 1, clock=lambda: next(ticks) * 2.0)
    assert isinstance(slow.choose(view(state, state.turn)), PlayCard)
    assert slow.deals == 3  # checked after each deal: 2, 4, then 6 s >= 5 s


def test_it_is_hards_search_with_another_budget():
    """The same deals searched give the same move as Hard's: only the budgets differ (Hard's
    board search has none: it places its tokens as Medium does)."""
    rng = random.Random(8)
    state = new_game(4, seed=8)
    compared = 0
    while not state.results:
        seat = to_act(state)[0]
        seen = view(state, seat)
        if len(seen["legal"]) > 1 and compared < 12:
            expert = Expert(seat, samples=3, board_samples=3, searches={4: BOARD_AND_TEAMS})
            hard = Hard(seat, samples=3, board_samples=3 if state.phase == BOARD else 0)
            assert expert.choose(seen) == hard.choose(seen)
            compared += 1
        state = apply(state, rng.choice(legal_moves(state, seat)))
    assert compared == 12
    assert make_bot("expert", 1).board_samples == EXPERT_BOARD_SAMPLES > 0
    assert make_bot("hard", 1).board_samples == 0


def test_the_same_view_and_seed_give_the_same_move_whatever_the_others_hold():
    rng = random.Random(4)
    state = new_game(4, seed=4)
    checked = 0
    while not state.results:
        seat = to_act(state)[0]
        if rng.random() < 0.15:
            seen = view(state, seat)
            other = determinize(seen, random.Random(99))  # the others' hands dealt anew
            assert other.hands[seat] == state.hands[seat] and view(other, seat) == seen
            bot = Expert(7, samples=3, board_samples=3)
            assert bot.choose(view(other, seat)) == Expert(7, samples=3, board_samples=3).choose(
                seen
            )
            checked += 1
        state = apply(state, rng.choice(legal_moves(state, seat)))
    assert checked >= 3


def test_below_5_players_expert_plays_hards_choice_and_at_5_its_own_searches():
    """At 2 to 4 players, where Expert's own searches lost to Hard or were never measured
    (hard.EXPERT_SEARCHES), a table of Experts plays the very game a table of Hards plays with
    the same seeds: every move, over a whole round; at 5 players the same Experts search their
    own deals for their tokens and their teams."""
    own = {"samples": 7, "board_samples": 5, "team_samples": 9}
    hards = {"hard_samples": 3, "hard_team_samples": 4}
    for players in (2, 3, 4):
        state = new_game(players, seed=11)
        experts = [Expert(seat, **own, **hards) for seat in range(players)]
        hards_bots = [Hard(seat, samples=3, team_samples=4) for seat in range(players)]
        kinds = set()
        while not state.results:
            seat = to_act(state)[0]
            seen = view(state, seat)
            move = experts[seat].choose(seen)
            assert move == hards_bots[seat].choose(seen)
            assert experts[seat].deals == hards_bots[seat].deals
            kinds.add(type(move).__name__)
            state = apply(state, move)
        assert kinds >= {"PlaceToken", "PlayCard"} | ({"ChooseTeams"} if players > 2 else set())
    state = new_game(5, seed=11)
    searched = {}
    while not state.results and len(searched) < 3:
        seat = to_act(state)[0]
        seen = view(state, seat)
        expert = Expert(seat, **own, **hards)
        move = expert.choose(seen)
        if expert.deals:
            searched[type(move).__name__] = expert.deals
        state = apply(state, move)
    assert searched["PlaceToken"] == 5 and searched["ChooseTeams"] == 9


def test_its_searches_can_be_chosen_per_table_size():
    state = mid_round(3, seed=5, tricks=2, cards=1)
    seen = view(state, state.turn)
    mine = Expert(1, samples=6, hard_samples=2, searches={3: SEARCHES})
    hards = Expert(1, samples=6, hard_samples=2, searches={3: frozenset()})
    mine.choose(seen)
    hards.choose(seen)
    assert (mine.deals, hards.deals) == (6, 2)
    assert EXPERT_SEARCHES[2] == EXPERT_SEARCHES[3] == EXPERT_SEARCHES[4] == frozenset()
    assert EXPERT_SEARCHES[5] == BOARD_AND_TEAMS
