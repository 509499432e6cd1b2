"""The board search: tokens weighed by finishing the round over guessed deals."""

import random
import statistics
from statistics import fmean

from games.bots import Hard, Medium
from games.bots.board import OPTIONS, Belief, Deal, options
from games.bots.determinize import determinize
from games.bots.hard import weighted_best
from games.bots.knowledge import Knowledge, all_of
from games.bots.medium import (
    FIRST_WORTH,
    board_values,
    estimate_tricks,
    guess_choice,
    hand_worths,
    teams_values,
    token_values,
)
from games.bots.playout import play_out
from games.bots.playout_round import PlayoutRound
from games.engine import (
    BOARD,
    TEAMS,
    PlaceToken,
    apply,
    hands_after,
    legal_moves,
    new_game,
    to_act,
    view,
)


def boards(games: int):
    """Board-phase states of random games at 2 to 5 players, with the seat to place a token."""
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rng.choice((2, 3, 4, 5)), seed)
        while state.phase == BOARD:
            seat = to_act(state)[0]
            yield state, seat
            state = apply(state, rng.choice(legal_moves(state, seat)))


def test_board_values_are_the_board_averaged_box_by_box():
    """Medium's board values, worked out from the lines' sums, are the averages over every
    trump and supertrump still open, as the heuristic states them."""
    checked = 0
    for state, seat in boards(30):
        worth = hand_worths(state.hands[seat], state.players)
        legal = legal_moves(state, seat)
        expected = []
        for move in legal:
            boxes = dict(state.open)
            boxes[move.line] = [b for b in boxes[move.line] if b != move.box]
            hand = fmean(worth[t, s] for t in boxes["trump"] for s in boxes["super"])
            points = [int(p) for p in boxes["points"]]
            first = 1 / len(boxes["first"]) if str(seat) in boxes["first"] else 0.0
            expected.append(hand * fmean(points) + FIRST_WORTH * first * fmean(map(abs, points)))
        values = board_values(worth, seat, state.open, legal)
        assert all(abs(a - b) < 1e-12 for a, b in zip(values, expected, strict=True))
        checked += 1
    assert checked > 150


def test_a_finished_round_is_the_engines_round_played_as_medium_would():
    """``Deal.finish`` places the token, then every board token, the teams, the discards and
    the cards as the engine takes them, each chosen by Medium's rule for the deal's hands."""
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(rng.choice((2, 3, 4, 5)), seed)
        for _ in range(rng.randrange(state.players + 14)):
            state = apply(state, rng.choice(legal_moves(state, state.turn)))
        token = rng.choice(legal_moves(state, state.turn))
        scores = Deal(state).finish(token)

        n = state.players
        played = apply(state, token)
        while played.phase == BOARD:
            seat = played.turn
            legal = legal_moves(played, seat)
            values = board_values(hand_worths(played.hands[seat], n), seat, played.open, legal)
            played = apply(played, legal[values.index(max(values))])
        terms = played.terms
        if played.phase == TEAMS:
            first = terms.first
            legal = legal_moves(played, first)
            estimates = estimate_tricks(played.hands[first], first, n, terms, played.tokens)
            values = teams_values(estimates, first, terms.points, [0] * n, legal)
            played = apply(played, legal[values.index(max(values))])
        choices = [guess_choice(terms, hand, n) for hand in played.hands]
        hands = hands_after(terms.discard, played.hands, choices)
        r = PlayoutRound.start(hands, terms, played.teams, played.bonus, terms.first)
        assert scores == play_out(r), seed
        assert len(scores) == n and any(scores)


def test_hard_weighs_mediums_best_tokens_and_is_reproducible():
    searched = 0
    for state, seat in boards(3):
        seen = view(state, seat)
        legal = legal_moves(state, seat)
        k = Knowledge(seen)
        weighed = [legal[i] for i in options(token_values(k, legal))]
        assert len(weighed) == min(OPTIONS, len(legal))
        bot = Hard(seat, samples=2, board_samples=4)
        move = bot.choose(seen)
        assert move in [*weighed, Medium(seat).choose(seen)]
        assert move == Hard(seat, samples=2, board_samples=4).choose(seen)
        searched += bot.deals == 4
    assert searched > 25


def test_hards_board_is_mediums_without_board_deals():
    for state, seat in boards(3):
        seen = view(state, seat)
        assert Hard(seat, samples=2, board_samples=0).choose(seen) == Medium(seat).choose(seen)


def test_the_same_view_and_seed_give_the_same_token_whatever_the_others_hold():
    checked = 0
    for state, seat in boards(2):
        seen = view(state, seat)
        other = determinize(seen, random.Random(checked))
        assert view(other, seat) == seen and other.hands != state.hands
        assert Hard(1, board_samples=4).choose(view(other, seat)) == Hard(
            1, board_samples=4
        ).choose(seen)
        checked += 1
    assert checked > 15


def medium_boards(players: int, games: int):
    """The last board decision of each of ``games`` rounds whose tokens Medium placed."""
    for seed in range(games):
        state = new_game(players, 500 + seed)
        while len(state.tokens) < players + 13:
            seen = view(state, state.turn)
            state = apply(state, Medium(seed).choose(seen))
        yield state


def test_the_belief_weighs_the_true_hands_above_most_guesses():
    """Medium's tokens say something of its hand: the real deal is more likely than most
    deals guessed without the tokens, and a belief that ignores the tokens weighs all alike."""
    above = []
    for state in medium_boards(4, 8):
        seen = view(state, state.turn)
        belief = Belief(seen)
        assert len(belief.tokens) == sum(1 for t in state.tokens if t.seat != state.turn)
        rng = random.Random(1)
        guesses = [belief.log_weight(determinize(seen, rng).hands) for _ in range(40)]
        truth = belief.log_weight(state.hands)
        above.append(sum(truth > g for g in guesses) / len(guesses))
        flat = Belief(seen, sharpness=0.0)
        assert flat.log_weight(state.hands) == flat.log_weight(determinize(seen, rng).hands)
    assert statistics.fmean(above) > 0.75, above


def test_the_weighted_best_follows_the_weights_and_keeps_medium_on_a_tie():
    deals = [[1.0, 5.0], [2.0, 0.0]]
    assert weighted_best(deals, [1.0, 0.0], 0) == 1  # only the first deal counts
    assert weighted_best(deals, [0.0, 1.0], 1) == 0  # only the second
    assert weighted_best([[1.0, 1.0]], [1.0], 1) == 1  # a tie: Medium's


def test_a_deal_given_the_beliefs_worths_finishes_every_token_as_it_would_alone():
    """The board search hands each deal the others' worths its belief worked out (under every
    trump and supertrump): the rounds finished from it are the same, to the point."""
    checked = 0
    for state, seat in boards(3):
        seen = view(state, seat)
        belief = Belief(seen)
        rng = random.Random(checked)
        for _ in range(2):
            deal = determinize(seen, rng)
            known: dict = {}
            weight = belief.log_weight(deal.hands, known)
            assert weight == belief.log_weight(deal.hands)
            assert set(known) == {t[0] for t in belief.tokens}
            for token in all_of(PlaceToken, legal_moves(deal, seat))[:3]:
                assert Deal(deal, known).finish(token) == Deal(deal).finish(token)
            checked += 1
    assert checked > 20
