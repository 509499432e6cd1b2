"""The API's account stream: what holds first (games in play, my turns, my invitations), then
each change as it happens (an invitation, a game that starts, each turn of mine, the game's
end), keep-alive lines, and the same refusals as the rest of the API."""

import asyncio
import datetime as dt
import json
import random
import types

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client

from api import stream
from api.stream import Account, account_news
from api.tokens import create_token
from games import engine
from games import stream as page_stream
from games.actions import create_game, invite_player, join_game, submit_move
from games.models import Game, Invitation
from tests.games.conftest import state_of

URL = "/api/v1/stream"
NOON = dt.datetime(2026, 11, 24, 12, tzinfo=dt.UTC)
LATER = NOON + dt.timedelta(minutes=1)


def test_news_from_what_was_known_to_what_holds():
    before = Account(
        games={1: ("active", 4, NOON), 2: ("open", 1, None), 3: ("active", 9, None)},
        invitations={7: (2, "bob", "alice")},
    )
    now = Account(
        games={1: ("active", 6, LATER), 2: ("active", 2, None), 3: ("finished", 10, None)},
        invitations={7: (2, "bob", "alice"), 8: (5, "carol", "alice")},
    )
    assert account_news(before, now) == [
        {"type": "yourTurn", "game": 1, "version": 6},  # a new turn of the same seat
        {"type": "gameStart", "game": 2},
        {"type": "gameOver", "game": 3, "status": "finished"},
        {"type": "invitation", "id": 8, "game": 5, "from": "carol", "to": "alice"},
    ]
    assert account_news(now, now) == []  # nothing new, nothing said


def test_a_client_that_knows_nothing_is_told_what_holds():
    now = Account(
        games={1: ("active", 4, NOON), 2: ("open", 1, None), 3: ("active", 9, None)},
        invitations={7: (6, "bob", "alice")},
    )
    assert account_news(None, now) == [
        {"type": "gameStart", "game": 1},
        {"type": "yourTurn", "game": 1, "version": 4},
        {"type": "gameStart", "game": 3},
        {"type": "invitation", "id": 7, "game": 6, "from": "bob", "to": "alice"},
    ]


async def read_until(lines, done, timeout=60.0, events=None):
    """The events of ``lines`` up to the first for which ``done(event)`` (appended to
    ``events`` as they come, if given)."""
    events = [] if events is None else events

    async def read():
        async for chunk in lines:
            for line in chunk.splitlines():
                events.append(json.loads(line))
                if done(events[-1]):
                    return events

    try:
        return await asyncio.wait_for(read(), timeout)
    finally:
        await lines.aclose()
        await sync_to_async(connections.close_all)()


async def said(events, kind, timeout=30.0):
    """Until ``events`` (a stream's, as read so far) holds one of ``kind``."""
    async with asyncio.timeout(timeout):
        while not any(e["type"] == kind for e in events):
            await asyncio.sleep(0.02)


def alices_move(game_id, alice, rng) -> bool:
    """A random legal move of alice's, if her seat may move now."""
    game = Game.objects.get(pk=game_id)
    state = state_of(game)
    seat = game.seats.get(user=alice).position
    legal = engine.view(state, seat)["legal"]
    if not legal or game.status != Game.Status.ACTIVE:
        return False
    move = rng.choice(legal)
    del move["seat"]
    submit_move(alice, game.pk, game.version, move)
    return True


