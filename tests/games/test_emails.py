"""Emails: in the recipient's language and time zone, with a one-click unsubscribe link that
needs no login; sent once per occasion through the outbox, to a real SMTP server that may be
slow, refuse or be down."""

import asyncio
import logging
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail, signing
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from accounts.models import User
from games import clock as site_clock
from games import notifications
from games.actions.deadlines import due
from games.actions.notify import queue_emails
from games.models import Game, PendingEmail, SentEmail
from games.tasks import send_email
from tests.servers import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def daily(alice):
    alice.email_turn = User.TurnEmail.DAILY
    alice.save()
    return alice


@pytest.fixture
def invitation(act, alice, bob):
    """An invitation of bob to alice's table, in the outbox, not sent yet."""
    from games.actions import create_game

    game = act(create_game, alice, players=3)
    queue_emails([("invitation", [game.pk, bob.pk, "alice"])])
    return PendingEmail.objects.get()


def test_an_email_goes_once_per_occasion(act, alice, bob, invitation):
    assert send_email(invitation.pk) is True
    assert send_email(invitation.pk) is False, "the task again: nothing"
    game = Game.objects.get()
    again = queue_emails([("invitation", [game.pk, bob.pk, "alice"])])
    assert again == 1 and send_email(PendingEmail.objects.get().pk) is False, "same occasion"
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert not PendingEmail.objects.exists()


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


def test_emails_of_a_player_who_keeps_the_browser_s_zone_speak_its_time(alice):
    alice.browser_time_zone = "Asia/Tokyo"  # as the site's pages last reported it
    game = Game(pk=7, players=3, seed=1, invite_code="x")
    deadline = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)  # noon in Tokyo
    message = notifications.render(alice, "reminder", {"game": game, "deadline": deadline})
    assert "noon" in message.body or "12:00" in message.body, message.body


def test_unsubscribe_works_without_logging_in(client, bob, invitation):
    send_email(invitation.pk)
    link = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200 and "Unsubscribe" in page.content.decode()
    bob.refresh_from_db()
    assert bob.email_invitations, "GET changes nothing"
    done = client.post("/" + path)  # what a mail client sends for one-click (RFC 8058)
    assert done.status_code == 200
    bob.refresh_from_db()
    assert not bob.email_invitations
    game = Game.objects.get()
    queue_emails([("invitation", [game.pk, bob.pk, "carol"])])
    assert send_email(PendingEmail.objects.get().pk) is False
    assert len(mail.outbox) == 1


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
    assert not notifications.wants(bot, "reminder")
    assert not notifications.wants(alice, "reminder")


@contextmanager
def smtp_server(settings, answer="250 OK", delay=0.0):
    """A real SMTP server on this machine that answers ``answer`` to each message, ``delay``
    seconds after it has it; yields the list of the messages it took (to deliver)."""
    from aiosmtpd.controller import Controller

    received = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            if answer.startswith("250"):
                received.append(envelope)  # as a real server: stored first, then answered
            await asyncio.sleep(delay)
            return answer

    port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 1
    try:
        yield received
    finally:
        controller.stop()


def test_a_real_smtp_server_receives_the_email(settings, invitation):
    with smtp_server(settings) as received:
        assert send_email(invitation.pk) is True
    assert SentEmail.objects.get().fate == SentEmail.Fate.SENT
    (envelope,) = received
    assert envelope.rcpt_tos == ["bob@example.com"]
    text = envelope.content.decode()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
    assert "multipart/alternative" in text and "text/html" in text


def test_a_slow_mail_server_gets_each_email_once(
    settings, clock, invitation, django_capture_on_commit_callbacks
):
    # The server answers after 3 s, the site waits 1 s: the message was handed over and the
    # server took it, but the site never heard so. It must not send it again, however many
    # times the task or the sweep run.
    with smtp_server(settings, delay=3.0) as received:
        assert send_email(invitation.pk) is False
        assert send_email(invitation.pk) is False
        for _ in range(3):
            clock.advance(minutes=10)
            with django_capture_on_commit_callbacks(execute=True):
                due()
    assert len(received) == 1
    (record,) = SentEmail.objects.filter(kind="invitation")
    assert record.fate == SentEmail.Fate.UNKNOWN, "the site never heard that it was taken"
    assert not PendingEmail.objects.exists()


