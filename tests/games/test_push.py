"""Live push (issue 14): a move reaches every open game page at once, through Redis pub/sub when
it is configured and by reading the database a few times a second when it is not; a page that
reconnects gets the current version first; the stream says versions, never a card."""

import asyncio
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse

from games import live, stream
from games.actions import create_game, join_game
from games.models import Game
from tests.servers import serve, stop

from .streams import Events, read_stream, told_only_from_elsewhere, versions_in

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db(transaction=True)
def test_a_move_made_elsewhere_reaches_an_open_stream_from_the_database(
    alice, bob, settings, monkeypatch
):
    settings.REDIS_URL = ""  # the embedded default: the hub reads the database
    told_only_from_elsewhere(monkeypatch)
    game = create_game(alice, players=2)

    async def scenario():
        opened = asyncio.Event()
        reading = asyncio.ensure_future(read_stream(game.pk, until_version=1, opened=opened))
        await opened.wait()  # the stream is open, at version 0
        await sync_to_async(join_game)(bob, game.pk)  # another connection: version 1
        return await asyncio.wait_for(reading, 20)

    chunks = asyncio.run(scenario())
    assert versions_in(chunks) == [0, 1]
    assert chunks[0].startswith("retry: 1000\n"), "the browser reconnects within a second"


@pytest.mark.postgres  # with the PostgreSQL pass, which has the machine's Redis
@pytest.mark.django_db(transaction=True)
def test_a_move_made_elsewhere_reaches_an_open_stream_through_redis(
    alice, bob, settings, monkeypatch
):
    settings.REDIS_URL = "redis://127.0.0.1:6379/8"
    told_only_from_elsewhere(monkeypatch)
    # the database checks never come: only pub/sub can tell the stream
    monkeypatch.setattr(live.listening, "DB_CHECK", 3600.0)
    monkeypatch.setattr(live.listening, "DB_SAFETY_CHECK", 3600.0)
    game = create_game(alice, players=2)

    async def scenario():
        reading = asyncio.ensure_future(read_stream(game.pk, until_version=1))
        for _ in range(100):
            if live.hub.redis_up:
                break
            await asyncio.sleep(0.05)
        assert live.hub.redis_up, "the hub subscribed (Redis confirmed it)"
        await sync_to_async(join_game)(bob, game.pk)  # announced through Redis, on commit
        return await asyncio.wait_for(reading, 3)

    assert versions_in(asyncio.run(scenario())) == [0, 1]


@pytest.mark.django_db(transaction=True)
def test_a_move_made_by_this_process_reaches_its_streams_without_a_database_check(
    alice, bob, settings, monkeypatch
):
    settings.REDIS_URL = ""
    monkeypatch.setattr(live.listening, "DB_CHECK", 3600.0)  # the database check never comes
    game = create_game(alice, players=2)

    async def scenario():
        opened = asyncio.Event()
        reading = asyncio.ensure_future(read_stream(game.pk, until_version=1, opened=opened))
        await opened.wait()  # the stream is open, at version 0
        await sync_to_async(join_game)(bob, game.pk)  # this process's web thread, on commit
        return await asyncio.wait_for(reading, 5)

    assert versions_in(asyncio.run(scenario())) == [0, 1]


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_page_gets_the_current_version_first(alice, bob, settings):
    settings.REDIS_URL = ""
    game = create_game(alice, players=3)
    join_game(bob, game.pk)  # moves made while nobody listened
    game.refresh_from_db()
    chunks = asyncio.run(asyncio.wait_for(read_stream(game.pk, until_version=0), 20))
    assert versions_in(chunks) == [game.version] == [1]


@pytest.mark.django_db(transaction=True)
def test_a_quiet_game_s_stream_says_it_is_alive_though_the_hub_repeats_versions(
    alice, settings, monkeypatch
):
    """The hub's database check hands every stream the version it already has, a few times a
    second: that is not news, and must not hold back the keep-alive a proxy waits for."""
    settings.REDIS_URL = ""
    monkeypatch.setattr(live.listening, "DB_CHECK", 0.05)
    monkeypatch.setattr(stream, "KEEP_ALIVE", 0.5)
    game = create_game(alice, players=2)

    async def read_for(seconds: float) -> list[str]:
        chunks = []
        async for chunk in stream.game_events(game.pk, lifetime=seconds):
            chunks.append(chunk)
        await sync_to_async(connections.close_all)()
        return chunks

    chunks = asyncio.run(read_for(1.8))
    assert versions_in(chunks) == [0]  # the version once, not each time the hub repeats it
    assert chunks.count(": keep-alive\n\n") >= 3


@pytest.mark.django_db
def test_the_stream_answers_404_for_no_such_game(client):
    assert client.get(reverse("game_events", args=[999999])).status_code == 404


