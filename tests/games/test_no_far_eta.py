"""No task waits in the broker for minutes (issue 30): the guard every test runs under
(``tests/conftest.py``, ``no_far_eta``) refuses a task sent for later, and a live game with
timeouts, reminders and bot turns sends none."""

from datetime import timedelta

import pytest

from games import clock as game_clock
from games.actions import create_game, join_game
from games.actions.deadlines import due, tick
from games.tasks import sweep
from tests.servers import broker

pytestmark = pytest.mark.django_db


def test_the_guard_refuses_a_task_sent_for_minutes_later(no_far_eta):
    with pytest.raises(AssertionError, match="sent for later"):
        sweep.apply_async(countdown=60)
    with pytest.raises(AssertionError, match="sent for later"):
        sweep.apply_async(eta=game_clock.now() + timedelta(minutes=10))
    assert len(no_far_eta) == 2, "and the test fails at its end, should a caller swallow it"
    no_far_eta.clear()
    sweep.apply_async(countdown=1)  # a moment later is no parked timer
    assert no_far_eta == []


def test_a_live_game_s_clocks_send_nothing_for_later(act, alice, bob, clock):
    """The people's clocks run out again and again (the tick plays for them) until their seats
    go on autopilot, whose turns are then queued for the bots and, never run here, queued again
    as lost: all of it sent for now."""
    from celery.signals import before_task_publish

    published = []

    def record(sender, headers, **kwargs):
        published.append((sender, headers.get("eta")))

    before_task_publish.connect(record)
    try:
        with broker("memory://"):  # the tasks are really sent, and none runs
            game = act(create_game, alice, players=2, move_seconds=60)
            act(join_game, bob, game.pk)
            for _ in range(8):
                clock.advance(seconds=50)
                act(tick)
                clock.advance(seconds=15)
                act(tick)
                act(due)
    finally:
        before_task_publish.disconnect(record)
    game.refresh_from_db()
    assert game.moves_made >= 3, "the people's clocks ran out, and the tick moved for them"
    assert {"games.tasks.play_bots", "games.tasks.send_email"} <= {name for name, _ in published}
    assert [eta for _, eta in published if eta is not None] == []
