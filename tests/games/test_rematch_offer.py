"""A rematch as on lichess (issue 31, point 4): one person asks, every other person of the
finished game accepts or declines on its page, the bots keep their seats, and the new game starts
by itself once everyone has accepted; or the offer ends (declined, cancelled, expired) and every
page says so. The pages of the old game hear of each change through its version (``live``)."""

import random
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils.timezone import now

from accounts.models import User
from games.actions import ActionError, create_game, join_game, resign
from games.actions.deadlines import due, tick
from games.actions.rematches import (
    LIVE_REMATCH_OFFER,
    accept_rematch,
    decline_rematch,
    rematch,
)
from games.models import Game, RematchOffer
from games.notifications import compose

from .conftest import play_out, seat_of

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def finished_game(act, alice, bob, carol, **options):
    """alice, bob and carol with an Easy bot (seat 2), played out."""
    game = act(create_game, alice, players=4, bots=[None, "easy", None], target=20, **options)
    act(join_game, bob, game.pk)
    act(join_game, carol, game.pk)
    return play_out(act, game, [alice, bob, carol], random.Random(12))


@pytest.fixture
def trio(act, make_person):
    people = [make_person(n) for n in ("alice", "bob", "carol")]
    return (finished_game(act, *people), *people)


def table_tag(html: str) -> str:
    """The opening tag of the page's table, ``#game``: what it listens to."""
    return re.search(r'<section id="game"[^>]*>', html)[0]


def page(client, game, user=None, htmx=False):
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]), headers=HX if htmx else {})
    return response


def test_an_offer_waits_for_every_other_person_and_the_last_yes_starts_the_game(act, trio):
    game, alice, bob, carol = trio
    version = Game.objects.get(pk=game.pk).version
    offer = act(rematch, bob, game.pk)
    assert offer.outcome == RematchOffer.Outcome.OPEN and offer.accepted == [bob.pk]
    assert offer.new_game is None and not Game.objects.filter(rematch_of=game).exists()
    assert Game.objects.get(pk=game.pk).version == version + 1, "its pages hear of it"
    assert offer.expires_at - offer.asked_at == LIVE_REMATCH_OFFER

    act(accept_rematch, carol, game.pk, offer.pk)
    offer.refresh_from_db()
    assert offer.accepted == [bob.pk, carol.pk] and offer.outcome == RematchOffer.Outcome.OPEN
    act(accept_rematch, carol, game.pk, offer.pk)  # a double click changes nothing
    assert RematchOffer.objects.get(pk=offer.pk).accepted == [bob.pk, carol.pk]

    act(accept_rematch, alice, game.pk, offer.pk)
    offer.refresh_from_db()
    new = offer.new_game
    assert offer.outcome == RematchOffer.Outcome.ACCEPTED and new.rematch_of_id == game.pk
    assert new.status == Game.Status.ACTIVE, "it starts by itself"
    assert {s.position: s.user_id for s in new.seats.all()} == {
        s.position: s.user_id for s in game.seats.all()
    }, "the same seats, the bot (same level) at its own"
    assert (new.players, new.target, new.time_control, new.move_seconds, new.visibility) == (
        game.players,
        game.target,
        game.time_control,
        game.move_seconds,
        game.visibility,
    )
    # Asking again afterwards gives the rematch that started, not a second one.
    assert act(rematch, carol, game.pk).new_game == new
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_asking_while_an_offer_is_open_accepts_it(act, trio):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    assert act(rematch, bob, game.pk) == offer  # both asked at once: one offer
    assert act(rematch, bob, game.pk).accepted == [alice.pk, bob.pk]
    assert RematchOffer.objects.filter(game=game).count() == 1
    act(rematch, carol, game.pk)
    assert RematchOffer.objects.get(pk=offer.pk).new_game.status == Game.Status.ACTIVE


def test_with_only_bots_to_ask_the_rematch_starts_at_once(act, client, alice):
    game = act(create_game, alice, players=2, bots=["easy"], target=10)
    game = play_out(act, game, [alice], random.Random(13))
    client.force_login(alice)
    response = client.post(reverse("game_rematch", args=[game.pk]))
    new = Game.objects.get(rematch_of=game)
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[new.pk])
    assert new.status == Game.Status.ACTIVE
    response = client.post(reverse("game_rematch", args=[game.pk]), headers=HX)
    assert response["HX-Redirect"] == reverse("game", args=[new.pk])


def test_a_decline_ends_the_offer_and_every_page_says_who(act, client, trio, make_person):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    version = Game.objects.get(pk=game.pk).version
    act(decline_rematch, carol, game.pk, offer.pk)
    offer.refresh_from_db()
    assert (offer.outcome, offer.ended_by) == (RematchOffer.Outcome.DECLINED, carol)
    assert Game.objects.get(pk=game.pk).version == version + 1
    assert not Game.objects.filter(rematch_of=game).exists()
    for viewer in (alice, bob, make_person("watcher"), None):
        if viewer is None:
            client.logout()
        html = page(client, game, viewer).content.decode()
        assert "carol declined the rematch." in html
        assert "Accept" not in html
    # bob, whose page still showed the offer, is told what became of it; nothing changes
    with pytest.raises(ActionError, match="carol declined the rematch.") as refused:
        act(accept_rematch, bob, game.pk, offer.pk)
    assert refused.value.code == "no_offer"
    # and a new offer may be asked for
    second = act(rematch, bob, game.pk)
    assert second != offer and second.outcome == RematchOffer.Outcome.OPEN


