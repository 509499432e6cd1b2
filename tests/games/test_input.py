"""Input any visitor can send gets a clear answer and changes nothing: never a 500. Each case was
found by an audit of the site over HTTP (issue 12)."""

import json

import pytest
from django.core import mail, signing
from django.urls import reverse

from common.refusals import QUOTE_LENGTH
from games.actions import create_game, invite_player, join_game
from games.models import Game, Invitation, Vacation
from games.notifications import UNSUBSCRIBE_SALT

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
HUGE = "x" * 100_000


@pytest.fixture
def table(act, alice):
    """alice's open private table for 3."""
    return act(create_game, alice, players=3, visibility=Game.Visibility.PRIVATE)


def test_a_non_ascii_invite_code_is_a_wrong_code(client, table, bob):
    client.force_login(bob)
    for code in ("é" * 16, "код", "\U0001f600"):
        response = client.post(reverse("game_join", args=[table.pk]), {"invite": code})
        assert response.status_code == 404  # a private table, and no right code: no such game
    assert not table.seats.filter(user=bob).exists()
    client.post(reverse("game_join", args=[table.pk]), {"invite": table.invite_code})
    assert table.seats.filter(user=bob).exists()


def test_join_game_compares_any_text_with_the_code(act, table, bob):
    from games.actions import ActionError

    with pytest.raises(ActionError) as refusal:
        act(join_game, bob, table.pk, "ünïcödé")
    assert refusal.value.code == "private"