class TakesAndNeverAnswers(BaseEmailBackend):
    """A mail server that takes each message and never says so: Django's SMTP backend raises
    socket.timeout once EMAIL_TIMEOUT has passed after the message went (as the slow server
    above, without the wait)."""

    taken: list = []

    def send_messages(self, messages):
        TakesAndNeverAnswers.taken.extend(messages)
        raise TimeoutError("timed out")  # socket.timeout, under its Python 3.10 name


@pytest.fixture
def silent_server(settings):
    TakesAndNeverAnswers.taken = []
    settings.EMAIL_BACKEND = f"{__name__}.TakesAndNeverAnswers"
    return TakesAndNeverAnswers.taken


def test_an_email_the_server_never_answered_is_of_unknown_fate_for_staff_and_monitoring(
    silent_server, clock, invitation, caplog, client, admin_user, django_capture_on_commit_callbacks
):
    with caplog.at_level(logging.WARNING, logger="games.notifications"):
        assert send_email(invitation.pk) is False
    record = SentEmail.objects.get()
    assert record.fate == SentEmail.Fate.UNKNOWN and len(silent_server) == 1
    (logged,) = [r for r in caplog.records if "fate is unknown" in r.getMessage()]
    assert logged.levelname == "ERROR" and "bob@example.com" in logged.getMessage()
    for _ in range(3):  # nothing sends it again by itself
        clock.advance(minutes=30)
        with django_capture_on_commit_callbacks(execute=True):
            due()
    assert len(silent_server) == 1 and not PendingEmail.objects.exists()

    health = client.get("/healthz")
    assert health.status_code == 200, "a count for monitoring, not a failed check"
    assert health.json()["emails_of_unknown_fate"] == 1

    client.force_login(admin_user)
    changelist = reverse("admin:games_sentemail_changelist")
    listing = client.get(changelist, {"fate__exact": "unknown"}).content.decode()
    assert "unknown: the mail server did not answer" in listing and "bob" in listing
    assert "Send the selected emails of unknown fate again" in listing


def test_staff_send_an_email_of_unknown_fate_again_once(
    settings,
    silent_server,
    alice,
    invitation,
    client,
    admin_user,
    django_capture_on_commit_callbacks,
):
    send_email(invitation.pk)
    unknown = SentEmail.objects.get()
    sent_before = SentEmail.objects.create(
        user=alice, kind="digest", key="x", sent_at=unknown.sent_at
    )
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # it answers again
    client.force_login(admin_user)
    changelist = reverse("admin:games_sentemail_changelist")

    def resend(*records) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                changelist,
                {"action": "resend", "_selected_action": [r.pk for r in records]},
                follow=True,
            )
        return answer.content.decode()

    page = resend(unknown, sent_before)
    assert "1 email of unknown fate will be sent again" in page
    assert "1 selected email was not of unknown fate: not sent again." in page
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    sent = SentEmail.objects.get(kind="invitation")
    assert sent.fate == SentEmail.Fate.SENT and sent.key == unknown.key
    assert "0 emails of unknown fate will be sent again" in resend(sent), "a second click"
    assert len(mail.outbox) == 1 and not PendingEmail.objects.exists()
    assert client.get("/healthz").json()["emails_of_unknown_fate"] == 0


def test_an_email_whose_worker_stopped_mid_send_is_of_unknown_fate(
    monkeypatch, clock, invitation, caplog, django_capture_on_commit_callbacks
):
    """The task's time limit (or a crash) ends the worker while it talks to the server: once
    the claim has run out, the sweep finds the email recorded as being sent, and no more."""

    def killed(message):
        raise SystemExit("the task's time limit")

    with monkeypatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(notifications, "transmit", killed)
        send_email(invitation.pk)
    assert SentEmail.objects.get().fate == SentEmail.Fate.SENDING
    clock.advance(minutes=11)  # the claim (notifications.CLAIM) runs out
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        with django_capture_on_commit_callbacks(execute=True):
            assert due()["emails_requeued"] == 1
    assert SentEmail.objects.get().fate == SentEmail.Fate.UNKNOWN
    assert "was being sent when its worker stopped" in caplog.text
    assert mail.outbox == [] and not PendingEmail.objects.exists()


