"""Presence (issue 32, point 4): who is online now, for the lobby, and at the table whether each
seated player has the game's page open, pushed to the other pages when a page opens or closes.
With Redis (every web process shares it) and without it (``make run``: Django's cache and this
process's streams); with Redis away, nothing fails and nothing waits."""

import asyncio
import json
import re
import time

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connections
from django.template.loader import render_to_string
from django.urls import reverse

from games import live, presence, stream
from games.actions import create_game, join_game
from games.live import watcher_token
from games.presence import Online, online_now
from tests.games.streams import told_only_from_elsewhere

HX = {"HX-Request": "true"}
REDIS = "redis://127.0.0.1:6379/8"
HERE_EVENT = re.compile(r"event: here\ndata: (\[[\d, ]*\])\n\n")


@pytest.fixture
def no_redis(settings):
    settings.REDIS_URL = ""  # the embedded default: the cache, this process's streams


@pytest.fixture
def with_redis(settings):
    settings.REDIS_URL = REDIS
    live.process.client().delete(presence.ONLINE)
    yield live.process.client()
    live.process.client().delete(presence.ONLINE)


@pytest.fixture
def redis_away(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there


def names(online: Online) -> list[str]:
    return [player.username for player in online.players]


# --- online now ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_without_redis_the_people_seen_lately_are_online_most_recent_first(
    no_redis, alice, bob, carol, make_person
):
    now = time.time()
    presence.seen(bob.pk, now - 60)
    presence.seen(carol.pk, now - 10)
    presence.seen(alice.pk, now)
    online = online_now(viewer=alice)
    assert names(online) == ["carol", "bob"], "the viewer left out"
    assert online.count == 2 and online.more == 0
    assert names(online_now()) == ["alice", "carol", "bob"]
    assert cache.get(presence.ONLINE), "kept in Django's cache"


@pytest.mark.django_db
def test_someone_not_seen_for_the_window_is_no_longer_online(no_redis, alice, bob):
    presence.seen(bob.pk, time.time() - presence.ONLINE_WINDOW - 1)
    presence.seen(alice.pk)
    assert names(online_now(viewer=alice)) == []
    assert online_now(viewer=alice).count == 0


@pytest.mark.django_db
def test_bots_are_never_online_and_the_limit_leaves_a_count_of_the_others(
    no_redis, alice, make_person
):
    bot = make_person("robot", bot_level="easy")
    program = make_person("program", bot_account=True)
    people = [make_person(f"p{i}") for i in range(5)]
    now = time.time()
    for i, user in enumerate([bot, program, *people]):
        presence.seen(user.pk, now - i)
    online = online_now(limit=3, viewer=alice)
    assert names(online) == ["p0", "p1", "p2"]
    assert online.count == 5 and online.more == 2


@pytest.mark.postgres  # with the PostgreSQL pass, which has the machine's Redis
@pytest.mark.django_db
def test_with_redis_every_process_sees_the_same_people_online(with_redis, alice, bob):
    presence.seen(bob.pk)
    assert with_redis.zscore(presence.ONLINE, str(bob.pk)) is not None, "in Redis"
    assert cache.get(presence.ONLINE) is None, "not in this process's cache"
    cache.clear()  # another process: its own cache, the same Redis
    assert names(online_now(viewer=alice)) == ["bob"]
    with_redis.zadd(presence.ONLINE, {str(alice.pk): time.time() - presence.ONLINE_WINDOW - 5})
    presence.seen(bob.pk)  # each touch prunes the set: it stays as small as who is online
    assert with_redis.zscore(presence.ONLINE, str(alice.pk)) is None
    assert 0 < with_redis.ttl(presence.ONLINE) <= presence.ONLINE_WINDOW * 2


@pytest.mark.django_db
def test_with_redis_away_presence_falls_back_to_the_cache_at_once(redis_away, alice, bob):
    started = time.monotonic()
    presence.seen(bob.pk)
    assert not live.process.breaker.allows(), "Redis is left alone for a while"
    presence.seen(alice.pk)
    online = online_now(viewer=alice)
    assert time.monotonic() - started < 2.0, "one connection attempt, a quarter second"
    assert names(online) == ["bob"]