@pytest.mark.parametrize(
    "path",
    ["/players/a\x00b/", "/invite/a\x00b/", "/games/1/?version=\x00", "/unsubscribe/a\x00/"],
)
def test_a_nul_byte_anywhere_is_refused_at_the_door(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert "null character" in response.content.decode()


def test_a_nul_byte_in_a_form_or_a_cookie_is_refused_and_changes_nothing(client, table, alice):
    client.force_login(alice)
    url = reverse("game_invite_player", args=[table.pk])
    response = client.post(url, {"username": "bo\x00b"}, headers=HX)
    assert response.status_code == 400 and not Invitation.objects.exists()
    client.cookies["sessionid"] = "abc\x00def"
    assert client.get(reverse("lobby")).status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        {"username": "a\x00b", "invite": "a\x00b"},
        {"username": "y" * 1001, "invite": "y" * 1001},
        {"a\x00": 1, "username": "robo", "invite": ""},  # a key
        {"username": "robo", "invite": "", "deep": [[{"x": ["\x00"]}]]},
    ],
)
def test_a_nul_byte_or_an_over_long_string_in_a_json_body_is_refused(client, alice, bob, body):
    """The API reads JSON, which no form check sees: the guard walks it (every key and value,
    at any depth) and refuses in the API's own shape. On PostgreSQL a NUL was a 500."""
    from accounts.models import User
    from games.actions import become_bot_account

    robo = User.objects.create_user("robo", "robo@example.com", "pw")
    become_bot_account(robo)
    game = create_game(alice, players=3)
    version = game.version
    for user, action in ((alice, "seat-bot"), (bob, "join")):
        client.force_login(user)
        for content_type in ("application/json", "text/plain"):  # the API parses either
            response = client.post(
                f"/api/v1/games/{game.pk}/{action}", json.dumps(body), content_type=content_type
            )
            assert response.status_code == 400, response.content
            answer = response.json()
            assert answer["code"] == "malformed" and "null character" in answer["message"]
    game.refresh_from_db()
    seated = list(game.seats.exclude(user=None).values_list("user", flat=True))
    assert game.version == version and seated == [alice.pk]
    # The same calls with clean strings go through: the refusal was the guard's.
    client.force_login(alice)
    response = client.post(
        f"/api/v1/games/{game.pk}/seat-bot", {"username": "robo"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content


def test_an_over_long_value_is_refused_and_nothing_repeats_it(client, table, alice):
    client.force_login(alice)
    response = client.post(reverse("game_invite_player", args=[table.pk]), {"username": HUGE})
    assert response.status_code == 400
    assert len(response.content) < 10_000


@pytest.mark.parametrize("length", [100, 999])
def test_messages_quote_a_short_prefix_of_the_input(client, table, alice, length):
    client.force_login(alice)
    name = "z" * length
    response = client.post(
        reverse("game_invite_player", args=[table.pk]), {"username": name}, headers=HX
    )
    body = response.content.decode()
    assert "There is no player called" in body
    assert "z" * QUOTE_LENGTH not in body and "z" * (QUOTE_LENGTH - 1) in body
    response = client.post(
        reverse("game_add_bot", args=[table.pk]), {"level": "q" * length}, headers=HX
    )
    body = response.content.decode()
    assert "There is no bot level" in body and "q" * QUOTE_LENGTH not in body
    # Django's own messages for a choice that is not offered, on the settings and vacation pages.
    settings = {"display_name": "", "time_zone": "t" * length, "email_turn": "at_once"}
    response = client.post(reverse("settings"), settings, follow=True)
    body = response.content.decode()
    assert "is not one of the available choices" in body
    assert "t" * QUOTE_LENGTH not in body and "t" * (QUOTE_LENGTH - 1) in body
    response = client.post(reverse("vacation"), {"action": "v" * length, "days": 1}, follow=True)
    body = response.content.decode()
    assert "is not one of the available choices" in body
    assert "v" * QUOTE_LENGTH not in body and "v" * (QUOTE_LENGTH - 1) in body
    assert not Vacation.objects.exists()


def test_the_engine_s_refusals_quote_a_short_prefix_too():
    from games.actions import ActionError
    from games.engine import IllegalMove

    refusal = IllegalMove("no_such_card", "There is no card {card}.", card="c" * 5000)
    message = ActionError.from_illegal_move(refusal).message
    assert message.startswith("There is no card c") and len(message) < 2 * QUOTE_LENGTH


@pytest.mark.parametrize("days", ["1000000000", "99999999999999999999", "-3", "1e3", "x", ""])
def test_vacation_days_are_bounded(client, alice, days):
    client.force_login(alice)
    response = client.post(reverse("vacation"), {"days": days}, follow=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert "a vacation lasts at most" in body.lower() or "whole number of days" in body
    assert not Vacation.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [
        {"preference": "email_turn"},
        {"user": "1", "preference": "email_turn"},
        {"user": [1], "preference": "email_turn"},
        {"user": True, "preference": "email_turn"},
        {"user": None, "preference": "email_turn"},
        ["user", 1],
        "email_turn",
    ],
)
def test_a_validly_signed_token_with_a_wrong_payload_is_not_a_link(client, alice, payload):
    token = signing.dumps(payload, salt=UNSUBSCRIBE_SALT)
    for method in (client.get, client.post):
        response = method(reverse("unsubscribe", args=[token]))
        assert response.status_code == 400
        assert "This link is not valid." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email_turn == alice.TurnEmail.AT_ONCE


def test_a_move_to_a_missing_game_says_so_under_htmx(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("game_move", args=[424242]),
        {"version": 0, "kind": "play", "card": "Y7"},
        headers=HX,
    )
    assert response.status_code == 404
    assert response["HX-Redirect"] == reverse("lobby")
    assert "There is no such game." in client.get(reverse("lobby")).content.decode()
    response = client.post(reverse("game_move", args=[424242]), {"version": 0})
    assert response.status_code == 404
    assert "There is no such game." in response.content.decode()


def test_the_invitation_subject_shows_names_as_typed(act, alice, make_person):
    alice.display_name = "<script>alert(1)</script> & co"
    alice.save()
    make_person("guest")
    game = act(create_game, alice, players=3)
    act(invite_player, alice, game.pk, "guest")
    (message,) = mail.outbox
    assert message.subject.startswith("<script>alert(1)</script> & co invites you")
    assert "&lt;" not in message.subject and "&amp;" not in message.subject
    html = message.alternatives[0][0]
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_a_missing_page_says_so_in_words(client):
    response = client.get("/no/such/page/")
    body = response.content.decode()
    assert response.status_code == 404
    assert "There is nothing at this address." in body and "Resolver404" not in body
    response = client.get(reverse("game", args=[424242]))
    assert "There is no such game." in response.content.decode()