def test_staff_who_may_only_read_the_emails_cannot_send_them_again(
    silent_server, invitation, client, make_person
):
    from django.contrib.auth.models import Permission

    send_email(invitation.pk)
    reader = make_person("reader")
    reader.is_staff = True
    reader.save()
    reader.user_permissions.add(Permission.objects.get(codename="view_sentemail"))
    client.force_login(reader)
    changelist = reverse("admin:games_sentemail_changelist")
    assert client.get(changelist).status_code == 200
    assert 'value="resend"' not in client.get(changelist).content.decode()
    client.post(changelist, {"action": "resend", "_selected_action": [SentEmail.objects.get().pk]})
    assert SentEmail.objects.get().fate == SentEmail.Fate.UNKNOWN, "not sent again"


def test_an_email_cut_mid_send_is_of_unknown_fate_even_if_it_no_longer_makes_sense(
    monkeypatch, clock, invitation, caplog, django_capture_on_commit_callbacks
):
    """Its retry finds nothing to send (a turn over, a player who turned the email off) and
    drops the outbox entry: the sweep still settles the record it left "being sent"."""

    def killed(message):
        raise SystemExit("the task's time limit")

    with monkeypatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(notifications, "transmit", killed)
        send_email(invitation.pk)
    PendingEmail.objects.all().delete()  # as a retry that found nothing to send would
    clock.advance(minutes=9)
    assert due()["emails_lost_while_sending"] == 0, "its claim still runs"
    clock.advance(minutes=2)
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        assert due()["emails_lost_while_sending"] == 1
    assert SentEmail.objects.get().fate == SentEmail.Fate.UNKNOWN
    assert "was being sent when its worker stopped" in caplog.text
    assert due()["emails_lost_while_sending"] == 0, "once"


def test_an_email_the_server_refused_goes_later_once(
    settings, clock, invitation, django_capture_on_commit_callbacks
):
    with smtp_server(settings, answer="451 4.3.0 try again later") as refused:
        assert send_email(invitation.pk) is False
    assert refused == [] and not SentEmail.objects.exists()
    pending = PendingEmail.objects.get()
    assert pending.attempts == 1 and pending.due_at == clock.current + timedelta(minutes=1)
    with smtp_server(settings) as received:
        with django_capture_on_commit_callbacks(execute=True):
            assert due()["emails_requeued"] == 0, "not due yet"
        clock.advance(minutes=1)
        for _ in range(2):
            with django_capture_on_commit_callbacks(execute=True):
                due()
    assert len(received) == 1 and not PendingEmail.objects.exists()


