"""Correspondence play: deadlines, reminders, timeouts, autopilot and "your turn" emails, driven
by an injected clock and the sweep (run twice each time: nothing may happen twice)."""

import smtplib
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends import locmem

from games import engine
from games.actions import (
    ActionError,
    come_back,
    create_game,
    join_game,
    start_vacation,
    submit_move,
)
from games.actions.deadlines import due
from games.models import Game, MoveRecord, SentEmail, Vacation

from .conftest import DAY, correspondence_game, state_of

pytestmark = pytest.mark.django_db


def sweep_twice(django_capture_on_commit_callbacks):
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            due()


def kinds_sent():
    return Counter(SentEmail.objects.values_list("kind", flat=True))


def test_a_game_whose_player_never_moves_still_finishes(
    act, alice, clock, django_capture_on_commit_callbacks
):
    game = correspondence_game(act, alice)
    seat = game.seats.get(user=alice)
    assert seat.deadline == clock.current + timedelta(days=1)
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        clock.advance(hours=6)
        sweep_twice(django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    timeouts = MoveRecord.objects.filter(game=game, timeout=True)
    assert timeouts.count() == 3 and set(timeouts.values_list("seat", flat=True)) == {0}
    seat.refresh_from_db()
    assert seat.autopilot, "after three timeouts in a row the bot plays the seat"
    # one reminder per turn with a deadline, one notice per timeout, one "your turn" (alice
    # never came back to the site), the final standings; nothing twice
    assert kinds_sent() == Counter(reminder=3, bot_moved=3, your_turn=1, game_over=1)
    assert len(mail.outbox) == SentEmail.objects.count() == 8
    assert all(m.to == ["alice@example.com"] for m in mail.outbox)
    game_over = next(m for m in mail.outbox if "is over" in m.subject or "won" in m.subject)
    assert "final standings" in game_over.body


def test_a_move_in_time_resets_the_clock_and_the_timeout_count(
    act, alice, clock, django_capture_on_commit_callbacks
):
    game = correspondence_game(act, alice)
    clock.advance(hours=25)
    sweep_twice(django_capture_on_commit_callbacks)
    seat = game.seats.get(user=alice)
    assert seat.timeouts_in_a_row == 1
    game.refresh_from_db()
    state = state_of(game)
    if 0 in engine.to_act(state):
        move = engine.view(state, 0)["legal"][0]
        del move["seat"]
        act(submit_move, alice, game.pk, game.version, move)
        seat.refresh_from_db()
        assert seat.timeouts_in_a_row == 0
        if seat.acting_since:
            assert seat.deadline == clock.current + timedelta(days=1)


def test_a_reminder_comes_at_three_quarters_of_the_time(
    act, alice, clock, django_capture_on_commit_callbacks
):
    alice.email_turn = "never"  # only the reminder, then
    alice.save()
    game = correspondence_game(act, alice)
    clock.advance(hours=17)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent() == Counter()
    clock.advance(hours=1)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent() == Counter(reminder=1)
    (reminder,) = mail.outbox
    assert f"game {game.pk}" in reminder.subject
    assert reminder.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/unsubscribe/" in reminder.extra_headers["List-Unsubscribe"]


def test_your_turn_waits_until_the_player_is_away_and_comes_once_per_visit(
    act, alice, bob, clock, django_capture_on_commit_callbacks
):
    game = act(create_game, alice, players=2, time_control="correspondence", move_seconds=DAY)
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    acting = engine.to_act(state_of(game))[0]
    mover = alice if acting == 0 else bob
    mover.last_seen = clock.current
    mover.save()
    clock.advance(minutes=3)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent()["your_turn"] == 0, "seen a moment ago"
    clock.advance(minutes=10)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent()["your_turn"] == 1
    clock.advance(hours=2)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent()["your_turn"] == 1, "not again before the next visit"
    (your_turn,) = [m for m in mail.outbox if "Your turn" in m.subject]
    assert your_turn.to == [mover.email]


def test_preferences_are_honoured(act, alice, clock, django_capture_on_commit_callbacks):
    alice.email_reminders = False
    alice.email_turn = "never"
    alice.email_game_over = False
    alice.save()
    game = correspondence_game(act, alice)
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        clock.advance(hours=6)
        sweep_twice(django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    assert mail.outbox == []


def test_come_back_ends_autopilot(act, alice, clock, django_capture_on_commit_callbacks):
    game = correspondence_game(act, alice)
    with pytest.raises(ActionError):
        come_back(alice, game.pk)
    seat = game.seats.get(user=alice)
    seat.autopilot = True
    seat.timeouts_in_a_row = 3
    seat.save()
    act(come_back, alice, game.pk)
    seat.refresh_from_db()
    assert not seat.autopilot and seat.timeouts_in_a_row == 0


def test_the_lobby_lists_games_waiting_for_me_first_by_deadline(act, client, alice, clock):
    from django.urls import reverse

    late = act(
        create_game,
        alice,
        players=2,
        bots=["easy"],
        time_control="correspondence",
        move_seconds=7 * DAY,
    )
    soon = correspondence_game(act, alice, bots=["easy"])
    waiting = act(create_game, alice, players=3)  # open table: not waiting for alice
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    positions = [page.index(f'href="/games/{g.pk}/"') for g in (soon, late, waiting)]
    assert positions == sorted(positions)
    assert page.count("your turn") == 2


def test_a_mail_server_failure_stops_nothing_else_and_the_email_goes_later(
    act, alice, bob, clock, monkeypatch, django_capture_on_commit_callbacks
):
    alice.email_turn = "never"  # only the reminder, then
    alice.save()
    start_vacation(bob, 1)
    clock.advance(hours=6)
    game = correspondence_game(act, alice)
    clock.advance(hours=18)  # alice's reminder is due, and bob's vacation is over

    def server_down(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    with monkeypatch.context() as patched:
        patched.setattr(locmem.EmailBackend, "send_messages", server_down)
        with django_capture_on_commit_callbacks(execute=True):
            done = due()
    assert done["reminders"] == 0 and SentEmail.objects.count() == 0
    assert done["vacations_ended"] == 1, "the failed email did not stop the sweep"
    assert Vacation.objects.get().ended_at is not None
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent() == Counter(reminder=1)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert f"game {game.pk}" in mail.outbox[0].subject


def test_a_live_reminder_goes_only_to_a_player_who_is_away(
    act, alice, bob, clock, django_capture_on_commit_callbacks
):
    for person in (alice, bob):
        person.email_turn = "never"  # only reminders, then
        person.save()
    watched = act(create_game, alice, players=2, bots=["easy"], move_seconds=300)
    left = act(create_game, bob, players=2, bots=["easy"], move_seconds=300)
    clock.advance(minutes=4)
    alice.last_seen = clock.current  # alice watches her game; bob went away
    alice.save()
    sweep_twice(django_capture_on_commit_callbacks)
    assert [(m.to, f"game {left.pk}" in m.subject) for m in mail.outbox] == [
        (["bob@example.com"], True)
    ]
    assert watched.seats.get(user=alice).deadline is not None
