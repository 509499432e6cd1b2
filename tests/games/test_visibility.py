"""A private game (open, in play or finished) is seen only by its seated players, its invited
players and staff; to anyone else every address of it answers as a game that does not exist, and
no list links it. Public games stay anyone's to watch."""

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.urls import reverse

from games.actions import create_game, invite_player, join_game
from games.models import Game
from games.selectors import can_view, visible_games

from .conftest import play_out

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def private_game(act, alice, bob, status="active"):
    """A private 2-person game of alice and bob: open, in play or finished."""
    game = act(create_game, alice, players=2, visibility=Game.Visibility.PRIVATE, target=1)
    if status != "open":
        act(join_game, bob, game.pk, game.invite_code)
    if status == "finished":
        play_out(act, game, [alice, bob], random.Random(2))
    game.refresh_from_db()
    assert game.status == status
    return game


def logged_in(client_class, user):
    client = client_class()
    client.force_login(user)
    return client


def answers(client, game, invite_code=None):
    """Every way a visitor can ask about a game: its page, fragment, poll, move and table
    actions, with and without HTMX."""
    pk = game.pk
    gets = [
        client.get(reverse("game", args=[pk])),
        client.get(reverse("game", args=[pk]), headers=HX),
        client.get(reverse("game_poll", args=[pk]), {"version": 0}),
        client.get(reverse("game_poll", args=[pk]), {"version": game.version}, headers=HX),
    ]
    posts = [
        ("game_move", {"version": game.version, "kind": "play", "card": "Y7"}),
        ("game_join", {}),
        ("game_leave", {}),
        ("game_add_bot", {"level": "easy"}),
        ("game_remove_bot", {"position": 1}),
        ("game_start", {}),
        ("game_invite_player", {"username": "alice"}),
        ("game_come_back", {}),
    ]
    for name, data in posts:
        for headers in ({}, HX):
            gets.append(client.post(reverse(name, args=[pk]), data, headers=headers))
    return gets


@pytest.mark.parametrize("status", ["open", "active", "finished"])
def test_a_private_game_is_no_game_at_all_to_an_outsider(
    act, client, alice, bob, make_person, status
):
    game = private_game(act, alice, bob, status)
    outsider = logged_in(type(client), make_person("mallory"))
    version = game.version
    for visitor in (client, outsider):
        for response in answers(visitor, game):
            if response.status_code == 302:  # anonymous POST: to the login page first
                assert "/accounts/login/" in response["Location"] and visitor is client
                continue
            assert response.status_code == 404, response.request
            # the page's CSRF token is random letters: it may spell a name by chance
            body = re.sub(r'"X-CSRFToken": "[^"]*"', "", response.content.decode())
            body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)
            assert "alice" not in body and "bob" not in body
            if response.has_header("HX-Redirect"):
                assert response["HX-Redirect"] == reverse("lobby")
    game.refresh_from_db()
    assert game.version == version and game.seats.filter(user__username="mallory").count() == 0


def test_the_answer_for_a_private_game_is_the_answer_for_a_missing_one(act, client, alice, bob):
    game = private_game(act, alice, bob)
    missing = Game.objects.order_by("-pk").first().pk + 1000

    def seen(pk, path):
        response = client.get(reverse(path, args=[pk]), {"version": 0})
        # The same page, but for the address it was asked at and the form token of the moment.
        body = response.content.decode().replace(f"/{pk}/", "/N/")
        return response.status_code, re.sub(r'"X-CSRFToken": "\w+"', "", body)

    for path in ("game", "game_poll"):
        assert seen(game.pk, path) == seen(missing, path)


def test_seated_players_invited_players_and_staff_see_a_private_game(
    act, client, alice, bob, make_person, django_capture_on_commit_callbacks
):
    game = act(create_game, alice, players=3, visibility=Game.Visibility.PRIVATE)
    guest = make_person("guest")
    act(invite_player, alice, game.pk, "guest")
    staff = make_person("staff")
    staff.is_staff = True
    staff.save()
    for user in (alice, guest, staff):
        viewer = logged_in(type(client), user)
        assert viewer.get(reverse("game", args=[game.pk])).status_code == 200
        assert viewer.get(reverse("game_poll", args=[game.pk]), {"version": -1}).status_code == 200
    # The invitee joins from the game page, without the code: the invitation is enough.
    guests = logged_in(type(client), guest)
    guests.post(reverse("game_join", args=[game.pk]))
    assert game.seats.filter(user=guest).exists()
    assert {g.pk for g in visible_games(guest)} == {game.pk}
    assert not visible_games(AnonymousUser()).exists()
    assert can_view(game, staff) and not can_view(game, bob)


def test_the_invite_link_shows_an_open_private_table_then_nothing_more(act, client, alice, bob):
    game = private_game(act, alice, bob, status="open")
    link = reverse("game_invite", args=[game.invite_code])
    bobs = logged_in(type(client), bob)
    page = bobs.get(link)
    assert page.status_code == 200 and "Take a seat" in page.content.decode()
    assert f"invite={game.invite_code}" in page.content.decode()  # the page polls with it
    poll = reverse("game_poll", args=[game.pk])
    assert (
        bobs.get(poll, {"version": -1, "invite": game.invite_code}, headers=HX).status_code == 200
    )
    assert bobs.get(poll, {"version": -1}, headers=HX).status_code == 404
    bobs.post(reverse("game_join", args=[game.pk]), {"invite": game.invite_code})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # Started: the code shows an outsider nothing, and sends the players to the game.
    assert client.get(link).status_code == 404
    assert "This game has already started." in client.get(link).content.decode()
    assert bobs.get(link)["Location"] == reverse("game", args=[game.pk])
    assert client.get(reverse("game_invite", args=["not-a-code"])).status_code == 404


def test_no_list_shows_a_private_game_to_others(act, client, alice, bob, make_person):
    private = private_game(act, alice, bob, status="finished")
    public = act(create_game, alice, players=2, bots=["easy"], target=1)
    play_out(act, public, [alice], random.Random(3))
    outsider = logged_in(type(client), make_person("mallory"))
    private_link = f'href="{reverse("game", args=[private.pk])}"'
    public_link = f'href="{reverse("game", args=[public.pk])}"'
    pages = [
        reverse("lobby"),
        reverse("leaderboard"),
        reverse("profile", args=["alice"]),
        reverse("profile", args=["bob"]),
    ]
    for visitor in (client, outsider):
        for path in pages:
            assert private_link not in visitor.get(path).content.decode(), path
    assert public_link in outsider.get(reverse("profile", args=["alice"])).content.decode()
    bobs = logged_in(type(client), bob)
    assert private_link in bobs.get(reverse("profile", args=["alice"])).content.decode()


def test_a_public_game_is_anyones_to_watch_without_the_hands(act, client, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "The board" in html and 'data-zone="hand"' not in html


def test_an_invitation_lets_the_invitee_see_the_table_and_is_mailed(
    act, client, alice, make_person
):
    game = act(create_game, alice, players=3, visibility=Game.Visibility.PRIVATE)
    guest = make_person("guest")
    guests = logged_in(type(client), guest)
    assert guests.get(reverse("game", args=[game.pk])).status_code == 404
    act(invite_player, alice, game.pk, "GUEST")
    assert guests.get(reverse("game", args=[game.pk])).status_code == 200
    assert mail.outbox and mail.outbox[-1].to == ["guest@example.com"]
