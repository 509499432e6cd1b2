"""The game page's past tables (``/games/<id>/?step=K``), from which the page shows the moves
it has not shown yet one by one (static/js/live.js): each is the viewer's own view right after
move K, never more, read only; a step that is not a move number, or not made, is refused."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import engine
from games.actions import create_game, join_game
from games.models import Game, MoveRecord

from .conftest import play_out, seat_of
from .leaks import Truth, check_page

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def truth_after(game: Game, step: int, seat: int | None) -> Truth:
    """What ``seat`` may see right after move ``step``, from the seed and the move log."""
    records = list(MoveRecord.objects.filter(game=game, number__lte=step).order_by("number"))
    state = engine.replay(
        game.players, game.seed, game.target, [engine.move_from_json(r.move) for r in records]
    )
    log = [r.move for r in records if r.round == state.round]
    plays = [r.move["play"] for r in records if r.round == len(state.results) and "play" in r.move]
    return Truth(state, seat, log, plays[-state.players :] if state.results else [])


def step_of(client, game: Game, step, **options):
    return client.get(reverse("game", args=[game.pk]), {"step": step}, **options)


@pytest.fixture
def table(act, alice, bob):
    """A 3-player game in round 2 (alice and bob against an Easy bot), and its move count."""
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(30), until=lambda s: s.round == 2)
    game.refresh_from_db()
    return game


def test_each_step_is_the_seats_own_view_right_after_that_move(client, table, alice, bob):
    """Every step of round 1 and the start of round 2 (tokens, teams, discards or passes, each
    card of each trick, the round's end) shows alice exactly what her seat saw then: her hand
    then, the trick then, her own discard, never bob's or the bot's cards. The same for a
    spectator, who sees no hand at all."""
    spectator = client.__class__()
    client.force_login(alice)
    seat = seat_of(table, alice)
    for step in range(table.moves_made + 1):
        for viewer, who in ((client, seat), (spectator, None)):
            response = step_of(viewer, table, step, headers=HX)
            assert response.status_code == 200
            html = response.content.decode()
            assert f'data-step="{step}"' in html and f'data-moves="{step}"' in html
            check_page(html, truth_after(table, step, who), f"step {step}")


def test_a_step_is_read_only(client, table, alice):
    """Nobody acts on a past table: no move form, no clock, no resign, even when it was the
    viewer's turn then (the page shows the live table, with its forms, last)."""
    client.force_login(alice)
    seat = seat_of(table, alice)
    turns = [
        step
        for step in range(table.moves_made)
        if seat in engine.to_act(truth_after(table, step, seat).state)
    ]
    assert len(turns) > 5
    for step in turns:
        html = step_of(client, table, step, headers=HX).content.decode()
        assert 'name="version"' not in html
        assert "countdown" not in html
        assert reverse("game_resign", args=[table.pk]) not in html
        assert 'data-my-turn="0"' in html
    live = client.get(reverse("game", args=[table.pk]), headers=HX).content.decode()
    assert f'data-moves="{table.moves_made}"' in live and 'data-step="' not in live


def test_the_page_says_its_move_count_and_the_pause(client, table, alice, settings):
    settings.BOT_PAUSE_SECONDS = 0.6
    client.force_login(alice)
    html = client.get(reverse("game", args=[table.pk])).content.decode()
    assert f'data-moves="{table.moves_made}"' in html
    assert 'data-pause="0.6"' in html


@pytest.mark.parametrize(
    "step", ["", "x", "-1", "1.5", "1e3", " 3", "٣", "9" * 10, "99999", "1&step=2"]
)
def test_a_step_not_understood_or_not_made_is_refused_with_a_400(client, table, alice, step):
    client.force_login(alice)
    for headers in (HX, {}):
        response = step_of(client, table, step, headers=headers)
        assert response.status_code == 400
        text = response.content.decode()
        assert "A step is a move number" in text or "This game has no move" in text


def test_one_past_the_last_move_is_refused_and_the_last_is_the_live_table(client, table, alice):
    client.force_login(alice)
    assert step_of(client, table, table.moves_made + 1, headers=HX).status_code == 400
    last = step_of(client, table, table.moves_made, headers=HX)
    check_page(last.content.decode(), truth_after(table, table.moves_made, 0), "last step")


def test_a_table_without_moves_has_no_step(act, client, alice):
    game = act(create_game, alice, players=3)  # open: nobody has moved
    client.force_login(alice)
    response = step_of(client, game, 0, headers=HX)
    assert response.status_code == 400
    assert "This game has no move 0." in response.content.decode()


def test_a_private_game_has_no_step_for_an_outsider(act, client, alice, carol):
    game = act(create_game, alice, players=2, bots=["easy"], visibility=Game.Visibility.PRIVATE)
    client.force_login(carol)
    assert step_of(client, game, 0).status_code == 404
    assert step_of(client, game, 0, headers=HX).status_code == 404
    client.force_login(alice)
    assert step_of(client, game, 0, headers=HX).status_code == 200


def test_a_step_costs_four_queries_five_on_the_board_however_late(client, alice, table):
    """The session, the player, the game with its seats, its first K moves (replayed: a
    5-player game's 800 moves take about 3 ms), and on the board the last trick of the round
    before (as the live table)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(alice)
    client.get(reverse("game", args=[table.pk]))  # presence, once a minute
    for step in (1, table.moves_made // 2, table.moves_made):
        with CaptureQueriesContext(connection) as captured:
            assert step_of(client, table, step, headers=HX).status_code == 200
        board = truth_after(table, step, None).state.phase == engine.BOARD
        assert len(captured) == (5 if board else 4), step
