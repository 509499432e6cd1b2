"""Emails: in the recipient's language and time zone, with a one-click unsubscribe link that
needs no login; a real SMTP server receives them."""

import socket
import time

import pytest
from django.core import mail, signing
from django.urls import reverse

from accounts.models import User
from games import notifications

pytestmark = pytest.mark.django_db


def send_digest(user, key="k"):
    return notifications.send(user, "digest", key, {"games": []})


@pytest.fixture
def daily(alice):
    alice.email_turn = User.TurnEmail.DAILY
    alice.save()
    return alice


def test_an_email_goes_once_per_occasion(daily):
    assert send_digest(daily)
    assert not send_digest(daily)
    assert send_digest(daily, key="other")
    assert len(mail.outbox) == 2


def test_emails_speak_the_recipient_s_language_and_time(alice):
    from datetime import UTC, datetime

    from games.models import Game

    alice.language = "fr"
    alice.time_zone = "Asia/Tokyo"
    game = Game(pk=7, players=3, seed=1, invite_code="x")
    deadline = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)  # noon in Tokyo
    message = notifications.render(alice, "reminder", {"game": game, "deadline": deadline})
    html = message.alternatives[0][0]
    assert '<html lang="fr">' in html
    assert message.subject == "Rappel : à vous de jouer dans la partie 7"
    assert message.body.startswith("Bonjour alice,")
    assert "midi" in message.body or "12:00" in message.body or "12 h" in message.body


def test_unsubscribe_works_without_logging_in(client, daily):
    send_digest(daily)
    link = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200 and "Unsubscribe" in page.content.decode()
    daily.refresh_from_db()
    assert daily.email_turn == User.TurnEmail.DAILY, "GET changes nothing"
    done = client.post("/" + path)  # what a mail client sends for one-click (RFC 8058)
    assert done.status_code == 200
    daily.refresh_from_db()
    assert daily.email_turn == User.TurnEmail.NEVER
    assert not send_digest(daily, key="after")


def test_forged_and_expired_unsubscribe_links_are_refused(client, alice, monkeypatch):
    forged = client.post(reverse("unsubscribe", args=["not-a-token"]))
    assert forged.status_code == 400 and "not valid" in forged.content.decode()
    other_salt = signing.dumps({"user": alice.pk, "preference": "email_reminders"})
    assert client.post(reverse("unsubscribe", args=[other_salt])).status_code == 400
    past = time.time() - notifications.UNSUBSCRIBE_MAX_AGE - 60
    monkeypatch.setattr(time, "time", lambda: past)
    old = notifications.unsubscribe_token(alice, "email_reminders")
    monkeypatch.undo()
    expired = client.post(reverse("unsubscribe", args=[old]))
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    alice.refresh_from_db()
    assert alice.email_reminders


def test_bots_and_addressless_players_get_no_email(alice):
    bot = User.objects.create(username="b", bot_level="easy", email="bot@example.com")
    alice.email = ""
    alice.save()
    assert not notifications.send(bot, "reminder", "k", {})
    assert not notifications.send(alice, "reminder", "k", {})
    assert mail.outbox == []


def test_a_real_smtp_server_receives_the_email(daily, settings):
    from aiosmtpd.controller import Controller

    received = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            received.append(envelope)
            return "250 OK"

    with socket.socket() as probe:  # a free port on this machine
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = "127.0.0.1"
        settings.EMAIL_PORT = port
        settings.EMAIL_USE_TLS = False
        assert send_digest(daily)
    finally:
        controller.stop()
    (envelope,) = received
    assert envelope.rcpt_tos == ["alice@example.com"]
    text = envelope.content.decode()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
    assert "multipart/alternative" in text and "text/html" in text


def test_invitations_and_game_started_emails(act, alice, bob, make_person):
    from games.actions import ActionError, create_game, invite_player, join_game

    game = act(create_game, alice, players=2)
    act(invite_player, alice, game.pk, "BOB")
    (invitation,) = mail.outbox
    assert invitation.to == ["bob@example.com"] and "alice invites you" in invitation.subject
    assert f"/invite/{game.invite_code}/" in invitation.body
    for name, code in (("nobody", "no_user"), ("alice", "seated")):
        with pytest.raises(ActionError) as caught:
            invite_player(alice, game.pk, name)
        assert caught.value.code == code
    with pytest.raises(ActionError):
        invite_player(make_person("carol"), game.pk, "bob")  # not at the table
    act(join_game, bob, game.pk)
    started = [m for m in mail.outbox if "has started" in m.subject]
    assert [m.to for m in started] == [["alice@example.com"]], "not to bob, who started it"


def test_the_daily_digest_lists_the_games_waiting(act, daily, clock):
    from games.actions import create_game
    from games.actions.deadlines import send_digests

    first = act(create_game, daily, players=2, bots=["easy"])
    second = act(create_game, daily, players=2, bots=["easy"])
    assert send_digests() == 1
    assert send_digests() == 0, "once a day"
    (digest,) = mail.outbox
    assert "2 games are waiting for you" in digest.subject
    assert f"/games/{first.pk}/" in digest.body and f"/games/{second.pk}/" in digest.body
    clock.advance(days=1)
    assert send_digests() == 1
