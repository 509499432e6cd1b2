"""The pages, with and without HTMX, for every phase; refusals answered in words."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.actions import create_game, join_game, rematch
from games.actions.rematches import accept_rematch
from games.models import Game

from .conftest import form_data, play_out, seat_of, state_of

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def table(act, alice, bob, carol):
    """A 3-person game, started, everyone logged in through their own client."""
    game = act(create_game, alice, players=3)
    act(join_game, bob, game.pk)
    act(join_game, carol, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def client_for(client_class, user):
    client = client_class()
    client.force_login(user)
    return client


def acting_user(game, users):
    acting = engine.to_act(state_of(game))
    return next(u for u in users if seat_of(game, u) in acting)


def post_move(client, game, data, htmx=False):
    data = {"version": game.version, **data}
    return client.post(reverse("game_move", args=[game.pk]), data, headers=HX if htmx else {})


def page(client, game, htmx=False):
    return client.get(reverse("game", args=[game.pk]), headers=HX if htmx else {})


def test_lobby_lists_open_tables_and_creates_a_game(client, alice, bob):
    response = client.get(reverse("lobby"))
    assert response.status_code == 200 and "Log in to play." in response.content.decode()
    client.force_login(alice)
    response = client.post(
        reverse("game_create"),
        {"players": "3", "seat_1": "", "seat_2": "", "move_seconds": "correspondence:86400"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert (game.time_control, game.move_seconds) == ("correspondence", 86400)
    bobs = client_for(type(client), bob)
    assert f"Game {game.pk}" in bobs.get(reverse("lobby")).content.decode()
    assert bobs.post(reverse("game_join", args=[game.pk])).status_code == 302
    assert game.seats.filter(user=bob).exists()


def test_create_refuses_bad_input_with_a_message(client, alice):
    client.force_login(alice)
    response = client.post(reverse("game_create"), {"players": "7"}, follow=True)
    assert "Nyet! is played by 2 to 5 players." in response.content.decode()
    response = client.post(reverse("game_create"), {"players": "x"}, follow=True)
    assert "Choose the number of players" in response.content.decode()
    assert not Game.objects.exists()


def test_open_table_page_with_join_add_bot_and_leave(client, act, alice, bob):
    game = act(create_game, alice, players=4)
    client.force_login(alice)
    html = page(client, game).content.decode()
    assert "Waiting for players" in html and "Add a bot" in html
    response = client.post(reverse("game_add_bot", args=[game.pk]), {"level": "easy"}, headers=HX)
    assert response.status_code == 200 and 'id="game"' in response.content.decode()
    assert "Easy bot" in response.content.decode()
    response = client.post(reverse("game_add_bot", args=[game.pk]), {"level": "silly"}, headers=HX)
    assert 'role="alert"' in response.content.decode()
    bobs = client_for(type(client), bob)
    assert "Take a seat" in page(bobs, game).content.decode()
    response = bobs.post(reverse("game_add_bot", args=[game.pk]), {"level": "easy"}, headers=HX)
    assert "Only the player who created the table can do that." in response.content.decode()
    bobs.post(reverse("game_join", args=[game.pk]))
    bobs.post(reverse("game_leave", args=[game.pk]))
    assert not game.seats.filter(user=bob).exists()


def test_every_phase_renders_for_the_acting_player(client, table, alice, bob, carol):
    users = [alice, bob, carol]
    rng = random.Random(7)
    seen_phases = set()
    game = table
    for _ in range(400):
        game.refresh_from_db()
        state = state_of(game)
        if state.phase == engine.OVER or len(state.results) == 1 and state.phase == "board":
            break
        user = acting_user(game, users)
        c = client_for(type(client), user)
        for htmx in (False, True):
            response = page(c, game, htmx)
            assert response.status_code == 200
            html = response.content.decode()
            assert ("<html" in html) != htmx
            assert "Your turn." in html
        seen_phases.add(state.phase)
        if state.phase == "board":
            assert 'name="box"' in html
        elif state.phase == "teams":
            assert 'name="partner"' in html and "Form the teams" in html
        elif state.phase == "discard":
            assert 'name="cards"' in html or 'name="card"' in html
        elif state.phase == "tricks":
            playable = re.findall(r'name="card" value="(\w+)" class="card-button playable"', html)
            legal = {m.card for m in engine.legal_moves(state, seat_of(game, user))}
            assert set(playable) == legal
        move = rng.choice(engine.view(state, seat_of(game, user))["legal"])
        response = post_move(c, game, form_data(move), htmx=rng.random() < 0.5)
        assert response.status_code in (200, 302)
        game.refresh_from_db()
        assert game.moves.count() >= 1
    assert seen_phases >= {"board", "teams", "tricks"}


def test_refusals_through_the_page(client, table, alice, bob, carol):
    game = table
    users = [alice, bob, carol]
    mover = acting_user(game, users)
    other = next(u for u in users if u != mover)
    c_other = client_for(type(client), other)
    response = post_move(c_other, game, {"kind": "token", "box": "trump:R"}, htmx=True)
    assert "It is not your turn." in response.content.decode()
    response = post_move(c_other, game, {"kind": "token", "box": "trump:R"})
    assert response.status_code == 302
    assert "It is not your turn." in c_other.get(response["Location"]).content.decode()
    c_mover = client_for(type(client), mover)
    stale = {"version": game.version - 1, "kind": "token", "box": "trump:R"}
    response = c_mover.post(reverse("game_move", args=[game.pk]), stale, headers=HX)
    assert "The game has moved on" in response.content.decode()
    for bad in ({"kind": "token"}, {"kind": "nope"}, {"kind": "teams", "partner": "a"}):
        response = post_move(c_mover, game, bad, htmx=True)
        assert "That move is not understood." in response.content.decode()
    response = c_mover.post(reverse("game_move", args=[game.pk]), {"version": "x"}, headers=HX)
    assert "That move is not understood." in response.content.decode()
    game.refresh_from_db()
    assert game.moves.count() == 0
    anonymous = type(client)()
    response = post_move(anonymous, game, {"kind": "token", "box": "trump:R"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(reverse("game", args=[999999])).status_code == 404


def test_poll_is_tiny_when_nothing_changed(client, table, alice):
    client.force_login(alice)
    url = reverse("game_poll", args=[table.pk])
    client.get(url, {"version": table.version}, headers=HX)  # records presence, once a minute
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, {"version": table.version}, headers=HX)
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 1
    response = client.get(url, {"version": table.version - 1}, headers=HX)
    assert response.status_code == 200 and 'id="game"' in response.content.decode()


def test_watching_a_game_counts_as_being_on_the_site(client, table, alice, bob, clock):
    client.force_login(alice)
    url = reverse("game_poll", args=[table.pk])

    def poll_and_last_seen():
        assert client.get(url, {"version": table.version}, headers=HX).status_code == 204
        alice.refresh_from_db()
        return alice.last_seen

    start = clock.current
    assert poll_and_last_seen() == start
    clock.advance(seconds=59)
    assert poll_and_last_seen() == start, "at most one write a minute"
    clock.advance(seconds=1)
    assert poll_and_last_seen() == clock.current
    bob.refresh_from_db()
    assert bob.last_seen is None


def test_once_over_the_page_listens_only_until_its_rematch_starts(act, client, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(3))
    client.force_login(alice)
    html = page(client, game).content.decode()
    # a rematch offer may still come: the page hears of it (tests/games/test_rematch_offer.py)
    assert "Game over" in html and 'hx-trigger="nyet:moved"' in html
    assert "Scorepad" in html
    offer = act(rematch, alice, game.pk)
    act(accept_rematch, bob, game.pk, offer.pk)
    html = page(client, game).content.decode()
    assert "Game over" in html and 'hx-trigger="nyet:moved"' not in html  # the chat may go on


def queries_for(client, game):
    with CaptureQueriesContext(connection) as queries:
        assert page(client, game, htmx=True).status_code == 200
    return len(queries)


def test_the_game_page_runs_a_fixed_number_of_queries(act, client, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    client.force_login(alice)
    page(client, game)  # the first visit of the minute also records presence (one write)
    early = queries_for(client, game)  # round 1's board
    game = play_out(act, game, [alice, bob], random.Random(5), until=lambda s: s.round >= 5)
    assert queries_for(client, game) == early  # round 5's board, with round 4's summary
    game = play_out(act, game, [alice, bob], random.Random(6), until=lambda s: len(s.tricks) > 3)
    # in the tricks the page does not read the last round's trick back (no summary there)
    assert queries_for(client, game) == early - 1
