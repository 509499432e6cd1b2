"""A game from deal to game over, one rule at a time (RULES.md, "A round")."""

import random
from collections import Counter

import pytest

from games.engine import (
    BOARD,
    DISCARD,
    OVER,
    SETUPS,
    TEAMS,
    TRICKS,
    ChooseTeams,
    Discard,
    IllegalMove,
    PassCard,
    PlaceToken,
    PlayCard,
    apply,
    game_standings,
    legal_moves,
    new_game,
    replay,
    to_act,
    with_deal,
)
from games.engine.cards import VALUE, deck

from .playing import board_done, card_places, full_deck, play_until, random_move, tokens_for


def refused(state, move, code):
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert caught.value.code == code
    assert str(caught.value)  # a sentence a player can read
    return caught.value


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal(players):
    setup = SETUPS[players]
    state = new_game(players, seed=3)
    assert [len(h) for h in state.hands] == [setup.hand] * players
    assert len(state.out_of_play) == (30 if players == 2 else 0)
    assert card_places(state) == full_deck(players)
    assert state.phase == BOARD and to_act(state) == (state.dealer,)
    assert state.dealer == state.first_dealer


def test_three_players_play_without_11_12_13():
    cards = deck(3)
    assert len(cards) == 48
    assert max(VALUE[c] for c in cards) == 10
    assert Counter(cards)["G1"] == 3


def test_same_seed_same_game_other_seed_other_deal():
    assert new_game(4, seed=11) == new_game(4, seed=11)
    assert new_game(4, seed=11).hands != new_game(4, seed=12).hands