def test_the_asker_cancels_and_the_pages_say_so(act, client, trio):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    html = page(client, game, alice).content.decode()
    assert "You offered a rematch." in html and "Waiting for bob, carol…" in html
    assert "Cancel the rematch" in html and ">Accept<" not in html
    client.force_login(alice)
    answer = client.post(
        reverse("game_rematch_decline", args=[game.pk]), {"offer": offer.pk}, headers=HX
    )
    assert "alice cancelled the rematch offer." in answer.content.decode()
    assert RematchOffer.objects.get(pk=offer.pk).outcome == RematchOffer.Outcome.CANCELLED
    assert "alice cancelled the rematch offer." in page(client, game, bob).content.decode()


def test_the_other_players_page_shows_the_offer_with_accept_and_decline(act, client, trio):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    html = page(client, game, bob, htmx=True).content.decode()
    assert "alice offers a rematch." in html
    assert reverse("game_rematch_accept", args=[game.pk]) in html
    assert reverse("game_rematch_decline", args=[game.pk]) in html
    assert f'name="offer" value="{offer.pk}"' in html
    assert "The offer expires in" in html
    assert re.search(r'class="countdown" data-seconds="(29[0-9]|300)">[45]:[0-9][0-9]<', html)
    # the finished game's page listens while its rematch may still change
    assert reverse("game_events", args=[game.pk]) in table_tag(html)
    assert "hx-get=" in table_tag(html)
    # bob accepts without JavaScript: a plain form, then back to the page
    answer = client.post(reverse("game_rematch_accept", args=[game.pk]), {"offer": offer.pk})
    assert answer.status_code == 302 and answer["Location"] == reverse("game", args=[game.pk])
    html = page(client, game, bob).content.decode()
    assert "You accepted the rematch." in html and "Waiting for carol…" in html


def test_once_it_starts_the_players_pages_move_and_spectators_get_a_link(
    act, client, trio, make_person
):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    act(accept_rematch, bob, game.pk, offer.pk)
    client.force_login(carol)
    answer = client.post(
        reverse("game_rematch_accept", args=[game.pk]), {"offer": offer.pk}, headers=HX
    )
    new = Game.objects.get(rematch_of=game)
    assert answer["HX-Redirect"] == reverse("game", args=[new.pk])
    # alice's open page fetches its table after the new version: it is sent to the new game
    client.force_login(alice)
    fetched = client.get(reverse("game_poll", args=[game.pk]), {"version": 0}, headers=HX)
    assert fetched["HX-Redirect"] == reverse("game", args=[new.pk])
    html = page(client, game, alice).content.decode()
    assert f"Go to the rematch (game {new.pk})" in html
    assert "hx-get=" not in table_tag(html), "nothing more to hear once the rematch started"
    html = page(client, game, make_person("watcher"), htmx=True).content.decode()
    assert f"Watch the rematch (game {new.pk})" in html


def test_an_offer_expires_through_the_tick_and_says_so(act, client, trio, clock):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    act(accept_rematch, bob, game.pk, offer.pk)
    clock.advance(minutes=4, seconds=59)
    assert act(tick)["rematch_offers_expired"] == 0
    clock.advance(seconds=2)
    version = Game.objects.get(pk=game.pk).version
    assert act(tick)["rematch_offers_expired"] == 1
    assert act(tick)["rematch_offers_expired"] == 0, "once"
    assert act(due)["rematch_offers_expired"] == 0
    offer.refresh_from_db()
    assert offer.outcome == RematchOffer.Outcome.EXPIRED and offer.ended_by is None
    assert Game.objects.get(pk=game.pk).version == version + 1
    html = page(client, game, carol).content.decode()
    assert "The rematch offer expired before everyone accepted." in html
    assert ">Rematch<" in html, "another may be asked for"
    with pytest.raises(ActionError, match="expired"):
        act(accept_rematch, carol, game.pk, offer.pk)
    assert not Game.objects.filter(rematch_of=game).exists()


def test_a_correspondence_offer_lasts_a_move_s_time_and_the_sweep_ends_it(act, make_person, clock):
    people = [make_person(n) for n in ("alice", "bob", "carol")]
    game = finished_game(act, *people, time_control="correspondence", move_seconds=2 * 24 * 3600)
    offer = act(rematch, people[0], game.pk)
    assert offer.expires_at - offer.asked_at == timedelta(days=2)
    clock.advance(days=2, minutes=1)
    assert act(due)["rematch_offers_expired"] == 1
    assert RematchOffer.objects.get(pk=offer.pk).outcome == RematchOffer.Outcome.EXPIRED


