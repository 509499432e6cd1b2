"""The games in play (``/games/``): the public games being played, for spectators, the most
recent activity first, filtered by a plain GET form. Private games are never listed, whoever
asks; waiting and finished games are not in play."""

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from games.actions import create_game, join_game
from games.models import Game, MoveRecord
from games.selectors import IN_PLAY_PAGE_SIZE

from .conftest import DAY, correspondence_game, play_out, play_person_move

pytestmark = pytest.mark.django_db
URL = reverse("games_in_play")
GAME_LINK = re.compile(r'href="/games/(\d+)/"')


def listed(client, data=None) -> list[int]:
    """The games the page lists, in its order."""
    response = client.get(URL, data or {})
    assert response.status_code == 200
    return [int(pk) for pk in GAME_LINK.findall(response.content.decode())]


def two_people(act, alice, bob, **options) -> Game:
    """A started game of alice and bob: no bot, so no move yet."""
    game = act(create_game, alice, players=2, **options)
    act(join_game, bob, game.pk, game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def with_bots(act, user, players: int, **options) -> Game:
    """A game of ``user`` and bots, started at once (the bots may have moved)."""
    game = act(create_game, user, players=players, bots=["easy"] * (players - 1), **options)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def logged_in(client_class, user):
    client = client_class()
    client.force_login(user)
    return client


def test_only_public_games_in_play_are_listed_whoever_asks(
    act, client, alice, bob, carol, make_person
):
    public = two_people(act, alice, bob)
    public_with_bots = with_bots(act, carol, 3)
    private = two_people(act, alice, bob, visibility=Game.Visibility.PRIVATE)
    private_with_bots = with_bots(act, carol, 4, visibility=Game.Visibility.PRIVATE)
    waiting = act(create_game, alice, players=3)
    finished = two_people(act, alice, bob, target=1)
    play_out(act, finished, [alice, bob], random.Random(2))
    finished.refresh_from_db()
    assert waiting.status == Game.Status.OPEN and finished.status == Game.Status.FINISHED

    staff = make_person("staff")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    visitors = {
        "anonymous": client,
        "outsider": logged_in(type(client), make_person("mallory")),
        "a player of the private game": logged_in(type(client), alice),
        "staff": logged_in(type(client), User.objects.get(pk=staff.pk)),
    }
    for who, visitor in visitors.items():
        assert sorted(listed(visitor)) == sorted([public.pk, public_with_bots.pk]), who
        html = visitor.get(URL).content.decode()
        for hidden in (private, private_with_bots, waiting, finished):
            assert f'href="/games/{hidden.pk}/"' not in html, (who, hidden.status)


def test_the_most_recent_activity_comes_first(act, client, alice, bob, clock):
    now = clock()
    started_an_hour_ago = two_people(act, alice, bob)
    started_two_hours_ago = two_people(act, alice, bob)
    moved_three_hours_ago = two_people(act, alice, bob)
    moved_ten_minutes_ago = two_people(act, alice, bob)
    rng = random.Random(5)
    for game in (moved_three_hours_ago, moved_ten_minutes_ago):
        for _ in range(2):  # two moves: the last one counts
            assert any(play_person_move(act, game, user, rng) for user in (alice, bob))
    Game.objects.filter(pk=started_an_hour_ago.pk).update(started_at=now - timedelta(hours=1))
    Game.objects.filter(pk=started_two_hours_ago.pk).update(started_at=now - timedelta(hours=2))
    # A game's start is older than its moves: the last move is what counts.
    for game, ago in ((moved_three_hours_ago, 3), (moved_ten_minutes_ago, 1 / 6)):
        Game.objects.filter(pk=game.pk).update(started_at=now - timedelta(days=2))
        MoveRecord.objects.filter(game=game).update(created_at=now - timedelta(days=1))
        last = MoveRecord.objects.filter(game=game).order_by("-number").first()
        MoveRecord.objects.filter(pk=last.pk).update(created_at=now - timedelta(hours=ago))

    assert listed(client) == [
        moved_ten_minutes_ago.pk,
        started_an_hour_ago.pk,
        started_two_hours_ago.pk,
        moved_three_hours_ago.pk,
    ]
    html = client.get(URL).content.decode()
    assert "10\xa0minutes ago" in html and "1\xa0hour ago" in html and "3\xa0hours ago" in html


def test_each_row_says_who_plays_how_fast_and_where_the_game_is(act, client, alice, carol):
    game = with_bots(act, carol, 3)
    correspondence_game(act, alice)
    html = client.get(URL).content.decode()
    assert f'<a href="/games/{game.pk}/">Game {game.pk}</a>' in html
    assert "3 players, live, 5 minutes a move" in html
    assert "correspondence, 1 day a move" in html
    assert f"round 1 of {game.round_count}" in html
    for seat in game.seats.select_related("user"):
        assert str(seat.name) in html
    assert html.count('<span class="tag">bot</span>') == 2 + 2  # two bots at each table
    target_game = with_bots(act, alice, 2, target=50)
    html = client.get(URL).content.decode()
    assert "round 1, to 50 points" in html, target_game


def test_the_player_count_filter(act, client, alice, bob, carol):
    two = two_people(act, alice, bob)
    three = with_bots(act, carol, 3)
    five = with_bots(act, carol, 5)
    assert sorted(listed(client)) == sorted([two.pk, three.pk, five.pk])
    assert listed(client, {"players": "2"}) == [two.pk]
    assert listed(client, {"players": "3"}) == [three.pk]
    assert listed(client, {"players": "5"}) == [five.pk]
    assert listed(client, {"players": "4"}) == []
    assert "No public game in play matches these filters." in (
        client.get(URL, {"players": "4"}).content.decode()
    )
    assert sorted(listed(client, {"players": ""})) == sorted([two.pk, three.pk, five.pk])
    html = client.get(URL, {"players": "3"}).content.decode()
    assert '<option value="3" selected>3</option>' in html  # the form shows what is chosen


def test_the_pace_filter(act, client, alice, bob, carol):
    live = two_people(act, alice, bob)
    slow = correspondence_game(act, carol)
    assert listed(client, {"pace": "live"}) == [live.pk]
    assert listed(client, {"pace": "correspondence"}) == [slow.pk]
    assert sorted(listed(client, {"pace": ""})) == sorted([live.pk, slow.pk])
    both = two_people(
        act, alice, bob, time_control=Game.TimeControl.CORRESPONDENCE, move_seconds=DAY
    )
    assert sorted(listed(client, {"pace": "correspondence", "players": "2"})) == [both.pk]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": "9"}, "Choose 2 to 5 players, or any number."),
        ({"players": "two"}, "Choose 2 to 5 players, or any number."),
        ({"pace": "blitz"}, "Choose live, correspondence, or both."),
        ({"pace": "live", "players": "1"}, "Choose 2 to 5 players, or any number."),
        ({"players": "3" * 500, "pace": "x" * 500}, "Choose 2 to 5 players, or any number."),
    ],
)
def test_a_filter_not_understood_says_so_and_shows_every_game(
    act, client, alice, bob, carol, data, message
):
    games = [two_people(act, alice, bob).pk, correspondence_game(act, carol).pk]
    response = client.get(URL, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"{message} Showing every game in play instead." in html
    assert sorted(listed(client, data)) == sorted(games)
    form = html.split("<table")[0]
    assert re.findall(r'value="([^"]*)" selected', form) == ["", ""]  # the form: back to "any"
    assert "x" * 41 not in html


def test_a_page_number_not_understood_shows_the_first_page(act, client, alice, bob):
    game = two_people(act, alice, bob)
    for page in ("0", "-1", "abc", "99"):
        response = client.get(URL, {"page": page})
        assert response.status_code == 200
    assert listed(client, {"page": "abc"}) == [game.pk]


def test_the_list_goes_by_pages_of_25_and_the_links_keep_the_filters(act, client, alice, bob):
    games = [two_people(act, alice, bob) for _ in range(IN_PLAY_PAGE_SIZE + 2)]
    correspondence_game(act, alice)
    newest_first = [g.pk for g in reversed(games)]  # started one after another, ties by number
    first = client.get(URL, {"players": "2"}).content.decode()
    assert [int(pk) for pk in GAME_LINK.findall(first)] == newest_first[:IN_PLAY_PAGE_SIZE]
    assert "Page 1 of 2" in first
    assert 'href="?players=2&amp;page=2" rel="next"' in first
    assert listed(client, {"players": "2", "page": "2"}) == newest_first[IN_PLAY_PAGE_SIZE:]
    second = client.get(URL, {"players": "2", "page": "2"}).content.decode()
    assert 'href="?players=2&amp;page=1" rel="prev"' in second
    assert 'rel="next"' not in second


def test_the_page_costs_the_same_with_one_game_or_thirty(
    act, client, alice, bob, carol, django_assert_num_queries
):
    two_people(act, alice, bob)
    with_bots(act, carol, 3)
    carols = logged_in(type(client), carol)
    carols.get(URL)  # the first visit of the minute records presence
    # the count, the page with its last activity and round, its seats with their players
    with django_assert_num_queries(3):
        assert client.get(URL).status_code == 200
    with django_assert_num_queries(3 + 2):  # and the session and the player
        assert carols.get(URL).status_code == 200
    for _ in range(14):
        two_people(act, alice, bob)
        with_bots(act, carol, 4)
    for data in ({}, {"page": "2"}, {"players": "4", "pace": "live"}):
        with django_assert_num_queries(3):
            assert client.get(URL, data).status_code == 200
        with django_assert_num_queries(3 + 2):
            assert carols.get(URL, data).status_code == 200


def test_a_listed_game_is_anyones_to_watch_without_the_hands(act, client, alice, bob):
    two_people(act, alice, bob)
    (pk,) = listed(client)
    html = client.get(reverse("game", args=[pk])).content.decode()
    assert "The board" in html and 'data-zone="hand"' not in html


def test_the_nav_links_the_page(client):
    html = client.get(reverse("lobby")).content.decode()
    assert f'<a href="{URL}">Watch</a>' in html
    assert "No public game is being played right now." in client.get(URL).content.decode()
