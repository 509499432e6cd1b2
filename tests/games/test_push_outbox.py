"""What the site pushes (issue 35): the occasions of the emails, as push messages to each of the
player's browsers, through the same outbox, to a push service that runs in the test. Each
browser gets one message per occasion, whatever runs twice or stops midway; the message names
the game and what is asked, in the player's language; it obeys the player's choices and their
vacation; and a turn's email waits, and goes only if the player did not come to the site after
the message reached them (unless they asked for both)."""

from __future__ import annotations

import json
import logging

import pytest
from django.core import mail

from accounts.models import PushDevice
from games import engine, notifications, push
from games.actions import create_game, join_game, start_vacation
from games.actions.deadlines import due
from games.models import PendingEmail, SentEmail
from games.tasks import send_email

from .conftest import DAY, state_of
from .push_service import Browser, browser_decrypt, running, site_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    site_keys(settings)
    with running() as server:
        yield server


@pytest.fixture
def table(act, alice, bob, clock):
    """A correspondence game of alice and bob; (the game, the player whose turn it is, the
    other), the one to move last seen as the turn began."""
    game = act(create_game, alice, players=2, time_control="correspondence", move_seconds=DAY)
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    mover, other = (alice, bob) if engine.to_act(state_of(game))[0] == 0 else (bob, alice)
    mover.last_seen = clock.current
    mover.save()
    return game, mover, other


@pytest.fixture
def sweep(django_capture_on_commit_callbacks):
    def run():
        for _ in range(2):  # nothing may happen twice
            with django_capture_on_commit_callbacks(execute=True):
                due()

    return run


def subscribe(service, user, name: str) -> Browser:
    browser = Browser()
    browser.subscribe(user, f"{service.origin}/push/{name}")
    return browser


def messages(service, browser: Browser, name: str) -> list[dict]:
    return [
        json.loads(browser_decrypt(body, browser.key, browser.auth))
        for path, _, body in service.requests
        if path == f"/push/{name}"
    ]


def turn_emails() -> list:
    return [m for m in mail.outbox if "Your turn" in m.subject or "Votre tour" in m.subject]


def test_your_turn_reaches_each_browser_once_and_its_email_waits_for_nothing(
    service, table, clock, sweep
):
    game, mover, _ = table
    phone, laptop = subscribe(service, mover, "phone"), subscribe(service, mover, "laptop")
    clock.advance(minutes=13)  # away long enough
    sweep()
    for browser, name in ((phone, "phone"), (laptop, "laptop")):
        [message] = messages(service, browser, name)
        assert message["title"] == f"Your turn in game {game.pk}"
        assert message["body"].startswith("Move by ")
        assert message["url"] == f"/games/{game.pk}/"
        assert message["tag"] == f"game-{game.pk}"
    [(_, headers, _), _] = service.requests
    assert headers["Urgency"] == "high" and headers["TTL"] == str(notifications.PUSH_TTL)
    assert turn_emails() == [], "the email waits for the message to be read"
    # The player did not come: the email goes after its wait, once.
    clock.current += notifications.PUSH_FIRST
    sweep()
    [email] = turn_emails()
    assert email.to == [mover.email]
    assert len(service.requests) == 2
    assert not PendingEmail.objects.exists()
    # The tasks again, late: nothing more.
    for record in SentEmail.objects.all():
        assert send_email(record.pk) is False
    assert len(service.requests) == 2 and len(turn_emails()) == 1


def test_a_player_who_came_after_the_message_gets_no_email(service, table, clock, sweep):
    game, mover, _ = table
    subscribe(service, mover, "phone")
    clock.advance(minutes=13)
    sweep()
    assert len(service.requests) == 1
    clock.advance(minutes=2)
    mover.last_seen = clock.current  # the message was read: the player opened the site
    mover.save()
    clock.current += notifications.PUSH_FIRST
    sweep()
    assert turn_emails() == []
    assert not PendingEmail.objects.exists()


def test_a_player_who_asked_for_both_gets_both_at_once(service, table, clock, sweep):
    game, mover, _ = table
    mover.email_with_push = True
    mover.save()
    subscribe(service, mover, "phone")
    clock.advance(minutes=13)
    sweep()
    assert len(service.requests) == 1 and len(turn_emails()) == 1


def test_each_choice_is_the_player_s(service, table, clock, sweep):
    game, mover, _ = table
    mover.push_turn = False
    mover.save()
    subscribe(service, mover, "phone")
    clock.advance(minutes=13)
    sweep()
    assert service.requests == [], "no push message for the turn"
    assert len(turn_emails()) == 1, "and the email at once, as before"


