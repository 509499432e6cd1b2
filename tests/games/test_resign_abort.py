"""Ending a game honestly (issue 17): before its first card any seated person aborts it (no
winner, nothing rated, the others emailed); after it a player resigns (the stand-in plays the
seat to the end, the seat ranks last for rating, the others emailed), with a confirmation."""

import random

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import RatingChange
from games.actions import ActionError, abort_game, come_back, create_game, join_game, resign
from games.models import Game, Seat

from .conftest import play_out

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def trio(act, alice, bob):
    """alice and bob against an Easy bot, started."""
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def first_card_played(state) -> bool:
    return bool(state.tricks or state.trick or state.round > 1)


def test_before_the_first_card_a_player_aborts_and_nothing_is_rated(act, trio, alice, bob):
    mail.outbox.clear()
    act(abort_game, bob, trio.pk)
    trio.refresh_from_db()
    assert trio.status == Game.Status.ABORTED and trio.aborted_by == bob
    assert not Seat.objects.filter(game=trio, acting_since__isnull=False).exists()
    assert not RatingChange.objects.filter(game=trio).exists()
    told = [m for m in mail.outbox if "aborted" in m.subject]
    assert [m.to for m in told] == [["alice@example.com"]]  # not bob, nor the bot
    assert "bob aborted game" in told[0].body
    with pytest.raises(ActionError) as refused:
        act(resign, alice, trio.pk)
    assert refused.value.code == "aborted"


def test_after_the_first_card_the_game_can_no_longer_be_aborted(act, trio, alice, bob):
    game = play_out(act, trio, [alice, bob], random.Random(5), until=first_card_played)
    version = game.version
    with pytest.raises(ActionError) as refused:
        act(abort_game, alice, game.pk)
    assert refused.value.code == "too_late"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == version


def test_a_resigned_seat_is_played_by_the_stand_in_and_ranked_last(act, trio, alice, bob):
    game = play_out(act, trio, [alice, bob], random.Random(6), until=first_card_played)
    mail.outbox.clear()
    act(resign, alice, game.pk)
    seat = Seat.objects.get(game=game, user=alice)
    assert seat.resigned_at is not None and seat.autopilot
    told = [m for m in mail.outbox if "resigned" in m.subject]
    assert [m.to for m in told] == [["bob@example.com"]]
    with pytest.raises(ActionError) as refused:
        act(come_back, alice, game.pk)  # there is no "I'm back" after resigning
    assert refused.value.code == "resigned"
    with pytest.raises(ActionError):
        act(resign, alice, game.pk)
    game = play_out(act, game, [bob], random.Random(7))  # only bob plays: alice's seat is a bot's
    assert game.status == Game.Status.FINISHED
    ranks = dict(RatingChange.objects.filter(game=game).values_list("position", "rank"))
    alice_rank = RatingChange.objects.get(game=game, user=alice)
    assert alice_rank.mu_after < alice_rank.mu_before
    # ranked after every seat that was played, whatever her points
    assert alice_rank.rank == max(ranks.values())


def test_resigning_asks_for_the_yes_and_a_page_without_it_changes_nothing(
    act, client, trio, alice, bob
):
    game = play_out(act, trio, [alice, bob], random.Random(8), until=first_card_played)
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert reverse("game_resign", args=[game.pk]) in page and "Yes, resign" in page
    assert reverse("game_abort", args=[game.pk]) not in page
    refused = client.post(reverse("game_resign", args=[game.pk]), {}, headers=HX)
    assert refused.status_code == 200 and "confirm with the" in refused.content.decode()
    assert Seat.objects.get(game=game, user=alice).resigned_at is None
    done = client.post(reverse("game_resign", args=[game.pk]), {"confirm": "yes"}, headers=HX)
    assert "You resigned: a bot plays your seat to the end." in done.content.decode()
    assert Seat.objects.get(game=game, user=alice).resigned_at is not None
    client.force_login(bob)
    assert ">resigned<" in client.get(reverse("game", args=[game.pk])).content.decode()


def test_the_aborted_game_s_page_says_so_and_offers_no_move(act, client, trio, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("game", args=[trio.pk])).content.decode()
    assert "Yes, abort the game" in page and "Yes, resign" not in page
    done = client.post(reverse("game_abort", args=[trio.pk]), {"confirm": "yes"}, headers=HX)
    html = done.content.decode()
    assert "alice aborted the game before its first card." in html
    assert 'name="kind"' not in html  # no move form
    assert "Abort the game" not in html
    strangers = client.post(reverse("game_abort", args=[trio.pk]), {"confirm": "yes"}, headers=HX)
    assert "This game was aborted." in strangers.content.decode()


def test_only_a_seated_player_ends_a_game(act, client, trio, make_person):
    client.force_login(make_person("mallory"))
    client.post(reverse("game_abort", args=[trio.pk]), {"confirm": "yes"}, headers=HX)
    trio.refresh_from_db()
    assert trio.status == Game.Status.ACTIVE


def test_every_aborted_game_and_every_resignation_is_told(act, alice, bob):
    """An email is sent once per occasion: the occasion names its game, so a second aborted game
    (or resignation from the same seat of another game) is told too."""
    for _ in range(2):
        game = act(create_game, alice, players=2)
        act(join_game, bob, game.pk)
        mail.outbox.clear()
        act(abort_game, bob, game.pk)
        assert [m.to for m in mail.outbox if "aborted" in m.subject] == [["alice@example.com"]]
    for seed in (11, 12):
        game = act(create_game, alice, players=2)
        act(join_game, bob, game.pk)
        game = play_out(act, game, [alice, bob], random.Random(seed), until=first_card_played)
        mail.outbox.clear()
        act(resign, Seat.objects.get(game=game, position=0).user, game.pk)
        assert len([m for m in mail.outbox if "resigned" in m.subject]) == 1
