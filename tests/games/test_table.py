"""What the table shows, worked out from a seat's view (``games.table``): seats around the
viewer, the card winning a trick, why a card may not be played, the board, team choice, the
round's arithmetic and the final ranking. Checked against the engine over random games."""

import random
from types import SimpleNamespace

import pytest
from django.utils import translation

from accounts.models import Shown
from games import engine, results, selectors, table
from games.engine import ChooseTeams, PlayCard, apply, view
from games.engine.cards import VALUE
from games.templatetags import nyet
from tests.engine.playing import board_done, play_until, random_states, tokens_for


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def infos(players: int):
    return [
        SimpleNamespace(
            position=p,
            name=f"player {p}",
            character=str(p),
            is_bot=p > 0,
            username=f"p{p}",
            deadline=None,
            paused=False,
            autopilot=False,
            resigned=False,
        )
        for p in range(players)
    ]


# --- seats around the table -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_viewer_sits_at_the_bottom_and_the_next_player_on_the_left(players):
    for viewer in range(players):
        places = {seat: table.place(seat, viewer, players) for seat in range(players)}
        assert places[viewer] == (0, "s")
        assert places[(viewer + 1) % players][1] == ("n" if players == 2 else "w")
        # Clockwise from the viewer's left: every slot once, the last on the right.
        assert sorted(k for k, _ in places.values()) == list(range(players))
        if players > 2:
            assert places[(viewer - 1) % players][1] == "e"
    assert table.place(3, None, 5) == (3, "ne")  # a spectator sees from seat 0


def test_panels_list_the_others_clockwise_then_the_viewer():
    state = engine.new_game(4, seed=3)
    panels = table.panels(view(state, 2), infos(4), 2)
    assert [p.position for p in panels] == [3, 0, 1, 2]
    assert [p.slot for p in panels] == ["w", "n", "e", "s"]
    assert panels[-1].is_me and not any(p.is_me for p in panels[:-1])
    assert (
        sum(p.dealer for p in panels) == 1
        and panels[[p.position for p in panels].index(state.dealer)].dealer
    )
    assert [p.cards for p in panels] == [15] * 4
    assert [p.initial for p in panels] == ["B", "W", "C", "T"]  # Bear, Wolf, Crane, Tiger


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_the_seat_at_the_bottom_is_the_viewers_or_for_a_spectator_seat_0s(players, viewer):
    """The panel drawn at the bottom (``my_panels``) and the trick card drawn there are the same
    seat's: a spectator's table was drawn with seat 0's panel among those around the felt while
    its card lay at the bottom."""
    state = play_until(
        engine.new_game(players, seed=11),
        random.Random(players),
        lambda s: len(s.trick) == players - 1,
    )
    seen = view(state, viewer)
    names = [f"player {p}" for p in range(players)]
    context = selectors.table_context(seen, infos(players), names, viewer)
    bottom = viewer or 0
    assert [p.position for p in context["my_panels"]] == [bottom]
    assert bottom not in [p.position for p in context["other_panels"]]
    assert len(context["other_panels"]) == players - 1
    slots = {p.position: p.slot for p in context["panels"]}
    for play in context["current_trick"]:
        assert play["slot"] == slots[play["seat"]]
        assert (play["slot"] == "s") == (play["seat"] == bottom)


def test_each_panel_carries_its_players_rating():
    state = engine.new_game(3, seed=3)
    seats = infos(3)
    seats[0].rating = Shown(value=1500, spread=336, provisional=True)
    seats[1].rating = Shown(value=1605, spread=168, provisional=False)
    seats[2].rating = None
    panels = {p.position: p for p in table.panels(view(state, 0), seats, 0)}
    assert str(panels[0].rating) == "1500?" and panels[0].rating.spread == 336
    assert str(panels[1].rating) == "1605"
    assert panels[2].rating is None


def test_names_are_split_into_words_for_narrow_boxes():
    assert str(nyet.words("Medium bot (Crane)")) == (
        '<span class="word">Medium</span> <span class="word">bot</span>'
        ' <span class="word">(Crane)</span>'
    )
    assert str(nyet.words("<b>x</b>")) == '<span class="word">&lt;b&gt;x&lt;/b&gt;</span>'


# --- the trick ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_card_marked_winning_is_the_one_that_takes_the_trick(players):
    """Each finished trick, replayed card by card: the mark ends on the engine's winner."""
    checked = 0
    for state in random_states(players, 600, seed=players):
        seen = view(state, 0)
        for trick in seen["tricks"]:
            plays = table.trick_plays(trick["leader"], trick["cards"], seen, 0)
            assert [p["seat"] for p in plays if p["winning"]] == [trick["winner"]]
            done = table.finished_trick(trick, seen, 0)
            assert sorted(p["card"] for p in done["plays"] if p["loot"]) == sorted(trick["loot"])
            checked += 1
    assert checked > 100


