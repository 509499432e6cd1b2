"""The game table's pages through the test client: the seats around the viewer, the terms in
every phase, the finished trick, the round summary, game over, the replay, the full move log,
rematch, team choice by the partner/bonus form, and a fixed number of queries per page."""

import random
import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import RatingChange, User, shown
from games import engine
from games.actions import (
    create_game,
    join_game,
    submit_move,
)
from games.engine.cards import SETUPS
from games.models import Game, MoveRecord
from tests.steering import play_until, prefer_boxes

from .conftest import play_out, play_person_move, seat_of, state_of
from .zones import read_zones

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def page(client, game, htmx=False, url="game", **params):
    return client.get(reverse(url, args=[game.pk]), params, headers=HX if htmx else {})


def html_of(client, game, **kwargs) -> str:
    response = page(client, game, **kwargs)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def duel(act, alice, bob):
    """A 2-person game (no bots), started."""
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    return game


@pytest.fixture
def solo(act, alice):
    """alice against three Easy bots."""
    return act(create_game, alice, players=4, bots=["easy"] * 3)


def slots(html: str) -> dict[str, int]:
    """Where each seat sits on the page: {slot: seat}."""
    return {
        slot: int(seat)
        for slot, seat in re.findall(r'class="seat slot-(\w+)[^"]*"[^>]*data-seat="(\d)"', html)
    }


def test_the_viewer_sits_at_the_bottom_with_the_next_player_on_the_left(act, client, make_person):
    users = [make_person(f"p{k}") for k in range(5)]
    game = act(create_game, users[0], players=5)
    for user in users[1:]:
        act(join_game, user, game.pk)
    for user in users:
        client.force_login(user)
        me = seat_of(game, user)
        assert slots(html_of(client, game)) == {
            "s": me,
            "w": (me + 1) % 5,
            "nw": (me + 2) % 5,
            "ne": (me + 3) % 5,
            "e": (me + 4) % 5,
        }
    client.logout()
    assert slots(html_of(client, game))["s"] == 0  # a spectator looks from seat 0


def test_names_link_to_profiles(client, solo, alice):
    client.force_login(alice)
    html = html_of(client, solo)
    assert f'href="{reverse("profile", args=["alice"])}"' in html
    assert html.count(f'href="{reverse("profile", args=["bot-easy"])}"') == 3


def test_the_terms_stay_in_view_once_the_board_is_done(act, client, duel, alice, bob):
    client.force_login(alice)
    rng = random.Random(1)
    seen_phases = set()
    while state_of(duel).round == 1:
        state = state_of(duel)
        html = html_of(client, duel, htmx=True)
        assert ('class="terms"' in html) == (state.terms is not None), state.phase
        if state.terms:
            for word in ("First player", "Discard", "Trump", "Supertrump", "Points"):
                assert f"<dt>{word}</dt>" in html
        seen_phases.add(state.phase)
        play_person_move(act, duel, alice, rng) or play_person_move(act, duel, bob, rng)
    assert {"board", "discard", "tricks"} <= seen_phases


def test_a_finished_trick_stays_on_the_table_with_its_winner(act, client, duel, alice, bob):
    game = play_out(act, duel, [alice, bob], random.Random(2), until=lambda s: len(s.tricks) == 1)
    state = state_of(game)
    trick = state.tricks[-1]
    client.force_login(alice)
    zones, text = read_zones(html_of(client, game))
    assert zones["last-trick"] == Counter(trick.cards)
    assert "trick" not in zones or not zones["trick"]
    winner = game.seats.select_related("user", "game").get(position=trick.winner).name
    assert f"{winner} takes the trick" in text
    # The next card played: the finished trick moves beside the new one.
    mover = alice if seat_of(game, alice) == state.turn else bob
    move = engine.view(state, state.turn)["legal"][0]
    act(submit_move, mover, game.pk, game.version, {"play": move["play"]})
    zones, _ = read_zones(html_of(client, game))
    assert zones["trick"] == Counter([move["play"]]) and zones["last-trick"] == Counter(trick.cards)


