"""Vacations pause correspondence deadlines (not live ones), within 14 days a year."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from games.actions import ActionError, create_game, end_vacation, start_vacation
from games.actions.deadlines import due
from games.actions.deadlines import due as sweep
from games.actions.vacations import vacation_left
from games.models import Game, Vacation

from .conftest import correspondence_game

pytestmark = pytest.mark.django_db


def refused(code, *args):
    vacations = Vacation.objects.count()
    with pytest.raises(ActionError) as caught:
        start_vacation(*args)
    assert caught.value.code == code and caught.value.message
    assert Vacation.objects.count() == vacations


def test_vacation_pauses_correspondence_deadlines_and_resumes_with_the_time_left(act, alice, clock):
    corr = correspondence_game(act, alice, bots=["easy"])
    live = act(create_game, alice, players=2, bots=["easy"], move_seconds=300)
    corr_seat, live_seat = corr.seats.get(user=alice), live.seats.get(user=alice)
    assert corr_seat.deadline and live_seat.deadline
    clock.advance(hours=10)
    start_vacation(alice, 3)
    corr_seat.refresh_from_db()
    live_seat.refresh_from_db()
    assert corr_seat.deadline is None and corr_seat.paused_seconds == 14 * 3600
    assert live_seat.deadline is not None, "live games are not paused"
    clock.advance(days=2)
    due()
    corr_seat.refresh_from_db()
    assert corr_seat.deadline is None, "no timeout while away"
    end_vacation(alice)
    corr_seat.refresh_from_db()
    assert corr_seat.deadline == clock.current + timedelta(hours=14)
    assert vacation_left(alice, clock.current) == timedelta(days=12)


def test_a_vacation_ends_by_itself_with_a_warning_the_day_before(
    alice, clock, django_capture_on_commit_callbacks
):
    def due():
        with django_capture_on_commit_callbacks(execute=True):
            sweep()

    start_vacation(alice, 2)
    clock.advance(hours=12)
    due()
    assert mail.outbox == []
    clock.advance(hours=13)
    due()
    due()
    assert len(mail.outbox) == 1 and "vacation ends" in mail.outbox[0].subject.lower()
    clock.advance(hours=24)
    due()
    vacation = Vacation.objects.get()
    assert vacation.ended_at == vacation.ends_at
    assert len(mail.outbox) == 1


def test_vacation_refusals(alice, clock):
    refused("days", alice, 0)
    refused("too_long", alice, 15)
    start_vacation(alice, 10)
    refused("on_vacation", alice, 1)
    clock.advance(days=10)
    due()
    refused("too_long", alice, 5)
    start_vacation(alice, 4)
    with pytest.raises(ActionError):
        end_vacation(alice) or end_vacation(alice)


def test_the_vacation_page(client, alice, clock):
    client.force_login(alice)
    page = client.get(reverse("vacation")).content.decode()
    assert "Days left this year: 14" in page
    response = client.post(reverse("vacation"), {"days": "99"}, follow=True)
    assert "You have 14" in response.content.decode()
    assert not Vacation.objects.exists()
    client.post(reverse("vacation"), {"days": "2"})
    assert Vacation.objects.filter(user=alice, ended_at__isnull=True).exists()
    client.post(reverse("vacation"), {"action": "end"})
    assert not Vacation.objects.filter(ended_at__isnull=True).exists()
    assert Game.objects.count() == 0


def test_a_vacation_that_ends_by_itself_starts_the_paused_clock_again(act, alice, clock):
    game = correspondence_game(act, alice, bots=["easy"])
    clock.advance(hours=4)
    start_vacation(alice, 1)
    clock.advance(days=1)
    due()
    seat = game.seats.get(user=alice)
    assert seat.deadline == clock.current + timedelta(hours=20)
    assert seat.paused_seconds is None


def test_no_turn_emails_while_on_vacation(act, alice, clock, django_capture_on_commit_callbacks):
    def sweep():
        with django_capture_on_commit_callbacks(execute=True):
            due()

    # Noon, whatever the hour the tests run at: the digest comes at 07:00 in her time zone, and
    # the steps below count the hours from noon (between 07:00 and 08:00 they missed it).
    clock.current = clock.current.replace(hour=12, minute=0, second=0, microsecond=0)
    game = correspondence_game(act, alice, bots=["easy"])
    assert game.seats.get(user=alice).acting_since is not None
    alice.email_turn = "daily"
    alice.email_reminders = False
    alice.save()
    sweep()  # schedules her first digest, at 07:00 in her time zone
    start_vacation(alice, 3)
    clock.advance(days=1)
    sweep()
    assert [m.subject for m in mail.outbox] == [], "no digest while away"
    end_vacation(alice)
    clock.advance(hours=23)  # her next 07:00 comes, not her deadline
    sweep()
    assert [m.subject for m in mail.outbox] == ["1 game is waiting for you"]
    alice.email_turn = "at_once"
    alice.save()
    clock.advance(minutes=10)
    sweep()
    assert ["Your turn" in m.subject for m in mail.outbox] == [False, True]


def test_no_bot_moved_email_while_on_vacation_in_a_live_game(
    act, alice, clock, django_capture_on_commit_callbacks
):
    live = act(create_game, alice, players=2, bots=["easy"], move_seconds=60)
    start_vacation(alice, 3)  # live games are not paused: the stand-in moves, silently
    clock.advance(minutes=2)
    with django_capture_on_commit_callbacks(execute=True):
        due()
    assert live.moves.filter(timeout=True).count() == 1
    assert mail.outbox == []