def test_an_email_the_server_keeps_refusing_is_given_up_after_a_bound(
    settings, clock, invitation, caplog, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    settings.EMAIL_TIMEOUT = 1
    attempts = []
    for _ in range(40):
        clock.advance(minutes=30)
        with django_capture_on_commit_callbacks(execute=True):
            due()
        pending = PendingEmail.objects.first()
        if pending is None:
            break
        attempts.append(pending.attempts)
    assert PendingEmail.objects.count() == 0
    assert sorted(set(attempts)) == list(range(1, len(notifications.RETRY_AFTER) + 1))
    assert caplog.text.count("gave up on the email") == 1
    assert mail.outbox == [] and not SentEmail.objects.exists()


def test_an_email_being_sent_by_one_worker_is_left_alone_by_another(alice, bob, invitation):
    PendingEmail.objects.filter(pk=invitation.pk).update(
        claimed_until=site_clock.now() + timedelta(minutes=5)
    )
    assert send_email(invitation.pk) is False
    assert mail.outbox == [] and PendingEmail.objects.exists()


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


def test_the_daily_digest_lists_the_games_waiting(
    act, daily, clock, django_capture_on_commit_callbacks
):
    from games.actions import create_game

    week = {"time_control": "correspondence", "move_seconds": 7 * 24 * 3600}
    first = act(create_game, daily, players=2, bots=["easy"], **week)
    second = act(create_game, daily, players=2, bots=["easy"], **week)
    daily.time_zone = "UTC"
    daily.save()
    clock.current = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    for minutes in (0, 59, 1, 1, 60):
        clock.advance(minutes=minutes)
        with django_capture_on_commit_callbacks(execute=True):
            due()
    (digest,) = mail.outbox
    assert "2 games are waiting for you" in digest.subject
    assert f"/games/{first.pk}/" in digest.body and f"/games/{second.pk}/" in digest.body
    clock.advance(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        due()
    assert [m.subject for m in mail.outbox] == ["2 games are waiting for you"] * 2


def test_each_player_gets_the_digest_at_seven_in_their_own_time_zone_and_a_failed_one_later(
    act, make_person, clock, monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.mail.backends import locmem

    from games.actions import create_game

    week = {"time_control": "correspondence", "move_seconds": 7 * 24 * 3600}
    players = {}
    for name, zone in (("tokyo", "Asia/Tokyo"), ("paris", "Europe/Paris")):
        person = make_person(name)
        person.email_turn, person.time_zone = "daily", zone
        person.save()
        act(create_game, person, players=2, bots=["easy"], **week)
        players[name] = person
    clock.current = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)

    def sweep():
        with django_capture_on_commit_callbacks(execute=True):
            due()

    def digests():
        return [m.to[0].split("@")[0] for m in mail.outbox if "waiting for you" in m.subject]

    sweep()  # schedules each player's next 07:00
    clock.current = datetime(2026, 11, 23, 22, 1, tzinfo=UTC)  # 07:01 in Tokyo
    sweep()
    assert digests() == ["tokyo"]
    clock.current = datetime(2026, 11, 24, 6, 1, tzinfo=UTC)  # 07:01 in Paris: the server is down

    def server_down(self):
        raise ConnectionRefusedError(111, "Connection refused")

    with monkeypatch.context() as patched:
        patched.setattr(locmem.EmailBackend, "open", server_down)
        sweep()
    assert digests() == ["tokyo"]
    for minutes in (1, 1, 30, 60):  # the sweep tries again until it goes, once
        clock.advance(minutes=minutes)
        sweep()
    assert digests() == ["tokyo", "paris"]
    clock.current = datetime(2026, 11, 24, 22, 1, tzinfo=UTC)  # the next day in Tokyo
    sweep()
    assert digests() == ["tokyo", "paris", "tokyo"]


def test_a_player_who_keeps_the_browser_s_zone_gets_the_digest_at_seven_there(
    act, client, daily, clock, django_capture_on_commit_callbacks
):
    from games.actions import create_game

    assert daily.time_zone == ""  # "the one my browser uses"
    week = {"time_control": "correspondence", "move_seconds": 7 * 24 * 3600}
    act(create_game, daily, players=2, bots=["easy"], **week)
    clock.current = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)

    def sweep():
        with django_capture_on_commit_callbacks(execute=True):
            due()

    sweep()  # the zone is not known yet: the next digest is set for 07:00 UTC
    client.force_login(daily)
    client.cookies["nyet_zone"] = "Asia/Tokyo"  # as the page's script reports it
    assert client.get(reverse("lobby")).status_code == 200
    daily.refresh_from_db()
    assert daily.browser_time_zone == "Asia/Tokyo"
    sweep()
    clock.current = datetime(2026, 11, 23, 22, 1, tzinfo=UTC)  # 07:01 in Tokyo
    sweep()
    assert [m.subject for m in mail.outbox] == ["1 game is waiting for you"]
    clock.current = datetime(2026, 11, 24, 7, 1, tzinfo=UTC)  # 07:01 UTC: 16:01 in Tokyo
    sweep()
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_turn_emails_read_well_in_both_languages(alice, language):
    alice.language, alice.time_zone = language, "America/New_York"
    game = Game(pk=7, players=3, seed=1, invite_code="x")
    deadline = datetime(2026, 11, 23, 20, 30, tzinfo=UTC)  # 3:30 p.m. in New York
    for kind in ("your_turn", "reminder"):
        message = notifications.render(alice, kind, {"game": game, "deadline": deadline})
        for text in (message.body, message.alternatives[0][0]):
            assert ".." not in text and ". ." not in text
            assert ("3:30 p.m." if language == "en" else "15:30") in text