@pytest.mark.django_db
def test_a_broken_cache_shows_no_one_online_and_fails_nothing(no_redis, alice, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("the cache is away")

    monkeypatch.setattr(presence.cache, "get", broken)
    monkeypatch.setattr(presence.cache, "set", broken)
    presence.seen(alice.pk)
    assert online_now() == Online()


@pytest.mark.django_db
def test_a_request_makes_its_player_online_at_most_once_a_minute(
    no_redis, client, alice, bob, monkeypatch
):
    touched = []
    seen = presence.seen
    monkeypatch.setattr(presence, "seen", lambda user_id: touched.append(user_id) or seen(user_id))
    client.force_login(bob)
    client.get(reverse("lobby"))
    client.get(reverse("lobby"))
    assert touched == [bob.pk], "the second request in the minute touches nothing"
    assert names(online_now(viewer=alice)) == ["bob"]


@pytest.mark.django_db
def test_the_online_partial_links_each_player_and_says_when_no_one_else_is(alice, bob):
    html = render_to_string("games/_online.html", {"online": Online(players=[bob], count=3)})
    assert 'href="/players/bob/"' in html and "bob" in html
    assert "3 players" in html and "and 2 more" in html
    html = render_to_string("games/_online.html", {"online": Online()})
    assert "No one else is online." in html and "<ul" not in html


# --- at the table -------------------------------------------------------------------------------


def table_of(client, game) -> str:
    return client.get(reverse("game", args=[game.pk]), headers=HX).content.decode()


def mark_of(html: str, position: int) -> str | None:
    """The presence mark of a seat's panel: its class and word, or None without one."""
    found = re.search(
        rf'<li class="mark mark-presence( is-here)?" data-presence="{position}"[^>]*>'
        r'<span class="presence-symbol" aria-hidden="true">(.)</span> '
        r'<span class="presence-word">(\w+)</span></li>',
        html,
    )
    return None if found is None else f"{found[2]} {found[3]}" + (" (class)" if found[1] else "")


@pytest.mark.django_db
def test_each_seat_shows_whether_its_player_has_the_page_open(no_redis, client, alice, bob):
    game = create_game(alice, players=3, bots=[None, "easy"])
    join_game(bob, game.pk)  # full: the table starts
    client.force_login(alice)
    html = table_of(client, game)
    assert mark_of(html, 0) == "● here (class)", "alice's own: she is looking at it"
    assert mark_of(html, 1) == "○ away"
    assert mark_of(html, 2) is None and 'data-presence="2"' not in html, "a bot: no mark"
    bobs = watcher_token(bob.pk)
    live.watchers.came(game.pk, bobs)
    assert mark_of(table_of(client, game), 1) == "● here (class)"
    live.watchers.left(game.pk, bobs)
    assert mark_of(table_of(client, game), 1) == "○ away"


@pytest.mark.django_db
def test_the_moves_shown_one_by_one_keep_the_marks(no_redis, client, alice, bob):
    game = create_game(alice, players=3, bots=[None, "easy"])
    join_game(bob, game.pk)
    live.watchers.came(game.pk, watcher_token(bob.pk))
    client.force_login(alice)
    html = client.get(reverse("game", args=[game.pk]), {"step": 0}, headers=HX).content.decode()
    assert mark_of(html, 1) == "● here (class)"


async def _read_until(chunks: list[str], wanted, seconds: float = 10.0) -> None:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        said = [json.loads(m) for chunk in chunks for m in HERE_EVENT.findall(chunk)]
        if said and said[-1] == wanted:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the stream never said {wanted}: {chunks}")


def _pushed_scenario(game, alice, bob) -> list[str]:
    """alice's page stream; bob's page opens, then closes: what alice's stream said."""

    async def scenario():
        chunks: list[str] = []

        async def read(user, lifetime, into):
            async for chunk in stream.game_events(
                game.pk, lifetime=lifetime, watcher=True, user_id=user.pk
            ):
                into.append(chunk)
            await sync_to_async(connections.close_all)()

        alices = asyncio.ensure_future(read(alice, 8.0, chunks))
        await _read_until(chunks, [0])
        while live.settings.REDIS_URL and not live.hub.redis_up:  # subscribed: nothing slips by
            await asyncio.sleep(0.05)
        bobs = asyncio.ensure_future(read(bob, 1.0, []))
        await _read_until(chunks, [0, 1])
        await bobs
        await _read_until(chunks, [0])
        alices.cancel()
        return chunks

    return asyncio.run(scenario())


@pytest.mark.django_db(transaction=True)
def test_a_page_opening_and_closing_is_pushed_to_the_other_pages(no_redis, alice, bob):
    game = create_game(alice, players=3, bots=[None, "easy"])
    join_game(bob, game.pk)
    chunks = _pushed_scenario(game, alice, bob)
    said = [json.loads(m) for chunk in chunks for m in HERE_EVENT.findall(chunk)]
    assert said == [[0], [0, 1], [0]], "each change once, nothing repeated"
    assert live.watchers.users(game.pk) == []


@pytest.mark.postgres  # with the PostgreSQL pass, which has the machine's Redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_a_page_of_another_process_is_pushed_too(with_redis, monkeypatch, alice, bob):
    told_only_from_elsewhere(monkeypatch)  # bob's page as if in another web process
    game = create_game(alice, players=3, bots=[None, "easy"])
    join_game(bob, game.pk)
    chunks = _pushed_scenario(game, alice, bob)
    said = [json.loads(m) for chunk in chunks for m in HERE_EVENT.findall(chunk)]
    assert said == [[0], [0, 1], [0]]
    assert set(names(online_now())) == {"alice", "bob"}, "their streams: online, in Redis"