def test_the_round_summary_shows_the_rounds_last_trick_and_points(act, client, duel, alice, bob):
    game = play_out(act, duel, [alice, bob], random.Random(3), until=lambda s: s.round == 2)
    last = list(MoveRecord.objects.filter(game=game, round=1).order_by("-number")[:2])
    client.force_login(bob)
    html = html_of(client, game)
    zones, text = read_zones(html)
    assert zones["round-summary"] == Counter(r.move["play"] for r in last)
    result = state_of(game).results[0]
    assert "Round 1 is over" in text
    for score in result.scores:
        assert f"= {score}" in text
    # Only between rounds: once the board is done it gives way to the terms.
    game = play_out(act, game, [alice, bob], random.Random(4), until=lambda s: s.phase != "board")
    assert "round-summary" not in read_zones(html_of(client, game))[0]


def test_game_over_ranks_the_players_with_their_rating_change(act, client, alice, bob):
    game = act(create_game, alice, players=3, bots=["easy"], target=30)
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(5))
    client.force_login(alice)
    html = html_of(client, game)
    assert "Final ranking" in html and "Rematch" in html
    assert f'href="{reverse("lobby")}?players=3#new-game"' in html
    assert f'href="{reverse("game_replay", args=[game.pk])}"' in html
    totals = [int(t) for t in re.findall(r'class="rank-total">(-?\d+) point', html)]
    assert (
        totals
        == sorted(totals, reverse=True)
        == sorted(
            state_of(game).results
            and [sum(r.scores[s] for r in state_of(game).results) for s in range(3)],
            reverse=True,
        )
    )
    for change in RatingChange.objects.filter(game=game):
        before = shown(change.mu_before, change.sigma_before)
        after = shown(change.mu_after, change.sigma_after)
        assert f"rating {before} → {after}" in html
    assert html.count('class="rank-rating"') == 3  # the people's and the bot's


def test_the_move_log_is_numbered_truly_and_not_cut(act, client, duel, alice, bob):
    game = play_out(act, duel, [alice, bob], random.Random(6), until=lambda s: s.round == 3)
    client.force_login(alice)
    html = html_of(client, game, url="game_log")
    numbers = [int(n) for n in re.findall(r'<li value="(\d+)">', html)]
    assert numbers == list(range(1, game.moves.count() + 1)) and len(numbers) > 40
    # The game page lists this round's moves, numbered as the game numbers them.
    round_moves = list(game.moves.filter(round=3).values_list("number", flat=True))
    page_numbers = [int(n) for n in re.findall(r'<li value="(\d+)">', html_of(client, game))]
    assert page_numbers == round_moves


def test_the_full_log_hides_the_others_choices_until_the_game_is_over(act, client, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(7))
    client.force_login(alice)
    choices = [r for r in game.moves.all() if "discard" in r.move or "pass" in r.move]
    assert choices
    zones, _ = read_zones(html_of(client, game, url="game_log"))
    chosen = Counter(c for r in choices for c in (r.move.get("discard") or [r.move.get("pass")]))
    plays = Counter(r.move["play"] for r in game.moves.all() if "play" in r.move)
    assert zones["log"] == plays + chosen  # over: nothing is secret
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)
    zones, _ = read_zones(html_of(client, game, url="game_log"))
    mine = Counter(
        c
        for r in choices
        if r.seat == seat_of(game, alice)
        for c in (r.move.get("discard") or [r.move.get("pass")])
    )
    assert zones["log"] == plays + mine


# --- the replay -----------------------------------------------------------------------------------


def test_the_replay_shows_every_hand_at_every_third_step_of_a_finished_game(
    act, client, duel, alice, bob
):
    game = play_out(act, duel, [alice, bob], random.Random(8))
    records = list(game.moves.order_by("number"))
    client.force_login(alice)
    state = engine.new_game(2, game.seed)
    # Every third step of the game and its last (the browser steps through a few): each kind of
    # move, in every phase and round, is drawn many times over.
    shown = {*range(0, len(records), 3), len(records)}
    for step in range(len(records) + 1):
        if step:
            state = engine.apply(state, engine.move_from_json(records[step - 1].move))
        if step not in shown:
            continue
        zones, text = read_zones(html_of(client, game, url="game_replay", step=step, htmx=True))
        hands = Counter(c for hand in state.hands for c in hand)
        assert zones.get("replay-hands", Counter()) == hands
        assert zones.get("trick", Counter()) == Counter(state.trick)
        if state.phase != engine.OVER:
            assert zones.get("replay-out-of-play", Counter()) == Counter(state.out_of_play)
        assert f"Move {step} of {len(records)}" in text


