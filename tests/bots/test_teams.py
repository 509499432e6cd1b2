"""The team search: Medium's best choices of teams, each played out over guessed deals weighed
by the others' board tokens."""

import random

from games.bots import Expert, Hard, Medium, make_bot
from games.bots.board import Deal, options
from games.bots.determinize import determinize
from games.bots.hard import EXPERT_TEAM_SAMPLES, TEAM_OPTIONS, TEAM_SAMPLES
from games.bots.knowledge import Knowledge
from games.bots.medium import guess_choice, team_values
from games.bots.playout import play_out
from games.bots.playout_round import PlayoutRound
from games.engine import (
    DISCARD,
    PASS_LEFT,
    TEAMS,
    TRICKS,
    Discard,
    PassCard,
    apply,
    hands_after,
    legal_moves,
    new_game,
    view,
)

from .helpers import play_until


def team_choices(games: int, players=(3, 4, 5)):
    """Team-choice states of games whose tokens Medium placed, with the first player's view."""
    for seed in range(games):
        state = new_game(players[seed % len(players)], 700 + seed)
        while state.phase != TEAMS:
            state = apply(state, Medium(seed).choose(view(state, state.turn)))
        yield state, view(state, state.turn)


def test_a_deal_finished_with_given_teams_is_the_engines_round_played_as_medium_would():
    for state, _ in team_choices(9):
        rng = random.Random(len(state.tokens))
        choice = rng.choice(legal_moves(state, state.turn))
        scores = Deal(state).finish_teams(choice)

        played = apply(state, choice)
        n = played.players
        terms = played.terms
        choices = [guess_choice(terms, hand, n) for hand in played.hands]
        if played.phase == DISCARD:
            for seat, chosen in enumerate(choices):
                move = (
                    PassCard(seat, chosen[0])
                    if terms.discard == PASS_LEFT
                    else Discard(seat, chosen)
                )
                played = apply(played, move)
        assert played.phase == TRICKS and set(played.teams[0]) == set(choice.team)
        hands = hands_after(terms.discard, state.hands, choices)
        assert [sorted(h) for h in played.hands] == [sorted(h) for h in hands]
        r = PlayoutRound.start(hands, terms, played.teams, played.bonus, terms.first)
        assert scores == play_out(r)
        assert len(scores) == n and any(scores)


def test_hard_weighs_mediums_best_teams_and_is_reproducible():
    for state, seen in team_choices(9):
        legal = legal_moves(state, state.turn)
        weighed = [legal[i] for i in options(team_values(Knowledge(seen), legal), TEAM_OPTIONS)]
        assert len(weighed) == min(TEAM_OPTIONS, len(legal))
        bot = Hard(state.turn, team_samples=6)
        move = bot.choose(seen)
        assert bot.deals == 6
        assert move in [*weighed, Medium(state.turn).choose(seen)]
        assert move == Hard(state.turn, team_samples=6).choose(seen)


def test_the_search_leaves_mediums_teams_when_the_deals_say_another_is_better():
    """Over enough deals the search does not always agree with Medium's heuristic (else it
    would add nothing)."""
    differ = 0
    for _, seen in team_choices(24):
        differ += Hard(1, team_samples=40).choose(seen) != Medium(1).choose(seen)
    assert differ >= 3


def test_without_team_deals_the_teams_are_mediums():
    for _, seen in team_choices(9):
        assert Hard(1, team_samples=0).choose(seen) == Medium(1).choose(seen)


def test_the_same_view_and_seed_give_the_same_teams_whatever_the_others_hold():
    for n, (state, seen) in enumerate(team_choices(9)):
        other = determinize(seen, random.Random(n))
        assert view(other, state.turn) == seen and other.hands != state.hands
        assert Hard(1, team_samples=5).choose(view(other, state.turn)) == Hard(
            1, team_samples=5
        ).choose(seen)


def test_each_level_has_its_team_budget():
    assert make_bot("hard", 1).team_samples == TEAM_SAMPLES > 0
    assert make_bot("expert", 1).team_samples == EXPERT_TEAM_SAMPLES > TEAM_SAMPLES
    assert Expert(1, team_samples=3).team_samples == 3


def test_a_random_game_reaches_every_team_choice_with_a_legal_search():
    """At 3, 4 and 5 players, after random tokens too, the search gives a legal choice."""
    for seed in range(6):
        rng = random.Random(seed)
        state = play_until(new_game(3 + seed % 3, seed), rng, lambda s: s.phase == TEAMS)
        seen = view(state, state.turn)
        assert Hard(seed, team_samples=3).choose(seen) in legal_moves(state, state.turn)
