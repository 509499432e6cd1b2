"""A player's games in play and finished games, a page at a time (issue 17): latest first, only
the games the viewer may see, a fixed number of queries, in both languages."""

import random

import pytest
from django.urls import reverse

from games import player_record, table
from games import selectors as game_selectors
from games.actions import create_game, join_game, resign
from games.models import Game
from tests.games.conftest import play_out
from tests.steering import your_games

pytestmark = pytest.mark.django_db


def url(name: str, which: str) -> str:
    return reverse("player_games", args=[name, which])


def test_finished_games_latest_first_a_page_at_a_time(
    client, finish_game, alice, monkeypatch, django_assert_num_queries
):
    monkeypatch.setattr(player_record, "PLAYER_GAMES_PAGE_SIZE", 2)
    games = [finish_game(alice, bots=("easy",), seed=n) for n in range(1, 4)]
    latest_first = sorted(games, key=lambda g: (g.finished_at, g.pk), reverse=True)
    with django_assert_num_queries(4):
        first = player_record.player_games_page("alice", "finished", 1)
    assert [row["game"] for row in first["rows"]] == latest_first[:2]
    assert first["rows"][0]["names"][0] == "alice"
    second = client.get(url("alice", "finished"), {"page": 2}).content.decode()
    assert f"/games/{latest_first[2].pk}/" in second and "Page 2 of 2" in second
    assert f"/games/{latest_first[0].pk}/" not in second
    assert "Page 1 of 2" in client.get(url("alice", "finished"), {"page": "x"}).content.decode()


def test_games_in_play_and_private_ones_only_for_those_who_may_see_them(
    act, client, alice, bob, make_person
):
    public = act(create_game, alice, players=2, bots=["easy"])
    private = act(create_game, alice, players=2, visibility="private")
    act(join_game, bob, private.pk, invite_code=private.invite_code)
    waiting = act(create_game, alice, players=3)
    assert Game.objects.get(pk=private.pk).status == Game.Status.ACTIVE
    page = client.get(url("alice", "in-play")).content.decode()
    assert f"/games/{public.pk}/" in page
    assert f"/games/{private.pk}/" not in page  # an anonymous visitor
    assert f"/games/{waiting.pk}/" not in page  # not started
    client.force_login(make_person("mallory"))
    assert f"/games/{private.pk}/" not in client.get(url("alice", "in-play")).content.decode()
    client.force_login(bob)
    assert f"/games/{private.pk}/" in client.get(url("alice", "in-play")).content.decode()
    assert "Easy bot" in client.get(url("alice", "in-play")).content.decode()