def test_the_last_supertrump_is_marked_winning_over_a_higher_trump():
    state = board_done(3, tokens=tokens_for(3, first=1))  # trump yellow, supertrump blue
    state = apply(state, ChooseTeams(1, (1,), 1))
    trick = ["Y10", "B1", "Y9"]
    seen = view(state, 0)
    plays = table.trick_plays(1, trick, seen, 0)
    assert [p["card"] for p in plays if p["winning"]] == ["B1"]


# --- the hand -----------------------------------------------------------------------------------


def test_each_card_says_whether_it_may_be_played_and_why_not():
    hands = [
        [
            "R2",
            "R3",
            "B1",
            "B4",
            "G5",
            "G6",
            "Y2",
            "Y3",
            "Y4",
            "Y5",
            "Y6",
            "Y7",
            "Y8",
            "Y9",
            "Y10",
            "G7",
        ],
        [
            "R4",
            "R5",
            "R6",
            "B2",
            "B3",
            "G2",
            "G3",
            "G4",
            "B5",
            "B6",
            "B7",
            "B8",
            "B9",
            "B10",
            "R7",
            "R8",
        ],
        [
            "R9",
            "R10",
            "R1",
            "R1",
            "R1",
            "B1",
            "B1",
            "G1",
            "G1",
            "G1",
            "Y1",
            "Y1",
            "Y1",
            "G8",
            "G9",
            "G10",
        ],
    ]
    # First player 1; trump yellow, supertrump blue; no discard.
    state = board_done(3, dealer=0, hands=hands, tokens=tokens_for(3, first=1))
    state = apply(state, ChooseTeams(1, (1,), 1))
    state = apply(state, PlayCard(1, "R4"))  # red led
    seen = view(state, 2)
    state = apply(state, PlayCard(2, "R9"))
    seen = view(state, 0)
    cards = {c["card"]: c for c in table.hand_cards(seen)}
    legal = {m["play"] for m in seen["legal"]}
    assert {c for c, item in cards.items() if item["playable"]} == legal == {"R2", "R3"}
    assert cards["G5"]["reason"] == "You must follow red."
    # The blue 1 is a supertrump: a trump, so it does not follow blue either.
    assert cards["B1"]["reason"] == "You must follow red."
    assert all(item["reason"] == "" for item in cards.values() if item["playable"])


