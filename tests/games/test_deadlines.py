"""Correspondence play: deadlines, reminders, timeouts, autopilot and "your turn" emails, driven
by an injected clock and the sweep (run twice each time: nothing may happen twice)."""

import random
import secrets
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
    resign,
    start_vacation,
    submit_move,
)
from games.actions.deadlines import due
from games.models import Game, MoveRecord, PendingEmail, SentEmail, Vacation

from .conftest import DAY, correspondence_game, seat_of, state_of

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
    start = page.index('id="turn-title"')
    yours = page[start : page.index("</ul>", start)]
    assert f"/games/{soon.pk}/" in yours and f"/games/{late.pk}/" in yours
    assert f"/games/{waiting.pk}/" not in yours


def test_a_mail_server_failure_stops_nothing_else_and_the_email_goes_later(
    act, alice, bob, clock, monkeypatch, django_capture_on_commit_callbacks
):
    alice.email_turn = "never"  # only the reminder, then
    alice.save()
    start_vacation(bob, 1)
    clock.advance(hours=6)
    game = correspondence_game(act, alice)
    clock.advance(hours=18)  # alice's reminder is due, and bob's vacation is over

    def server_down(self):
        raise ConnectionRefusedError(111, "Connection refused")

    with monkeypatch.context() as patched:
        patched.setattr(locmem.EmailBackend, "open", server_down)
        with django_capture_on_commit_callbacks(execute=True):
            done = due()
    assert done["reminders"] == 1 and SentEmail.objects.count() == 0 and mail.outbox == []
    assert done["vacations_ended"] == 1, "the failed email did not stop the sweep"
    assert Vacation.objects.get().ended_at is not None
    (pending,) = PendingEmail.objects.all()
    assert pending.attempts == 1 and pending.due_at == clock.current + timedelta(minutes=1)
    sweep_twice(django_capture_on_commit_callbacks)
    assert mail.outbox == [], "not before its time"
    clock.advance(minutes=1)
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent() == Counter(reminder=1)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert f"game {game.pk}" in mail.outbox[0].subject
    assert not PendingEmail.objects.exists()


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


# --- every decision gets its full time (issue 11, defect 1) -------------------------------------


def person_moves(act, game, user, rng):
    state = state_of(game)
    move = rng.choice(engine.view(state, seat_of(game, user))["legal"])
    del move["seat"]
    act(submit_move, user, game.pk, game.version, move)


DEAL = 1


def test_every_new_decision_gets_a_full_clock(act, alice, clock, monkeypatch):
    """Alice thinks for 20 of her 24 hours before each move. Whenever she must decide again
    right after her own move (the team chooser going on to discard, a chooser leading the first
    trick, a trick's winner leading the next), she has a full day again, not the 4 hours left."""
    # One deal, so that the count below does not hang on the luck of a random one.
    monkeypatch.setattr(secrets, "randbits", lambda bits: DEAL)
    game = correspondence_game(act, alice, bots=("easy", "easy"))
    rng = random.Random(11)
    again = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat = game.seats.get(user=alice)
        assert 0 in engine.to_act(state_of(game)), "the bots answer at once"
        assert seat.deadline == seat.acting_since + timedelta(days=1)
        clock.advance(hours=20)
        moved_at, version = clock.current, game.version
        person_moves(act, game, alice, rng)
        seat.refresh_from_db()
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            assert seat.deadline == moved_at + timedelta(days=1)
            assert seat.reminder_due == moved_at + timedelta(hours=18)
            again += game.version == version + 1  # nobody moved in between
    assert again > 10, "she led many tricks after taking one"


def test_a_missed_deadline_is_one_stand_in_move_one_email_and_one_count(
    act, alice, clock, django_capture_on_commit_callbacks
):
    """Alice lets every other decision time out. Each missed deadline is exactly one stand-in
    move, one "a bot moved for you" email and one timeout in a row, also when the stand-in's
    move leaves her to decide again (she won the trick): that decision gets a full day."""
    alice.email_turn = "never"
    alice.email_reminders = True
    alice.save()
    game = correspondence_game(act, alice, bots=("easy", "easy"))
    rng = random.Random(5)
    again = timeouts = 0
    for turn in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        if turn % 2:
            person_moves(act, game, alice, rng)
            continue
        records = MoveRecord.objects.filter(game=game, timeout=True).count()
        emails = kinds_sent()["bot_moved"]
        clock.advance(hours=25)
        sweep_twice(django_capture_on_commit_callbacks)
        timeouts += 1
        assert MoveRecord.objects.filter(game=game, timeout=True).count() == records + 1
        assert kinds_sent()["bot_moved"] == emails + 1
        seat = game.seats.get(user=alice)
        assert seat.timeouts_in_a_row == 1 and not seat.autopilot
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            assert seat.deadline == clock.current + timedelta(days=1)
            timed_out = MoveRecord.objects.filter(game=game, timeout=True).last()
            again += timed_out.number == game.moves.count()  # she decides again at once
    assert again >= 3 and timeouts > 20


# --- the sweep only queues, once, and backs off (issue 11, defects 5 and 6) ---------------------