@pytest.mark.django_db(transaction=True)
def test_an_invitation_a_start_each_turn_and_the_end_as_they_happen(alice, bob, settings):
    settings.REDIS_URL = ""  # the hub reads the versions from the database
    game = create_game(bob, players=2, bots=[], target=1, visibility="private")

    async def scenario():
        lines = stream.account_lines(alice.pk)
        seen = []
        reading = asyncio.ensure_future(
            read_until(
                lines, lambda e: e["type"] == "gameOver" and e["game"] == game.pk, events=seen
            )
        )
        await said(seen, "keep-alive")  # open: it said what holds (nothing)
        await sync_to_async(invite_player)(bob, game.pk, "alice")
        await said(seen, "invitation")  # found by the periodic check
        await sync_to_async(join_game)(alice, game.pk)  # the table is full: it starts

        # Both play at random until the end; alice only when her stream says it is her turn.
        rng = random.Random(3)

        def bobs_moves():
            moved = False
            while (g := Game.objects.get(pk=game.pk)).status == Game.Status.ACTIVE:
                seat = g.seats.get(user=bob).position
                legal = engine.view(state_of(g), seat)["legal"]
                if not legal:
                    return moved
                move = rng.choice(legal)
                del move["seat"]
                submit_move(bob, g.pk, g.version, move)
                moved = True
            return moved

        # Alice moves once for each turn her stream said (a program that waits to be told), so
        # the game cannot start and end unseen between two of the stream's checks.
        alices_moves = 0
        while not reading.done():
            await sync_to_async(bobs_moves)()
            told = sum(e["type"] == "yourTurn" for e in seen)
            if told > alices_moves and await sync_to_async(alices_move)(game.pk, alice, rng):
                alices_moves += 1
            await asyncio.sleep(0.05)
        return await reading

    events = asyncio.run(scenario())
    assert events[0] == {"type": "keep-alive"}  # nothing held when it opened
    kinds = [e["type"] for e in events if e["type"] != "keep-alive"]
    invitation = Invitation.objects.get(game=game)
    assert events[1] == {
        "type": "invitation",
        "id": invitation.pk,
        "game": game.pk,
        "from": "bob",
        "to": "alice",
    }
    assert {"type": "invitationGone", "id": invitation.pk, "game": game.pk} in events
    assert kinds[1] == "gameStart" and kinds[-1] == "gameOver"
    assert events[-1] == {"type": "gameOver", "game": game.pk, "status": "finished"}
    # Each turn said names a version at which alice's seat was to act.
    turns = [e["version"] for e in events if e["type"] == "yourTurn"]
    game.refresh_from_db()
    seat = game.seats.get(user=alice).position
    moves = [engine.move_from_json(m) for m in game.moves.values_list("move", flat=True)]
    before_first_move = game.version - len(moves)
    assert len(turns) >= 2 and turns == sorted(set(turns))
    for version in turns:
        state = engine.replay(
            game.players, game.seed, game.target, moves[: version - before_first_move]
        )
        assert seat in engine.to_act(state), version


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_client_starts_from_what_holds_then_hears_keep_alive(
    alice, bob, carol, settings, monkeypatch
):
    settings.REDIS_URL = ""
    monkeypatch.setattr(page_stream, "KEEP_ALIVE", 0.3)
    playing = create_game(bob, players=2)
    join_game(alice, playing.pk)
    waiting = create_game(carol, players=3)
    invite_player(carol, waiting.pk, "alice")
    playing.refresh_from_db()
    alice_acts = playing.seats.get(user=alice).acting_since is not None

    async def scenario():
        said = []
        return await read_until(
            stream.account_lines(alice.pk),
            lambda e: e["type"] == "keep-alive" and len(said.append(e) or said) == 2,
            timeout=10,
        )

    events = asyncio.run(scenario())
    assert events == [
        {"type": "gameStart", "game": playing.pk},
        *([{"type": "yourTurn", "game": playing.pk, "version": playing.version}] * alice_acts),
        {
            "type": "invitation",
            "id": Invitation.objects.get(game=waiting).pk,
            "game": waiting.pk,
            "from": "carol",
            "to": "alice",
        },
        {"type": "keep-alive"},  # what holds has been said
        {"type": "keep-alive"},  # and nothing since
    ]


@pytest.mark.django_db
def test_the_stream_refuses_as_the_api_does(alice, settings, monkeypatch):
    assert Client().get(URL).json()["code"] == "login"
    bad = Client().get(URL, headers={"Authorization": "Bearer nyet_nope"})
    assert bad.status_code == 401 and bad.json()["code"] == "bad_token"
    _token, player = create_token(alice, "p", ["play"])
    scoped = Client().get(URL, headers={"Authorization": f"Bearer {player}"})
    assert scoped.status_code == 403 and scoped.json()["code"] == "scope"
    _token, reader = create_token(alice, "r", ["read"])
    reading = {"Authorization": f"Bearer {reader}"}
    assert Client().get(URL, headers=reading).status_code == 204  # it needs the ASGI server

    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    answers = [Client().get(URL, headers=reading) for _ in range(21)]
    assert {a.status_code for a in answers[:20]} == {204}
    assert answers[20].status_code == 429 and int(answers[20]["Retry-After"]) >= 1
    assert answers[20].json()["code"] == "rate_limited"