def test_a_trump_lead_asks_for_a_trump_and_a_supertrump_is_not_its_printed_color():
    hands = [
        [
            "B1",
            "B4",
            "G5",
            "G6",
            "R2",
            "R3",
            "R5",
            "R6",
            "R7",
            "R8",
            "R9",
            "R10",
            "G2",
            "G3",
            "G4",
            "G7",
        ],
        [
            "Y4",
            "Y5",
            "Y6",
            "B2",
            "B3",
            "B5",
            "B6",
            "B7",
            "B8",
            "B9",
            "B10",
            "Y7",
            "Y8",
            "Y9",
            "Y10",
            "Y2",
        ],
        [
            "R1",
            "R1",
            "R1",
            "B1",
            "B1",
            "G1",
            "G1",
            "G1",
            "Y1",
            "Y1",
            "Y1",
            "G8",
            "G9",
            "G10",
            "R4",
            "Y3",
        ],
    ]
    state = board_done(3, dealer=0, hands=hands, tokens=tokens_for(3, first=1))
    state = apply(state, ChooseTeams(1, (1,), 1))
    state = apply(state, PlayCard(1, "Y4"))  # a trump led
    state = apply(state, PlayCard(2, "Y3"))
    seen = view(state, 0)
    cards = {c["card"]: c for c in table.hand_cards(seen)}
    assert {c for c, item in cards.items() if item["playable"]} == {"B1"}  # the supertrump
    assert cards["B4"]["reason"].startswith("A trump was led")

    # Blue led: the blue 1 in hand is a supertrump, not blue, while blue cards are held.
    state = board_done(3, dealer=0, hands=hands, tokens=tokens_for(3, first=1))
    state = apply(state, ChooseTeams(1, (1,), 1))
    state = apply(state, PlayCard(1, "B2"))
    state = apply(state, PlayCard(2, "B1"))
    cards = {c["card"]: c for c in table.hand_cards(view(state, 0))}
    assert cards["B4"]["playable"] and not cards["B1"]["playable"]
    assert "supertrump" in cards["B1"]["reason"] and "blue" in cards["B1"]["reason"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_playable_cards_are_exactly_the_legal_ones(players):
    for state in random_states(players, 400, seed=10 + players):
        for seat in range(players):
            seen = view(state, seat)
            cards = table.hand_cards(seen)
            assert [c["card"] for c in cards] == seen["hand"]
            legal = {m["play"] for m in seen["legal"] if "play" in m}
            assert {c["card"] for c in cards if c["playable"]} == legal
            choosing = state.phase == engine.TRICKS and seat == state.turn
            assert all(bool(c["reason"]) == (choosing and not c["playable"]) for c in cards)


# --- the board ----------------------------------------------------------------------------------


def test_the_board_shows_each_token_with_its_seat_and_order():
    rng = random.Random(4)
    state = play_until(engine.new_game(4, 4), rng, lambda s: len(s.tokens) == 9)
    seen = view(state, state.turn)
    names = [f"n{s}" for s in range(4)]
    lines = table.board_lines(seen, names)
    tokens = {
        (line["id"], b["id"]): b["token"] for line in lines for b in line["boxes"] if b["token"]
    }
    assert len(tokens) == 9
    for order, token in enumerate(state.tokens, start=1):
        mark = tokens[token.line, token.box]
        assert (mark["seat"], mark["order"], mark["name"]) == (token.seat, order, names[token.seat])
    legal = {(line["id"], b["id"]) for line in lines for b in line["boxes"] if b["legal"]}
    assert legal == {(m["token"][0], m["token"][1]) for m in seen["legal"]}
    first = lines[0]["boxes"]
    assert [b["unused"] for b in first] == [False] * 4 + [True]
    for line in lines:
        assert line["decided"] == (len(state.open[line["id"]]) == 1)


# --- choosing the teams -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_legal_team_choice_has_its_sentence(players):
    state = board_done(players, tokens=tokens_for(players, first=1))
    seen = view(state, 1)
    names = [f"P{s}" for s in range(players)]
    form = table.team_form(seen, names)
    assert len(form["sentences"]) == len(seen["legal"])
    assert [p["seat"] for p in form["partners"]] == [s for s in range(players) if s != 1]
    assert bool(form["bonus"]) == (players == 5)
    for move in seen["legal"]:
        team, bonus = move["teams"]["team"], move["teams"]["bonus"]
        key = table.team_key([s for s in team if s != 1], bonus if players == 5 else None)
        sentence = form["sentences"][key]
        assert all(names[s] in sentence for s in range(players))
        assert ("bonus card" in sentence) == (bonus is not None)
    if players == 3:
        assert form["sentences"]["|"] == "P1 alone against P0 and P2; P1 holds the bonus card (×2)."


# --- scoring ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_round_summary_spells_out_each_players_points(players):
    rng = random.Random(players)
    state = play_until(engine.new_game(players, players), rng, lambda s: len(s.results) == 3)
    seen = view(state, 0)
    names = [f"P{s}" for s in range(players)]
    for number, result in enumerate(seen["results"], start=1):
        summary = table.round_summary(result, number, names)
        points = result["terms"]["points"]
        rows = [row for team in summary["teams"] for row in team["members"]]
        assert sorted(row["seat"] for row in rows) == list(range(players))
        for team in summary["teams"]:
            assert team["total"] == team["tricks"] + team["loot"]
            for row in team["members"]:
                expected = team["total"] * points * (2 if row["bonus"] else 1)
                assert row["score"] == expected == result["scores"][row["seat"]]
                assert row["formula"].endswith(f"= {expected}")


def test_the_ranking_shares_places_on_equal_totals():
    places = results.result([10, 30, 10, -2], ["a", "b", "c", "d"], [False] * 4).places
    assert [(p.name, p.rank, table.ordinal(p.rank), p.tied) for p in places] == [
        ("b", 1, "1st", False),
        ("a", 2, "2nd", True),
        ("c", 2, "2nd", True),
        ("d", 4, "4th", False),
    ]


# --- words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-5, "0:00"),
        (0, "0:00"),
        (59, "0:59"),
        (60, "1:00"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (86399, "23:59:59"),
        (86400, "1 day"),
        (2 * 86400 + 3 * 3600 + 5, "2 days 3 hours"),
    ],
)
def test_time_left_on_a_turn(seconds, text):
    assert table.clock_text(seconds) == text


def test_the_log_hides_another_seats_discard_and_escapes_names():
    names = ["<b>alice</b>", "bob"]
    hidden = table.describe({"seat": 1, "discard": ["R5", "G2"]}, 1, names, hidden=True)
    assert hidden == "bob discards 2 cards" and "data-card" not in hidden
    shown = table.describe({"seat": 0, "discard": ["R5"]}, 0, names, hidden=False)
    assert shown.startswith("&lt;b&gt;alice&lt;/b&gt; discards ") and 'data-card="R5"' in shown
    assert table.describe({"seat": 1, "pass": "Y7"}, 1, names, hidden=True) == "bob passes a card"
    played = table.describe({"seat": 1, "play": "Y7"}, 1, names, hidden=True)
    assert 'data-card="Y7"' in played


def test_a_card_is_drawn_with_its_color_symbol_and_value_in_each_language():
    assert 'data-card="Y13"' in table.card_html("Y13") and "★" in table.card_html("Y13")
    assert VALUE["Y13"] == 13 and ">13<" in table.card_html("Y13")
    with translation.override("fr"):
        assert "jaune 13" in table.card_html("Y13")
    assert "yellow 13" in table.card_html("Y13")