def test_first_dealer_is_drawn_from_the_seed():
    dealers = {new_game(5, seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_board_turns_go_clockwise_from_the_dealer(players):
    state = with_deal(new_game(players, 1), 2 % players, new_game(players, 1).hands)
    seen = []
    rng = random.Random(players)
    while state.phase == BOARD:
        seen.append(state.turn)
        state = apply(state, rng.choice(legal_moves(state, state.turn)))
    assert len(seen) == players + 14
    assert seen == [(2 % players + k) % players for k in range(players + 14)]
    assert all(len(state.open[line]) == 1 for line in state.open)


def test_board_refusals():
    state = new_game(3, seed=5)
    state = with_deal(state, 0, state.hands)
    refused(state, PlaceToken(1, "trump", "R"), "not_your_turn")
    refused(state, PlaceToken(0, "first", "3"), "unused_character")
    refused(state, PlaceToken(0, "discard", "3"), "no_such_box")
    state = apply(state, PlaceToken(0, "trump", "R"))
    refused(state, PlaceToken(1, "trump", "R"), "box_covered")
    state = apply(state, PlaceToken(1, "trump", "Y"))
    state = apply(state, PlaceToken(2, "trump", "G"))
    refused(state, PlaceToken(0, "trump", "B"), "last_box")
    assert PlaceToken(0, "trump", "B") not in legal_moves(state, 0)
    refused(state, PlayCard(0, state.hands[0][0]), "wrong_phase")
    refused(state, Discard(0, state.hands[0][:1]), "wrong_phase")


def test_two_players_skip_the_team_choice():
    state = board_done(2, tokens=tokens_for(2, rule="1", first=1))
    assert state.terms.first == 1
    assert state.teams == ((1,), (0,)) and state.bonus is None
    assert state.phase == DISCARD
    refused(state, ChooseTeams(1, (1,), None), "wrong_phase")


@pytest.mark.parametrize(
    "players, team, bonus, teams, holder",
    [
        (3, (1,), None, ((1,), (0, 2)), 1),
        (3, (1, 0), None, ((0, 1), (2,)), 2),
        (4, (1, 3), None, ((1, 3), (0, 2)), None),
        (5, (1, 4), 4, ((1, 4), (0, 2, 3)), 4),
        (5, (1, 2, 3), 0, ((1, 2, 3), (0, 4)), 0),
    ],
)
def test_the_first_player_chooses_teams(players, team, bonus, teams, holder):
    state = board_done(players, tokens=tokens_for(players, rule="none", first=1))
    assert state.phase == TEAMS and to_act(state) == (1,)
    choice = ChooseTeams(1, team, bonus)
    assert choice in legal_moves(state, 1) or bonus is None
    refused(state, ChooseTeams(0, team, bonus), "not_your_turn")
    state = apply(state, choice)
    assert (state.teams, state.bonus) == (teams, holder)
    # discard "none": straight to the first trick, led by the first player
    assert state.phase == TRICKS and to_act(state) == (1,)


def test_team_choice_refusals():
    state = board_done(5, tokens=tokens_for(5, first=1))
    refused(state, ChooseTeams(1, (1, 2), None), "bonus_holder")
    refused(state, ChooseTeams(1, (1, 2), 3), "bonus_holder")
    refused(state, ChooseTeams(1, (1,), None), "team_size")
    refused(state, ChooseTeams(1, (2, 3), 2), "team_without_first")
    refused(state, ChooseTeams(1, (1, 1), 1), "team_twice")
    refused(state, ChooseTeams(1, (1, 7), 1), "no_such_seat")
    assert len(legal_moves(state, 1)) == 4 * 2 + 6 * 2


def test_discards_are_secret_and_applied_only_when_all_have_chosen():
    state = board_done(4, tokens=tokens_for(4, rule="2", first=1))
    state = apply(state, ChooseTeams(1, (1, 3), None))
    assert state.phase == DISCARD and set(to_act(state)) == {0, 1, 2, 3}
    hands = state.hands
    for seat in (2, 0, 3):
        state = apply(state, Discard(seat, hands[seat][:2]))
        assert state.hands == hands, "nothing leaves a hand before everyone has chosen"
        refused(state, Discard(seat, hands[seat][2:4]), "already_chosen")
    assert to_act(state) == (1,)
    refused(state, Discard(1, hands[1][:1]), "card_count")
    refused(state, PassCard(1, hands[1][0]), "must_discard")
    state = apply(state, Discard(1, hands[1][-2:]))
    assert state.phase == TRICKS
    assert [len(h) for h in state.hands] == [13] * 4
    assert Counter(state.hands[1]) + Counter(hands[1][-2:]) == Counter(hands[1])
    assert card_places(state) == full_deck(4)


def test_passes_go_left_after_everyone_has_chosen():
    state = board_done(3, tokens=tokens_for(3, rule="pass_left", first=1))
    state = apply(state, ChooseTeams(1, (1,), None))
    hands = state.hands
    passed = {s: hands[s][-1] for s in range(3)}
    refused(state, Discard(0, (passed[0],)), "must_pass")
    for seat in (0, 1):
        state = apply(state, PassCard(seat, passed[seat]))
        assert state.hands == hands
    state = apply(state, PassCard(2, passed[2]))
    for seat in range(3):
        received = passed[(seat - 1) % 3]
        expected = Counter(hands[seat]) - Counter([passed[seat]]) + Counter([received])
        assert Counter(state.hands[seat]) == expected


def test_except_1_refuses_a_1_while_another_card_is_held():
    state = board_done(4, tokens=tokens_for(4, rule="except_1", first=1))
    state = apply(state, ChooseTeams(1, (1, 2), None))
    hand = state.hands[0]
    one = next(c for c in hand if VALUE[c] == 1)
    refused(state, Discard(0, (one,)), "discard_a_1")
    assert all(VALUE[m.cards[0]] != 1 for m in legal_moves(state, 0))


KNOWN_HANDS_4 = [
    # seat 0 holds only green and the red 1; everyone else as dealt
    ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11", "G12", "G13", "G1", "R1"],
    ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12", "B13", "B1", "B1"],
    ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "R1", "R1", "G1"],
    ["Y1", "Y1", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "Y10", "Y11", "Y12", "Y13"],
]


def known_trick_state():
    """4 players; first player 1, trump Y, supertrump B, 2 points, no discard; {1,3} v {0,2}."""
    state = board_done(4, hands=KNOWN_HANDS_4, tokens=tokens_for(4, rule="none", first=1))
    return apply(state, ChooseTeams(1, (1, 3), None))


def test_trick_play_follows_suit_and_the_winner_leads():
    state = known_trick_state()
    refused(state, PlayCard(2, "R2"), "not_your_turn")
    refused(state, PlayCard(1, "R2"), "not_in_hand")
    state = apply(state, PlayCard(1, "B7"))  # blue led: blue 1s are supertrumps, not blue
    assert {m.card for m in legal_moves(state, 2)} == {
        "R2",
        "R3",
        "R4",
        "R5",
        "R6",
        "R7",
        "R8",
        "R9",
        "R10",
        "R11",
        "R12",
        "R13",
        "R1",
        "G1",
    }
    state = apply(state, PlayCard(2, "R13"))
    state = apply(state, PlayCard(3, "Y2"))  # trump
    state = apply(state, PlayCard(0, "G1"))
    (trick,) = state.tricks
    assert trick.winner == 3 and trick.loot == ("G1",)
    assert state.tricks_won == (0, 0, 0, 1) and state.loot_won == (0, 0, 0, 1)
    assert to_act(state) == (3,)
    state = apply(state, PlayCard(3, "Y13"))
    assert {m.card for m in legal_moves(state, 0)} == set(state.hands[0])  # no trump: anything
    state = apply(state, PlayCard(0, "G2"))
    refused(state, PlayCard(1, "B9"), "must_follow")  # holds the blue 1s: supertrumps are trumps
    state = apply(state, PlayCard(1, "B1"))
    state = apply(state, PlayCard(2, "R3"))
    assert state.tricks[-1].winner == 1  # the supertrump beats the trump 13
    assert state.tricks[-1].loot == ()  # no 1 from the other team


def play_round(state, rng):
    rounds = len(state.results)
    return play_until(state, rng, lambda s: len(s.results) > rounds)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_round_is_scored_and_the_deal_passes_left(players):
    state = new_game(players, seed=21)
    after = play_round(state, random.Random(1))
    (result,) = after.results
    assert result.dealer == state.dealer
    assert (
        sum(result.tricks)
        == SETUPS[players].hand
        - {"none": 0, "1": 1, "2": 2, "except_1": 1, "pass_left": 0}[result.terms.discard]
    )
    team_totals = [sum(result.tricks[s] + result.loot[s] for s in team) for team in result.teams]
    for team, total in zip(result.teams, team_totals, strict=True):
        for s in team:
            assert result.scores[s] == total * result.terms.points * (2 if s == result.bonus else 1)
    assert after.dealer == (state.dealer + 1) % players
    assert after.phase == BOARD and after.round == 2
    assert card_places(after) == full_deck(players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_after_its_rounds_and_everyone_deals_equally(players):
    state = play_until(new_game(players, seed=players), random.Random(2), lambda s: False)
    assert state.phase == OVER and to_act(state) == ()
    assert len(state.results) == SETUPS[players].rounds
    dealt = Counter(r.dealer for r in state.results)
    assert set(dealt.values()) == {SETUPS[players].rounds // players}
    standings = game_standings(state)
    assert standings.over
    best = max(standings.totals)
    assert standings.winners == [s for s, t in enumerate(standings.totals) if t == best]
    refused(state, PlaceToken(0, "trump", "R"), "game_over")
    assert all(legal_moves(state, s) == [] for s in range(players))


def test_point_target_ends_the_game_after_the_round_that_reaches_it():
    state = play_until(new_game(4, seed=9, target=60), random.Random(3), lambda s: False)
    totals = [0] * 4
    for number, result in enumerate(state.results, start=1):
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        assert (max(totals) >= 60) == (number == len(state.results))


def test_replaying_the_log_rebuilds_the_game():
    rng = random.Random(4)
    state, log = new_game(5, seed=77), []
    for _ in range(150):
        move = random_move(state, rng)
        log.append(move)
        state = apply(state, move)
    assert replay(5, 77, None, log) == state


def test_a_refused_move_changes_nothing():
    state = known_trick_state()
    before = state.__dict__.copy()
    refused(state, PlayCard(1, "Y2"), "not_in_hand")
    assert state.__dict__ == before


def test_with_deal_refuses_impossible_hands():
    state = new_game(4, seed=1)
    with pytest.raises(ValueError):
        with_deal(state, 0, [["B1"] * 15] * 4)
    with pytest.raises(ValueError):
        with_deal(state, 0, state.hands[:3])


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_is_2_to_5(players):
    with pytest.raises(ValueError):
        new_game(players, seed=1)
