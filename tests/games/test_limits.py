"""Rate limits on what costs others something: over a limit the answer is 429 with when to try
again, and nothing changes. Counted per person and per address (games/limits.py), and, for
invitations, per inviter and invitee in the database."""

import re
import types

import pytest
from django.core import mail
from django.urls import reverse

from games import limits
from games.actions import create_game, join_game
from games.models import Game, Invitation, MoveRecord

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
NEW_GAME = {"players": "3", "seat_1": "easy", "seat_2": ""}


@pytest.fixture(autouse=True)
def limits_on(settings, monkeypatch):
    """The limits, on; django-ratelimit's clock stopped, so that no window ends mid-test."""
    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0  # a window of any length starts well before this and ends after it
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))


def logged_in(client_class, user, address="127.0.0.1"):
    client = client_class(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def wait_in(response) -> int:
    """The seconds the answer asks to wait, as its message and its header say."""
    seconds = int(response["Retry-After"])
    assert seconds > 0
    assert re.search(r"Try again in \d+ (second|minute|hour)s?\.", response.content.decode())
    return seconds


def test_creating_tables_is_limited_per_person(client, alice):
    client.force_login(alice)
    for _ in range(5):
        assert client.post(reverse("game_create"), NEW_GAME).status_code == 302
    response = client.post(reverse("game_create"), NEW_GAME)
    assert response.status_code == 429
    assert "You have created many tables just now." in response.content.decode()
    wait_in(response)
    assert Game.objects.count() == 5


def test_limits_count_per_person_and_per_address(client, make_person, monkeypatch):
    monkeypatch.setitem(limits.RATES, "create", {"user": ("2/h",), "ip": ("4/h",)})
    ann, ben, cid = (make_person(n) for n in ("ann", "ben", "cid"))
    anns = logged_in(type(client), ann)
    bens = logged_in(type(client), ben)  # the same address as ann
    cids = logged_in(type(client), cid, address="192.0.2.7")
    assert [anns.post(reverse("game_create"), NEW_GAME).status_code for _ in range(3)] == [
        302,
        302,
        429,  # ann's own limit
    ]
    statuses = [bens.post(reverse("game_create"), NEW_GAME).status_code for _ in range(2)]
    assert statuses == [302, 429]  # ben's second is the address's fifth request
    assert cids.post(reverse("game_create"), NEW_GAME).status_code == 302  # elsewhere: fine
    assert Game.objects.count() == 4


def test_moves_are_limited_to_a_few_a_second_and_the_fragment_says_so(
    act, client, alice, bob, monkeypatch
):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    client.force_login(alice)
    url = reverse("game_move", args=[game.pk])
    stale = {"version": game.version + 99, "kind": "token", "box": "trump:R"}
    for _ in range(5):  # refused moves count too: each one locks the game row
        assert client.post(url, stale, headers=HX).status_code == 200
    response = client.post(url, {**stale, "version": game.version}, headers=HX)
    assert response.status_code == 429
    body = response.content.decode()
    assert 'id="game"' in body and "That is a lot of moves at once." in body
    wait_in(response)
    game.refresh_from_db()
    assert not MoveRecord.objects.filter(game=game).exists()
    # Without JavaScript: a page that says the same, with a way back to the game.
    response = client.post(url, stale)
    assert (
        response.status_code == 429 and reverse("game", args=[game.pk]) in response.content.decode()
    )


def test_invitations_are_limited_per_minute(client, alice, make_person):
    table = create_game(alice, players=5)
    client.force_login(alice)
    guests = [make_person(f"guest{k}") for k in range(11)]
    url = reverse("game_invite_player", args=[table.pk])
    for guest in guests[:10]:
        assert client.post(url, {"username": guest.username}).status_code == 302
    response = client.post(url, {"username": guests[10].username})
    assert response.status_code == 429
    assert "You have sent many invitations just now." in response.content.decode()
    assert Invitation.objects.count() == 10


def test_one_person_is_invited_by_one_inviter_three_times_a_day(
    act, client, alice, make_person, clock, settings
):
    settings.RATELIMIT_ENABLE = False  # the database's daily count alone
    guest = make_person("guest")
    client.force_login(alice)
    tables = [act(create_game, alice, players=3) for _ in range(5)]
    for table in tables[:3]:
        with_email = client.post(
            reverse("game_invite_player", args=[table.pk]), {"username": "guest"}
        )
        assert with_email.status_code == 302
        clock.advance(hours=1)
    emails = len(mail.outbox)
    response = client.post(
        reverse("game_invite_player", args=[tables[3].pk]), {"username": "guest"}, headers=HX
    )
    assert response.status_code == 429
    body = response.content.decode()
    assert "You have invited guest often today." in body and "Try again in 21 hours." in body
    assert Invitation.objects.filter(invitee=guest).count() == 3 and len(mail.outbox) == emails
    clock.advance(hours=21)  # the first invitation is a day old
    assert (
        client.post(
            reverse("game_invite_player", args=[tables[3].pk]), {"username": "guest"}
        ).status_code
        == 302
    )
    assert Invitation.objects.filter(invitee=guest).count() == 4


def test_an_inviter_sends_at_most_thirty_invitations_a_day(act, alice, make_person, clock):
    from games.actions import ActionError, invite_player
    from games.actions.errors import RateLimited
    from games.actions.invitations import INVITATIONS_A_DAY

    table = act(create_game, alice, players=5)
    for k in range(INVITATIONS_A_DAY):
        make_person(f"guest{k}")
        act(invite_player, alice, table.pk, f"guest{k}")
    make_person("one_more")
    with pytest.raises(RateLimited) as refusal:
        act(invite_player, alice, table.pk, "one_more")
    assert isinstance(refusal.value, ActionError) and refusal.value.retry_after > 0
    assert Invitation.objects.count() == INVITATIONS_A_DAY
