"""Deleting an account: confirmed with the password; the player's games in play go on with the
stand-in bot, open tables lose them, and finished games stay whole for the others."""

import random

import pytest
from django.urls import reverse

from accounts.actions import delete_account
from accounts.models import RatingChange, User
from games.actions import create_game, join_game
from games.bots import STAND_IN
from games.models import Game

from .conftest import PASSWORD, play_out

pytestmark = pytest.mark.django_db


def test_the_page_asks_for_confirmation_and_says_what_happens(client, alice):
    client.force_login(alice)

    html = client.get(reverse("account_delete")).content.decode()

    assert "This cannot be undone." in html
    assert "(former player)" in html
    assert 'name="password"' in html


def test_a_wrong_password_deletes_nothing(client, alice):
    client.force_login(alice)

    response = client.post(reverse("account_delete"), {"password": "not it"})

    assert "That is not your password." in response.content.decode()
    assert User.objects.filter(pk=alice.pk).exists()


def test_delete_an_account(act, client, alice, bob, finish_game):
    finished = finish_game(alice)
    in_play = act(create_game, alice, players=2)
    act(join_game, bob, in_play.pk)
    in_play = play_out(act, in_play, [alice, bob], random.Random(1), until=lambda s: s.tokens)
    open_table = act(create_game, bob, players=3)
    act(join_game, alice, open_table.pk)
    client.force_login(alice)

    response = client.post(reverse("account_delete"), {"password": PASSWORD}, follow=True)

    assert "Your account is deleted." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not User.objects.filter(pk=alice.pk).exists()
    # The game in play goes on, with the stand-in bot in her seat.
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.ACTIVE
    assert in_play.seats.get(position=0).user.bot_level == STAND_IN
    # She has left the table that had not started.
    assert list(open_table.seats.values_list("user__username", flat=True)) == ["bob", None, None]
    # The finished game is whole: her seat shows a neutral name, scores and ratings stay.
    seat = finished.seats.get(position=0)
    assert seat.user is None
    assert RatingChange.objects.get(game=finished, position=0).user is None
    page = client.get(reverse("game", args=[finished.pk])).content.decode()
    assert "(former player)" in page
    # Her name is gone from the site.
    assert client.get(reverse("profile", args=["alice"])).status_code == 404


def test_bots_have_no_account_to_delete(client):
    from accounts.actions import delete_account
    from accounts.models import bot_user

    with pytest.raises(ValueError):
        delete_account(bot_user("easy"))


def test_the_lobby_names_a_former_player_as_the_game_page_does(act, client, alice, bob):
    game = act(create_game, alice, players=2, target=1)
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(2))
    assert game.status == Game.Status.FINISHED
    delete_account(User.objects.get(pk=alice.pk))
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "(former player), bob" in lobby and "(open seat)" not in lobby
    assert "(former player)" in page