def test_no_such_player_or_list_is_404(client, alice):
    assert client.get(url("nobody", "finished")).status_code == 404
    assert client.get(url("alice", "everything")).status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["Games in play of alice", "No games here."]), ("fr", ["Parties en cours de alice"])],
)
def test_the_list_in_both_languages(client, alice, language, words):
    html = client.get(url("alice", "in-play"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in html
    profile = client.get(reverse("profile", args=["alice"]), HTTP_ACCEPT_LANGUAGE=language)
    assert url("alice", "finished") in profile.content.decode()


# --- "Your games" in the lobby (issue 31): in sections, never finished games among those in play


# The lobby's page, whatever the number of games: the session, its user and their last visit,
# the open tables and their seats, the user's games with their seats (games.selectors.lobby),
# whether they have played the tutorial (its offer, games.tutorial.offer).
LOBBY_PAGE_QUERIES = 7
SECTIONS = {
    "turn": "turn-title",
    "others": "others-title",
    "open": "waiting-title",
    "ended": "ended-title",
}


def sections(html: str) -> dict[str, str]:
    """The HTML of each section of "Your games" shown, by name: from its heading to the end of
    its list."""
    mine = html[html.index('id="mine-title"') : html.index('id="new-title"')]
    found = {}
    for name, heading in SECTIONS.items():
        if f'id="{heading}"' in mine:
            start = mine.index(f'id="{heading}"')
            found[name] = mine[start : mine.index("</ul>", start)]
    return found


def test_your_games_in_sections_each_game_in_one(act, client, alice, bob):
    games = your_games(act, alice, bob)
    assert Game.objects.get(pk=games["others"].pk).status == Game.Status.ACTIVE
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    shown = sections(html)
    assert list(shown) == ["turn", "others", "open", "ended"]
    headings = ["Your turn", "Waiting for others", "Your open tables", "Finished"]
    for (name, part), heading in zip(shown.items(), headings, strict=True):
        assert heading in part
        expected = games[name] if isinstance(games[name], list) else [games[name]]
        for game in Game.objects.all():
            link = f'href="/games/{game.pk}/"'
            assert (link in part) == (game in expected), (name, game, game.status)
    ended = shown["ended"]
    finished, aborted, expired = games["ended"]
    # Played to its end by both seats: ranked by points (games.results), equal ones sharing.
    mine, bot = (seat.score for seat in finished.seats.order_by("position"))
    points = f"{mine} point" if mine == 1 else f"{mine} points"
    line = f"finished: {table.ordinal(1 if mine >= bot else 2)}, {points}"
    assert line in ended and "aborted" in ended and "expired" in ended
    # The latest ended first.
    order = [ended.index(f"/games/{g.pk}/") for g in (finished, aborted, expired)]
    assert order == sorted(order)
    assert url("alice", "finished") in html  # every finished game, a page at a time
    # The one waited for is named in "Waiting for others".
    assert "waiting for bob" in shown["others"]


def test_your_games_with_none_says_so_and_empty_sections_are_left_out(act, client, alice):
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    assert "You have no games yet: play one against bots, or join an open table." in html
    assert not sections(html)
    act(create_game, alice, players=3)
    html = client.get(reverse("lobby")).content.decode()
    assert list(sections(html)) == ["open"]
    assert "You have no games yet" not in html and "Your turn" not in html


def test_the_lobby_lists_the_latest_ended_games_only(act, client, alice, monkeypatch):
    monkeypatch.setattr(game_selectors.listings, "LOBBY_FINISHED", 2)
    ended = []
    for seed in range(3):
        game = act(create_game, alice, players=2, bots=["easy"], target=1)
        ended.append(play_out(act, game, [alice], random.Random(seed)))
    client.force_login(alice)
    part = sections(client.get(reverse("lobby")).content.decode())["ended"]
    latest = sorted(ended, key=lambda g: (g.finished_at, g.pk), reverse=True)
    assert [f"/games/{g.pk}/" in part for g in latest] == [True, True, False]


@pytest.mark.parametrize("games", [1, 10])
def test_your_games_cost_the_same_queries_for_1_and_10_games(
    act, client, alice, bob, games, django_assert_max_num_queries
):
    for _ in range(games):
        your_games(act, alice, bob)
    with django_assert_max_num_queries(3):
        context = game_selectors.lobby(alice)
    shown = [len(context["my_games"][name]) for name in SECTIONS]
    assert shown == [games, games, games, min(3 * games, game_selectors.listings.LOBBY_FINISHED)]
    client.force_login(alice)
    with django_assert_max_num_queries(LOBBY_PAGE_QUERIES):
        assert client.get(reverse("lobby")).status_code == 200


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Your turn", "Waiting for others", "Your open tables", "Finished"]),
        ("fr", ["À vous", "En attente des autres", "Vos tables ouvertes", "Terminées"]),
    ],
)
def test_your_games_sections_in_both_languages(act, client, alice, bob, language, words):
    your_games(act, alice, bob)
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    for word in words:
        assert f">{word}</h3>" in html


def test_a_game_left_by_resigning_says_so_beside_the_place(act, client, alice):
    """The place is the result's (games.results): a seat that resigned is last, and says why."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"], target=1)
    act(resign, alice, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    part = sections(client.get(reverse("lobby")).content.decode())["ended"]
    assert "finished: 3rd, " in part and "(resigned: ranked last)" in part