def test_the_replay_refuses_a_game_in_play_and_bad_steps(client, duel, alice):
    client.force_login(alice)
    html = html_of(client, duel, url="game_replay")
    assert "once it is over" in html and "data-card" not in html
    assert client.get(reverse("game_replay", args=[999999])).status_code == 404
    Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED)
    for step in ("x", "-5", "99999", ""):
        assert page(client, duel, url="game_replay", step=step).status_code == 200


def queries(client, game, **kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        html_of(client, game, htmx=True, **kwargs)
    return len(captured)


def test_pages_run_a_fixed_number_of_queries(act, client, alice, bob):
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    client.force_login(alice)
    html_of(client, game)  # the first visit of the minute records presence (one write)
    first_round = queries(client, game)  # its board
    last = SETUPS[3].rounds
    game = play_out(
        act, game, [alice, bob], random.Random(10), until=lambda s: s.round == last and s.tricks
    )
    # in the tricks the page does not read the last round's trick back (no summary there)
    assert queries(client, game) == first_round - 1
    game = play_out(act, game, [alice, bob], random.Random(11))
    finished = queries(client, game)
    assert finished == first_round + 2  # its rating changes and its rematch
    total = game.moves.count()
    replay = {queries(client, game, url="game_replay", step=s) for s in (0, total // 2, total)}
    assert len(replay) == 1
    log = {queries(client, game, url="game_log")}
    assert len(log) == 1


# --- team choice --------------------------------------------------------------------------------


def teams_phase(act, alice, players):
    """alice, first player, forming the teams against Easy bots."""
    game = act(create_game, alice, players=players, bots=["easy"] * (players - 1))
    play_until(
        game,
        alice,
        lambda s: s.phase == "teams" and s.turn == 0,
        prefer=prefer_boxes(0, players, "none"),
        act=act,
    )
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("players", "partners", "bonus", "team", "holder"),
    [
        (3, [], "", [0], 0),
        (3, [2], "", [0, 2], 1),
        (4, [1], "", [0, 1], None),
        (5, [3], "3", [0, 3], 3),
        (5, [1, 2], "4", [0, 1, 2], 4),
    ],
)
def test_the_first_player_forms_the_teams_from_partner_boxes(
    act, client, alice, monkeypatch, players, partners, bonus, team, holder
):
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 7)
    game = teams_phase(act, alice, players)
    me = seat_of(game, alice)
    # Seats are relative to alice: turn the table's seat numbers into hers.
    partners = [(me + p) % players for p in partners]
    bonus = "" if bonus == "" else str((me + int(bonus)) % players)
    client.force_login(alice)
    html = html_of(client, game)
    for p in range(players):
        assert (f'name="partner" value="{p}"' in html) == (p != me)
        assert (f'name="bonus" value="{p}"' in html) == (players == 5)
    data = {"version": game.version, "kind": "teams", "partner": partners, "bonus": bonus}
    response = client.post(reverse("game_move", args=[game.pk]), data)
    assert response.status_code == 302
    game.refresh_from_db()
    first = next(r for r in game.moves.order_by("-number") if "teams" in r.move)
    assert sorted(first.move["teams"]["team"]) == sorted((me + t) % players for t in team)
    expected_holder = None if holder is None else (me + holder) % players
    if players == 3:
        expected_holder = None  # the form sends none: the engine gives it to the solo player
    assert first.move["teams"]["bonus"] == expected_holder


def test_a_team_choice_the_rules_refuse_is_explained(act, client, alice, monkeypatch):
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 7)
    game = teams_phase(act, alice, 4)
    client.force_login(alice)
    version = game.version
    for data, message in [
        ({"partner": []}, "With 4 players you take exactly one partner."),
        ({"partner": ["x"]}, "That move is not understood."),
        ({"partner": ["9"]}, "That move is not understood."),  # not a seat: the form says so
    ]:
        data = {"version": version, "kind": "teams", **data}
        response = client.post(reverse("game_move", args=[game.pk]), data, headers=HX)
        assert message in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


