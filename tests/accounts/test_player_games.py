"""A player's games in play and finished games, a page at a time (issue 17): latest first, only
the games the viewer may see, a fixed number of queries, in both languages."""

import pytest
from django.urls import reverse

from accounts import selectors
from games.actions import create_game, join_game
from games.models import Game

pytestmark = pytest.mark.django_db


def url(name: str, which: str) -> str:
    return reverse("player_games", args=[name, which])


def test_finished_games_latest_first_a_page_at_a_time(
    client, finish_game, alice, monkeypatch, django_assert_num_queries
):
    monkeypatch.setattr(selectors, "PLAYER_GAMES_PAGE_SIZE", 2)
    games = [finish_game(alice, bots=("easy",), seed=n) for n in range(1, 4)]
    latest_first = sorted(games, key=lambda g: (g.finished_at, g.pk), reverse=True)
    with django_assert_num_queries(4):
        first = selectors.player_games_page("alice", "finished", 1)
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