# --- real processes: the site under uvicorn, a move from another process ------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("redis_url", ["", "redis://127.0.0.1:6379/8"], ids=["database", "redis"])
def test_a_move_in_another_process_reaches_the_page_of_a_uvicorn_server(
    on_postgres, alice, bob, make_person, tmp_path, redis_url, settings
):
    from django.db import connection

    settings.REDIS_URL = redis_url  # this process announces through Redis, as a worker would
    game = create_game(alice, players=3)
    server, port = serve(connection.settings_dict["NAME"], redis_url, tmp_path)
    try:
        events = Events(port, game.pk)
        assert events.next_version() == 0
        join_game(bob, game.pk)
        assert events.next_version() == 1
        events.close()
        join_game(make_person("carol"), game.pk)  # the game starts while the page is away
        events = Events(port, game.pk)
        assert events.next_version() == Game.objects.get(pk=game.pk).version == 2
        events.close()
    finally:
        stop(server, connection)


@pytest.mark.django_db(transaction=True)
def test_a_private_game_s_stream_is_only_its_players(alice, bob):
    game = create_game(alice, players=3, visibility="private")
    url = reverse("game_events", args=[game.pk])

    async def status(user=None, **query) -> tuple[int, str]:
        client = AsyncClient()  # an ASGI request, as uvicorn makes
        if user is not None:
            await client.aforce_login(user)
        response = await client.get(url, query)
        return response.status_code, response.get("Content-Type", "")

    assert asyncio.run(status())[0] == 404, "anonymous"
    assert asyncio.run(status(bob))[0] == 404, "an outsider"
    assert asyncio.run(status(bob, invite=game.invite_code))[0] == 200, "the invite link"
    assert asyncio.run(status(alice)) == (200, "text/event-stream")


@pytest.mark.django_db
def test_under_a_wsgi_server_the_stream_sends_the_page_to_its_poll(client, alice):
    """A WSGI server would give each open stream a thread: 204 tells EventSource to stop, and
    static/js/live.js then polls."""
    game = create_game(alice, players=3)
    response = client.get(reverse("game_events", args=[game.pk]))
    assert response.status_code == 204 and not response.content


@pytest.mark.django_db(transaction=True)
def test_watchers_are_counted_while_their_pages_are_open(alice, bob, settings, client):
    """Spectators' streams count as watching, shown on the table; players' do not."""
    settings.REDIS_URL = ""  # this process's count (with Redis: every process's, see below)
    game = create_game(alice, players=2)
    join_game(bob, game.pk)
    client.force_login(alice)

    def shown() -> str:
        html = client.get(reverse("game", args=[game.pk]), headers={"HX-Request": "true"})
        return html.content.decode()

    async def scenario():
        async def watch(seconds: float, watcher=True):
            async for _chunk in stream.game_events(game.pk, lifetime=seconds, watcher=watcher):
                pass
            await sync_to_async(connections.close_all)()

        two = [asyncio.ensure_future(watch(3)) for _ in range(2)]
        player = asyncio.ensure_future(watch(3, watcher=False))
        for _ in range(100):  # until both spectators' streams are open
            during = await sync_to_async(live.watchers.count)(game.pk)
            if during >= 2:
                break
            await asyncio.sleep(0.02)
        page = await sync_to_async(shown)()
        await asyncio.gather(*two, player)
        return during, page

    during, page = asyncio.run(scenario())
    assert during == 2
    assert "2 watching" in page
    assert live.watchers.count(game.pk) == 0
    assert "watching" not in shown()


@pytest.mark.postgres  # with the PostgreSQL pass, which has the machine's Redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_every_process_counts_the_same_watchers(alice, settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/8"
    game = create_game(alice, players=2)
    elsewhere = live.Watchers()  # another web process: its own in-process count
    try:
        live.watchers.came(game.pk, "one")
        live.watchers.came(game.pk, "two")
        assert elsewhere.count(game.pk) == 2
        live.watchers.left(game.pk, "one")
        assert elsewhere.count(game.pk) == 1
        # a process that died never says "left": its stream expires
        live.process.client().zadd(f"{live.WATCHERS}{game.pk}", {"two": 0})
        assert elsewhere.count(game.pk) == 0
    finally:
        live.process.client().delete(f"{live.WATCHERS}{game.pk}")


@pytest.mark.django_db
def test_with_redis_away_the_count_is_this_process_s_and_pages_do_not_wait(alice, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    game = create_game(alice, players=2)
    live.watchers.came(game.pk, "here")
    assert not live.process.breaker.allows(), "came tried Redis: it is left alone a while"
    live.process.breaker.reset()  # as if Redis had just been seen
    assert live.watchers.count(game.pk) == 1
    assert not live.process.breaker.allows(), "not asked again for a while"