def test_refusals_change_nothing(act, client, trio, make_person):
    game, alice, bob, carol = trio
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(ActionError, match="Nobody has asked"):
        act(accept_rematch, bob, game.pk)
    with pytest.raises(ActionError, match="Nobody has asked"):
        act(decline_rematch, bob, game.pk)
    stranger = make_person("zed")
    with pytest.raises(ActionError, match="game's players"):
        act(rematch, stranger, game.pk)
    with pytest.raises(ActionError, match="no such game"):
        act(rematch, alice, 999999)
    bot = game.seats.get(position=2).user
    with pytest.raises(ActionError, match="Bots"):
        act(rematch, bot, game.pk)
    assert Game.objects.get(pk=game.pk).version == version
    offer = act(rematch, alice, game.pk)
    with pytest.raises(ActionError, match="game's players"):
        act(accept_rematch, stranger, game.pk, offer.pk)
    with pytest.raises(ActionError) as stale:
        act(accept_rematch, bob, game.pk, offer.pk + 1000)
    assert stale.value.code == "stale_offer"
    # through the page: a malformed offer, no offer, a stranger; never a 500
    client.force_login(bob)
    for data in ({"offer": "x"}, {}, {"offer": "9" * 30}):
        answer = client.post(reverse("game_rematch_accept", args=[game.pk]), data, headers=HX)
        assert answer.status_code == 200
        assert "That rematch offer is not understood." in answer.content.decode()
    client.force_login(stranger)
    answer = client.post(
        reverse("game_rematch_decline", args=[game.pk]), {"offer": offer.pk}, headers=HX
    )
    assert answer.status_code == 200 and "game&#x27;s players" in answer.content.decode()
    offer.refresh_from_db()
    assert offer.outcome == RematchOffer.Outcome.OPEN and offer.accepted == [alice.pk]


def test_a_rematch_needs_a_finished_game(act, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    with pytest.raises(ActionError, match="finished game"):
        act(rematch, alice, game.pk)
    assert not RematchOffer.objects.exists()


def test_a_player_who_resigned_is_asked_as_a_person(act, make_person):
    alice, bob = make_person("alice"), make_person("bob")
    game = act(create_game, alice, players=3, bots=[None, "easy"], target=10)
    act(join_game, bob, game.pk)
    game = play_out(act, game, [alice, bob], random.Random(5), until=lambda s: bool(s.tricks))
    act(resign, bob, game.pk)
    game = play_out(act, game, [alice], random.Random(6))
    assert game.status == Game.Status.FINISHED
    offer = act(rematch, alice, game.pk)
    assert offer.outcome == RematchOffer.Outcome.OPEN, "bob is asked, though he left"
    act(accept_rematch, bob, game.pk, offer.pk)
    new = RematchOffer.objects.get(pk=offer.pk).new_game
    assert new.seats.get(position=seat_of(game, bob)).user == bob


def test_a_seat_whose_player_is_gone_gets_a_bot(act, trio):
    game, alice, bob, carol = trio
    User.objects.filter(pk=carol.pk).update(is_active=False)
    offer = act(rematch, alice, game.pk)
    act(accept_rematch, bob, game.pk, offer.pk)
    new = RematchOffer.objects.get(pk=offer.pk).new_game
    assert new.status == Game.Status.ACTIVE
    assert new.seats.get(position=seat_of(game, carol)).user.bot_level == "medium"


def test_the_page_in_french(act, client, trio):
    game, alice, bob, carol = trio
    offer = act(rematch, alice, game.pk)
    client.force_login(bob)
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    html = client.get(reverse("game", args=[game.pk]), **french).content.decode()
    assert "alice propose une revanche." in html and ">Accepter<" in html
    act(decline_rematch, bob, game.pk, offer.pk)
    html = client.get(reverse("game", args=[game.pk]), **french).content.decode()
    assert "bob a refusé la revanche." in html


def test_the_others_are_emailed_the_offer_once_and_not_once_it_is_answered(act, trio):
    game, alice, bob, carol = trio
    mail.outbox.clear()
    offer = act(rematch, bob, game.pk)
    act(rematch, bob, game.pk)  # asked twice: still one email each

    told = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert told == [
        ("alice@example.com", f"bob offers a rematch of game {game.pk}"),
        ("carol@example.com", f"bob offers a rematch of game {game.pk}"),
    ]
    body = mail.outbox[0].body
    assert "Accept or decline on the game's page before" in body
    assert reverse("game", args=[game.pk]) in body

    # An email composed after the offer was answered is not sent (a late or repeated task).
    key = f"rematch:{offer.pk}"
    assert compose("rematch_offered", [game.pk, seat_of(game, alice), key], now()) is not None
    act(accept_rematch, alice, game.pk, offer.pk)
    assert compose("rematch_offered", [game.pk, seat_of(game, alice), key], now()) is None
    act(decline_rematch, carol, game.pk, offer.pk)
    assert compose("rematch_offered", [game.pk, seat_of(game, carol), key], now()) is None
