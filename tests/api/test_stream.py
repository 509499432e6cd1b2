"""The API's game stream: the game as the seat sees it first, then after each change, and
keep-alive lines; the same refusals as the rest of the API."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client

from api import stream
from api.tokens import create_token
from games import engine
from games import stream as page_stream
from games.actions import create_game, join_game, submit_move
from tests.games.conftest import state_of


async def read(game_id, user, count, lifetime=20.0, opened: asyncio.Event | None = None):
    """The stream's first ``count`` lines; ``opened`` is set once it said the first."""
    lines = []
    async for line in stream.game_lines(game_id, user, lifetime=lifetime):
        lines.append(json.loads(line))
        if opened is not None:
            opened.set()
        if len(lines) == count:
            break
    await sync_to_async(connections.close_all)()
    return lines


@pytest.mark.django_db(transaction=True)
def test_the_seat_s_view_first_then_after_each_change(alice, bob, settings):
    settings.REDIS_URL = ""
    game = create_game(alice, players=2)
    join_game(bob, game.pk)
    game.refresh_from_db()

    async def scenario():
        opened = asyncio.Event()
        reading = asyncio.ensure_future(read(game.pk, alice, 2, opened=opened))
        await opened.wait()
        state = await sync_to_async(state_of)(game)
        seat = await sync_to_async(lambda: game.seats.get(user=alice).position)()
        mover = alice if engine.to_act(state) == (seat,) else bob
        move = engine.view(state, engine.to_act(state)[0])["legal"][0]
        del move["seat"]
        await sync_to_async(submit_move)(mover, game.pk, game.version, move)
        return await asyncio.wait_for(reading, 20), seat

    (first, second), seat = asyncio.run(scenario())
    assert first["type"] == "game" and first["version"] == game.version
    assert first["my_seat"] == seat and first["view"]["seat"] == seat
    assert second["version"] == game.version + 1
    assert second["view"] == json.loads(json.dumps(engine.view(state_of(game), seat)))


@pytest.mark.django_db(transaction=True)
def test_a_quiet_game_sends_keep_alive_lines(alice, settings, monkeypatch):
    settings.REDIS_URL = ""
    monkeypatch.setattr(page_stream, "KEEP_ALIVE", 0.3)
    game = create_game(alice, players=2)
    lines = asyncio.run(read(game.pk, alice, 3))
    assert lines[0]["type"] == "game"
    assert lines[1:] == [{"type": "keep-alive"}] * 2


@pytest.mark.django_db
def test_the_stream_refuses_as_the_api_does(alice, bob):
    game = create_game(alice, players=2, visibility="private")
    url = f"/api/v1/games/{game.pk}/stream"
    assert Client().get(url).json()["code"] == "login"
    bad = Client().get(url, headers={"Authorization": "Bearer nyet_nope"})
    assert bad.status_code == 401 and bad.json()["code"] == "bad_token"
    _token, raw = create_token(bob, "b", ["read"])
    other = Client().get(url, headers={"Authorization": f"Bearer {raw}"})
    assert other.status_code == 404 and other.json()["code"] == "no_game"
    _token, player = create_token(alice, "p", ["play"])
    scoped = Client().get(url, headers={"Authorization": f"Bearer {player}"})
    assert scoped.status_code == 403 and scoped.json()["code"] == "scope"
    _token, reader = create_token(alice, "r", ["read"])
    under_wsgi = Client().get(url, headers={"Authorization": f"Bearer {reader}"})
    assert under_wsgi.status_code == 204  # the stream needs the ASGI server