def test_no_your_turn_email_for_a_turn_that_timed_out_meanwhile(
    act, alice, clock, django_capture_on_commit_callbacks
):
    correspondence_game(act, alice)
    clock.advance(minutes=10)
    with django_capture_on_commit_callbacks(execute=False):
        assert due()["your_turn"] == 1  # queued; its task is lost (the site went down)
    clock.advance(days=2)  # back up, long after her deadline
    sweep_twice(django_capture_on_commit_callbacks)
    assert kinds_sent() == Counter(bot_moved=1), "not 'please move before <a past time>'"


def test_the_sweep_queues_each_thing_once_and_sends_nothing_itself(
    act, alice, bob, clock, django_capture_on_commit_callbacks
):
    alice.email_turn = "never"  # only reminders, then
    alice.save()
    games = [correspondence_game(act, alice) for _ in range(3)]
    clock.advance(hours=18, minutes=1)  # reminders due
    with django_capture_on_commit_callbacks(execute=False) as queued:
        found = due()
        again = due()
    assert found["reminders"] == 3 and again["reminders"] == 0
    assert mail.outbox == [] and PendingEmail.objects.count() == 3
    assert len(queued) == 3, "one task per email"
    clock.advance(hours=6)  # the deadlines: one catch-up task per game, once
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert due()["timeouts"] == 3
        assert due()["timeouts"] == 0
    assert len([c for c in queued]) >= 3
    assert all(g.moves.filter(timeout=True).count() == 0 for g in games), (
        "the sweep moves for no one"
    )


def test_a_catch_up_that_keeps_failing_backs_off_then_gives_up_logged_once(
    act, alice, clock, caplog, django_capture_on_commit_callbacks
):
    game = correspondence_game(act, alice)
    clock.advance(days=1, minutes=1)
    queued_at, gave_up_at = [], None
    gave_up = f"gave up on catching up game {game.pk}"
    for minute in range(0, 6 * 60):
        with django_capture_on_commit_callbacks(execute=False):  # every task is lost
            if due()["timeouts"]:
                queued_at.append(minute)
        if gave_up_at is None and gave_up in caplog.text:
            gave_up_at = minute
        clock.advance(minutes=1)
    gaps = [b - a for a, b in zip(queued_at, queued_at[1:], strict=False)]
    # The first wait is longer than the 5 minutes that 1,000 due timeouts take to drain.
    assert gaps == [15, 30, 60, 60, 60] and len(queued_at) == 6
    assert gave_up_at == queued_at[-1] + 60, "the last try gets its wait too"
    assert caplog.text.count(gave_up) == 1


def test_the_sweep_runs_a_fixed_number_of_queries(
    act, alice, clock, django_assert_num_queries, django_capture_on_commit_callbacks
):
    def sweep_queries(count):
        for _ in range(count):
            correspondence_game(act, alice)
        clock.advance(days=1, minutes=1)
        with django_capture_on_commit_callbacks(execute=False):
            from django.db import connection
            from django.test.utils import CaptureQueriesContext

            with CaptureQueriesContext(connection) as queries:
                found = due()
        assert found["timeouts"] >= count
        return len(queries)

    assert sweep_queries(2) == sweep_queries(6)


def test_the_sweep_queues_catch_ups_and_emails_apart_and_bot_moves_go_to_play(
    act, alice, bob, clock, django_capture_on_commit_callbacks
):
    """The queues of nyet_site/settings.py and games/queue.py, as published to a real broker
    (kombu's in-memory one): what the sweep finds never waits behind a bot's move, nor delays it."""
    from celery.signals import before_task_publish

    from tests.servers import broker

    for _ in range(50):
        game = correspondence_game(act, alice, bots=["easy"])
        if engine.to_act(state_of(game)) == (0,):
            break
        Game.objects.filter(pk=game.pk).delete()
    published = []

    def record(sender, routing_key, **kwargs):
        published.append((sender.rsplit(".", 1)[1], routing_key))

    def queued(action, *args):
        published.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action(*args)
        return Counter(published)

    def first_move(game, user):
        move = engine.view(state_of(game), seat_of(game, user))["legal"][0]
        del move["seat"]
        return move

    before_task_publish.connect(record)
    try:
        with broker("memory://"):  # the tasks are queued, and none runs
            clock.advance(hours=18, minutes=1)
            assert queued(due) == {("send_email", "email"): 2}  # "your turn" and a reminder
            clock.advance(hours=6)
            assert queued(due) == {
                ("play_timeouts", "catchup"): 1,  # her deadline
                ("send_email", "email"): 2,  # again: their tasks never ran
            }
            game.refresh_from_db()
            assert queued(submit_move, alice, game.pk, game.version, first_move(game, alice)) == {
                ("play_bots", "play"): 1
            }
            clock.advance(minutes=1)  # the bot's task was lost
            assert queued(due) == {("play_bots", "catchup"): 1}
            live = act(create_game, alice, players=2, move_seconds=600)
            act(join_game, bob, live.pk)
            (mover,) = engine.to_act(state_of(live))
            person = alice if seat_of(live, alice) == mover else bob
            # the other's live clock is the tick's: nothing waits in the broker for it
            assert (
                queued(submit_move, person, live.pk, live.version, first_move(live, person)) == {}
            )
            bots_only = act(create_game, bob, players=3, bots=["easy", "easy"])
            # nobody plays there any more: the bots finish it behind the tables of people
            assert queued(resign, bob, bots_only.pk) == {("play_bots", "catchup"): 1}
    finally:
        before_task_publish.disconnect(record)