# --- rematch: tests/games/test_rematch_offer.py ---------------------------------------------------


# --- clocks, time zones, the tab ------------------------------------------------------------------


def test_the_turn_shows_its_countdown_and_deadline(act, client, alice, clock):
    game = act(create_game, alice, players=2, bots=["easy"], move_seconds=60)
    client.force_login(alice)
    game = play_out(
        act, game, [alice], random.Random(1), until=lambda s: s.turn == 0 and s.phase == "board"
    )
    clock.advance(seconds=15)
    html = html_of(client, game)
    seconds = int(re.search(r'class="countdown" data-seconds="(\d+)"', html).group(1))
    assert 0 < seconds <= 45
    assert re.search(r'<time datetime="[\d-]+T[\d:]+[+-]\d\d:\d\d" data-local>', html)
    assert "<title>Your turn · Game" in html
    assert "favicon-turn.svg" in html and 'data-my-turn="1"' in html


def test_times_are_in_the_players_zone_else_the_browsers(client, alice):
    client.force_login(alice)
    assert alice.time_zone == ""  # new players: the browser's
    assert "data-local-times" in client.get(reverse("lobby")).content.decode()
    User.objects.filter(pk=alice.pk).update(time_zone="Asia/Tokyo")
    assert "data-local-times" not in client.get(reverse("lobby")).content.decode()


def test_every_page_has_the_favicon(client):
    html = client.get(reverse("lobby")).content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in html
    from django.contrib.staticfiles import finders

    assert finders.find("favicon.svg") and finders.find("favicon-turn.svg")
    assert finders.find("js/table.js") and finders.find("css/table.css")


def test_new_game_opens_the_lobbys_form_with_the_same_player_count(client, alice):
    client.force_login(alice)
    html = client.get(reverse("lobby"), {"players": "5"}).content.decode()
    assert 'id="new-game"' in html and '<option value="5" selected>' in html
    html = client.get(reverse("lobby"), {"players": "<9>"}).content.decode()
    assert '<option value="4" selected>' in html


def test_the_sound_preference_is_saved_and_reaches_the_page(client, alice):
    client.force_login(alice)
    data = {"time_zone": "", "email_turn": "at_once", "sound": "on"}
    assert client.post(reverse("settings"), data).status_code == 302
    alice.refresh_from_db()
    assert alice.sound and alice.time_zone == ""
    assert "data-sound" in client.get(reverse("lobby")).content.decode()
    client.post(reverse("settings"), {"time_zone": "Europe/Paris", "email_turn": "at_once"})
    alice.refresh_from_db()
    assert not alice.sound and alice.time_zone == "Europe/Paris"
    assert "data-sound" not in client.get(reverse("lobby")).content.decode()


def test_a_card_that_may_not_be_played_says_why(act, client, alice):
    """On a trick where alice must follow suit, each other card is a button that is not one
    (aria-disabled, focusable) described by its reason."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"])

    def must_follow(state):
        if state.phase != "tricks" or state.turn != 0 or not state.trick:
            return False
        legal = {m.card for m in engine.legal_moves(state, 0)}
        return len(legal) < len(set(state.hands[0]))

    play_until(game, alice, must_follow, act=act)
    client.force_login(alice)
    html = html_of(client, game)
    refused = re.findall(
        r'<button type="button" class="card-button unplayable" aria-disabled="true" '
        r'aria-describedby="(why-\d+)">.*?'
        r'<span class="why" role="tooltip" id="(why-\d+)">(.*?)</span>',
        html,
    )
    state = state_of(game)
    legal = {m.card for m in engine.legal_moves(state, 0)}
    assert len(refused) == sum(c not in legal for c in state.hands[0]) > 0
    for described_by, reason_id, reason in refused:
        assert described_by == reason_id and reason.startswith(
            ("You must follow", "A trump", "This card")
        )