def test_a_player_who_takes_no_turn_email_still_gets_the_push_message(service, table, clock, sweep):
    game, mover, _ = table
    mover.email_turn = "never"
    mover.save()
    browser = subscribe(service, mover, "phone")
    clock.advance(minutes=13)
    sweep()
    assert [m["url"] for m in messages(service, browser, "phone")] == [f"/games/{game.pk}/"]
    clock.current += notifications.PUSH_FIRST
    sweep()
    assert turn_emails() == []


def test_nothing_about_a_turn_during_a_vacation(act, service, table, clock, sweep):
    game, mover, _ = table
    subscribe(service, mover, "phone")
    act(start_vacation, mover, days=3)
    clock.advance(minutes=13)
    sweep()
    assert service.requests == [] and turn_emails() == []


def test_the_message_speaks_the_player_s_language(service, table, clock, sweep):
    game, mover, _ = table
    mover.language = "fr"
    mover.save()
    browser = subscribe(service, mover, "phone")
    clock.advance(minutes=13)
    sweep()
    [message] = messages(service, browser, "phone")
    assert message["title"] == f"À vous de jouer dans la partie {game.pk}"
    assert message["body"].startswith("Jouez avant le ")


def test_a_browser_that_dropped_its_subscription_is_forgotten_and_the_email_goes(
    service, table, clock, sweep
):
    game, mover, _ = table
    subscribe(service, mover, "phone")
    service.status = 410
    clock.advance(minutes=13)
    sweep()
    assert not PushDevice.objects.exists()
    clock.current += notifications.PUSH_FIRST
    sweep()
    assert len(service.requests) == 1 and len(turn_emails()) == 1


def test_a_refused_message_goes_later_once(service, table, clock, sweep):
    game, mover, _ = table
    browser = subscribe(service, mover, "phone")
    service.status = 503
    clock.advance(minutes=13)
    sweep()
    service.status = 201
    clock.advance(minutes=2)  # notifications.RETRY_AFTER's first wait
    sweep()
    assert len(service.requests) == 2
    assert len(messages(service, browser, "phone")) == 2  # the refused one, then the one taken
    clock.advance(hours=1)
    sweep()
    assert len(service.requests) == 2
    assert SentEmail.objects.filter(device__isnull=False, fate=SentEmail.Fate.SENT).count() == 1


def test_a_message_whose_worker_stopped_mid_send_is_of_unknown_fate_and_not_sent_again(
    monkeypatch, service, table, clock, sweep, caplog
):
    game, mover, _ = table
    subscribe(service, mover, "phone")

    def killed(*args, **kwargs):
        raise SystemExit("the task's time limit")

    clock.advance(minutes=13)
    with monkeypatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(push, "send", killed)
        sweep()
    assert SentEmail.objects.get(device__isnull=False).fate == SentEmail.Fate.SENDING
    clock.advance(minutes=11)  # the claim runs out
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        sweep()
    assert SentEmail.objects.get(device__isnull=False).fate == SentEmail.Fate.UNKNOWN
    assert service.requests == []


def test_staff_send_a_message_of_unknown_fate_again_to_its_browser_alone(
    service, table, clock, sweep, django_capture_on_commit_callbacks
):
    from games.actions.notify import resend

    game, mover, _ = table
    browser = subscribe(service, mover, "phone")
    mover.email_with_push = True  # the email at once, sent and recorded
    mover.save()
    service.status = None  # takes the message and never answers
    clock.advance(minutes=13)
    sweep()
    unknown = SentEmail.objects.get(device__isnull=False)
    assert unknown.fate == SentEmail.Fate.UNKNOWN and len(turn_emails()) == 1
    service.status = 201
    with django_capture_on_commit_callbacks(execute=True):
        assert resend(SentEmail.objects.filter(pk=unknown.pk)) == 1
    assert len(messages(service, browser, "phone")) == 2, "the first, and once more"
    assert len(turn_emails()) == 1, "the email is not sent again"
    assert SentEmail.objects.get(device__isnull=False).fate == SentEmail.Fate.SENT


def test_a_game_s_end_is_pushed_to_the_players_who_are_not_looking_at_it(
    service, table, clock, monkeypatch
):
    from games import live
    from games.actions.notify import queue_emails

    game, mover, other = table
    looking, away = subscribe(service, mover, "looking"), subscribe(service, other, "away")
    monkeypatch.setattr(live.watchers, "users", lambda game_id: [mover.pk])
    seats = {s.user_id: s.position for s in game.seats.all()}
    queue_emails([("game_aborted", [game.pk, seats[u.pk], str(game.pk)]) for u in (mover, other)])
    for pending in PendingEmail.objects.filter(device=None):
        send_email(pending.pk)
    for pending in PendingEmail.objects.exclude(device=None):
        send_email(pending.pk)
    assert messages(service, looking, "looking") == []
    [message] = messages(service, away, "away")
    assert message["title"] == f"Game {game.pk} was aborted"
