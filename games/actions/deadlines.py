"""Time: what the live tick and the periodic sweep find due. (Vacations, which pause the
correspondence deadlines, are in ``vacations``; the sweep ends them, and warns of their end.)

The live tick (``tick``, every second, ``manage.py tick``) looks after live tables, whose turns
last seconds to minutes: it plays the stand-in's move for a seat out of time itself (one quick
move, a few milliseconds), queues a live turn's reminder, and queues again a bot turn whose task
was lost (the broker was away), and ends the rematch offers past their time. Four queries
through indexes when nothing is due, however many games are in play. No timer waits in the
broker: what is due is read from the database.

The sweep only finds what is due and hands it to small idempotent tasks; it never moves for a
player nor sends an email itself, so it stays quick whatever is due, and slow work (a mail
server, a bot's search) happens in the workers of its own queue (``games.queue``). Each thing
it queues is marked in the database in the same transaction, so the next sweep does not queue
it again while its task is on the way; a task that was lost is queued again after a while, and
one that keeps failing is retried less and less often, then given up (logged once).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q

from accounts.models import PushDevice, User
from games import clock, notifications, queue
from games.live import announce_on_commit
from games.models import THINKING_BOT_LEVELS, Game, PendingEmail, Seat, Vacation
from games.queue import publish_on_commit

from .moves import play_due_timeouts
from .notify import SEND_TASK, notify_people_on_commit, queue_emails, settle_lost_sends
from .rematches import expire_rematch_offers
from .turns import attended, bot_levels, bots_task, game_seats
from .vacations import end_vacations, warn_vacations

log = logging.getLogger(__name__)

STALLED_BOT = timedelta(seconds=30)  # a bot turn not played by then was lost on the way
# At a live table, a bot turn not played this long after it began was lost (or the broker was
# away): the tick queues it again, as often as this, while the turn is younger than
# LIVE_GIVE_UP; the sweep's slower retries (STALLED_BOT, CATCHUP_RETRY) go on after that. A table
# with no person left waits longer: its slices may stand in a long catch-up queue. A task queued
# twice does nothing the second time.
LIVE_STALLED_BOT = {"play": timedelta(seconds=3), "catchup": timedelta(seconds=15)}
LIVE_GIVE_UP = timedelta(minutes=2)
# A game's catch-up task queued again after these waits, if the game still has not moved;
# given up after the last. The first is longer than draining a heap of due work takes (1,000
# timeouts: about 5 minutes, BENCHMARKS.md), so that a task still queued is not queued twice.
CATCHUP_RETRY = tuple(timedelta(minutes=m) for m in (15, 30, 60, 60, 60, 60))
LOST_EMAIL = timedelta(minutes=5)  # an email queued this long ago and not sent: its task was lost
STALE_EMAIL = timedelta(days=1)  # too late to be of use: given up
QUIET = timedelta(minutes=5)  # "your turn" waits until the player has been away this long


def due(now=None) -> dict:
    """Everything the sweep queues at ``now``; returns how many of each it found."""
    now = now or clock.now()
    done = {
        **_queue_catchup(now),
        "emails_requeued": _requeue_emails(now),
        "emails_lost_while_sending": settle_lost_sends(now),
        "reminders": _queue_reminders(now),
        "your_turn": _queue_your_turn(now),
        "digests": _queue_digests(now),
        "vacations_ended": end_vacations(now),
        "vacations_warned": warn_vacations(now),
        "expired": _expire_tables(now),
        "rematch_offers_expired": expire_rematch_offers(now),
    }
    return done


def tick(now=None) -> dict:
    """What the live tick does at ``now``; returns how many of each it found."""
    now = now or clock.now()
    return {
        "timeouts": _play_live_timeouts(now),
        "reminders": _queue_reminders(now, live=True),
        "stalled": _requeue_live_bots(now),
        # a live table's offer lasts minutes: it says "expired" within a second of its time
        "rematch_offers_expired": expire_rematch_offers(now),
    }


def _live_seats():
    return Seat.objects.order_by().filter(
        game__status=Game.Status.ACTIVE, game__time_control=Game.TimeControl.LIVE
    )


def _play_live_timeouts(now) -> int:
    """The stand-in moves at once for each live seat out of time (``play_due_timeouts``), game
    after game: a move is a few milliseconds, and a game being moved now is tried again at the
    next tick."""
    games = (
        _live_seats().filter(deadline__lte=now).values_list("game_id", "game__version").distinct()
    )
    played = 0
    for game_id, version in list(games):
        try:
            played += play_due_timeouts(game_id, version, now)
        except Exception:  # one game's failure must not stop the others' clocks
            log.exception("the timeout of game %s failed", game_id)
    return played


# When the tick last queued each stalled game's bot turn: (version, when). The tick's own, in its
# process: the sweep's marks (``Game.catchup_*``) stay the sweep's, so that its retries go on
# where the tick's end. A second tick process only queues a turn twice, which does no harm.
_requeued: dict[int, tuple[int, datetime]] = {}


def _requeue_live_bots(now) -> int:
    """Live bot turns (bots, and seats on autopilot) that nobody played: queued again. Not while
    the broker is held off (``games.queue``): the next tick after it tries."""
    if queue.held_off():
        return 0
    soonest = min(LIVE_STALLED_BOT.values())
    bots = User.objects.exclude(bot_level="").values_list("pk", flat=True)
    seats = _live_seats().filter(
        acting_since__lte=now - soonest, acting_since__gt=now - LIVE_GIVE_UP
    )
    stalled = dict(
        seats.filter(Q(user__in=bots) | Q(autopilot=True))
        .values_list("game_id", "acting_since")
        .order_by("acting_since")  # a game's latest turn is the one the dict keeps
    )
    for pk, (_version, when) in list(_requeued.items()):
        if when <= now - LIVE_GIVE_UP:
            del _requeued[pk]
    queued = 0
    for game in Game.objects.filter(pk__in=stalled).only("pk", "version"):
        seats = game_seats(game)
        task, name = bots_task(bot_levels(seats).values(), attended(seats))
        wait = LIVE_STALLED_BOT.get(name, soonest)
        version, when = _requeued.get(game.pk, (None, None))
        if stalled[game.pk] > now - wait or (version == game.version and when > now - wait):
            continue
        if queue.publish(task, game.pk, game.version, queue=name):
            _requeued[game.pk] = (game.version, now)
            queued += 1
    return queued


def _catchup_may_queue(now) -> Q:
    """Never queued since the game last moved, or queued long enough ago to try again."""
    may = Q(catchup_queued_at__isnull=True)
    for attempts, wait in enumerate(CATCHUP_RETRY, start=1):
        may |= Q(catchup_attempts=attempts, catchup_queued_at__lte=now - wait)
    return may


def _queue_catchup(now) -> dict:
    """Games with a seat out of time (the stand-in moves for it) or a bot turn nobody played
    (its task was lost): one task each, on the catch-up queue (a lost bot turn of an Expert's
    table on its own queue, ``think``: ``turns.bots_task``). The due seats are found by their
    indexes first, so that the sweep reads only what is due however many games are in play."""
    seats = Seat.objects.order_by()
    timed_out = set(seats.filter(deadline__lte=now).values_list("game_id", flat=True))
    stalled_since = now - STALLED_BOT
    bots = list(User.objects.exclude(bot_level="").values_list("pk", flat=True))
    stalled = set(
        seats.filter(user__in=bots, acting_since__lte=stalled_since).values_list(
            "game_id", flat=True
        )
    ) | set(
        seats.filter(autopilot=True, acting_since__lte=stalled_since).values_list(
            "game_id", flat=True
        )
    )
    given_up = len(CATCHUP_RETRY)
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(skip_locked=True)  # a game moving now is not due
            .filter(pk__in=timed_out | stalled, status=Game.Status.ACTIVE)
            .filter(_catchup_may_queue(now))
            .values_list("pk", "version", "catchup_attempts")
        )
        lost = [pk for pk, _, attempts in games if attempts >= given_up]
        for pk in lost:
            log.error("gave up on catching up game %s: its tasks keep failing", pk)
        Game.objects.filter(pk__in=lost).update(catchup_attempts=given_up + 1)
        queued = [(pk, version) for pk, version, attempts in games if attempts < given_up]
        Game.objects.filter(pk__in=[pk for pk, _ in queued]).update(
            catchup_queued_at=now, catchup_attempts=F("catchup_attempts") + 1
        )
        thinking = set(
            seats.filter(
                game_id__in=[pk for pk, _ in queued], user__bot_level__in=THINKING_BOT_LEVELS
            ).values_list("game_id", flat=True)
        )
        for pk, version in queued:
            if pk in timed_out:  # the stand-in's moves (Medium: quick), on the catch-up queue
                publish_on_commit("games.tasks.play_timeouts", pk, version, queue="catchup")
            elif pk in thinking:  # an Expert's table: its own queue (turns.bots_task)
                publish_on_commit("games.tasks.think", pk, version, queue="think")
            else:
                publish_on_commit("games.tasks.play_bots", pk, version, queue="catchup")
    timeouts = sum(1 for pk, _ in queued if pk in timed_out)
    return {"timeouts": timeouts, "stalled": len(queued) - timeouts}


def _requeue_emails(now) -> int:
    """Outbox emails due whose task was lost, or due again after a failure."""
    for pending in PendingEmail.objects.filter(created_at__lte=now - STALE_EMAIL):
        log.error("gave up on the email %s: too late", pending)
        pending.delete()
    with transaction.atomic():
        ids = list(
            PendingEmail.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
            .filter(Q(queued_at__isnull=True) | Q(queued_at__lte=now - LOST_EMAIL))
            .values_list("pk", flat=True)
        )
        PendingEmail.objects.filter(pk__in=ids).update(queued_at=now)
        for pk in ids:
            publish_on_commit(SEND_TASK, pk, queue="email")
    return len(ids)


def _away():
    """Players on vacation get no turn emails, in live games either: they said they are away."""
    return Exists(Vacation.objects.filter(user=OuterRef("user"), ended_at__isnull=True))


def _queue_turn_emails(kind: str, seats, mark: dict, now) -> int:
    """One ``kind`` email per seat of ``seats`` (a query of due seats), marking each seat with
    ``mark`` so that the next sweep does not find it again."""
    with transaction.atomic():
        rows = list(
            seats.select_for_update(skip_locked=True, of=("self",)).values_list(
                "pk", "game_id", "position", "acting_since"
            )
        )
        Seat.objects.filter(pk__in=[row[0] for row in rows]).update(**mark)
        return queue_emails(
            (
                (kind, [game_id, position, notifications.turn_key(game_id, position, since)])
                for _, game_id, position, since in rows
            ),
            now,
        )


def _queue_reminders(now, live: bool = False) -> int:
    """A person's turn at 75% of its time, once, if they are away (``live``: live tables only,
    the tick's share; the sweep looks at all)."""
    seats = (
        (_live_seats() if live else Seat.objects)
        .filter(game__status=Game.Status.ACTIVE, reminder_due__lte=now, deadline__gt=now)
        .exclude(_away())
        # at a live table the player who is on the site sees the clock: no email for that
        .exclude(game__time_control=Game.TimeControl.LIVE, user__last_seen__gt=now - QUIET)
    )
    return _queue_turn_emails("reminder", seats, {"reminder_due": None}, now)


def _queue_your_turn(now) -> int:
    """A person whose turn it is, who has been away a few minutes and has not been emailed
    about this game since their last visit, gets one email (not for a turn already out of
    time: the stand-in moves for it, and that is the email they get)."""
    seats = (
        Seat.objects.annotate(has_browser=Exists(PushDevice.objects.filter(user=OuterRef("user"))))
        .filter(
            game__status=Game.Status.ACTIVE,
            acting_since__lte=now - QUIET,
            deadline__gt=now,
            autopilot=False,
            user__bot_level="",
        )
        # an email at once, or a push message (games.actions.notify sends what each wants)
        .filter(
            Q(user__email_turn=User.TurnEmail.AT_ONCE) | Q(user__push_turn=True, has_browser=True)
        )
        .filter(Q(user__last_seen__isnull=True) | Q(user__last_seen__lte=now - QUIET))
        .filter(Q(turn_emailed_at__isnull=True) | Q(turn_emailed_at__lt=F("user__last_seen")))
        .exclude(_away())
    )
    return _queue_turn_emails("your_turn", seats, {"turn_emailed_at": now}, now)


def _queue_digests(now) -> int:
    """The daily digest, at 07:00 in each player's time zone (the email lists the games that
    wait for them when it is sent, and is not sent when none does)."""
    daily = User.objects.filter(email_turn=User.TurnEmail.DAILY, is_active=True, bot_level="")
    unscheduled = list(
        daily.filter(next_digest_at__isnull=True).only("pk", "time_zone", "browser_time_zone")
    )
    for user in unscheduled:
        user.next_digest_at = notifications.next_digest_at(user, now)
    User.objects.bulk_update(unscheduled, ["next_digest_at"])
    with transaction.atomic():
        users = list(
            daily.select_for_update(skip_locked=True)
            .filter(next_digest_at__lte=now)
            .only("pk", "time_zone", "browser_time_zone", "next_digest_at")
        )
        emails = []
        for user in users:
            # named after the day it is for, in the player's zone: one digest a day at most
            day = user.next_digest_at.astimezone(notifications.player_zone(user)).date()
            emails.append(("digest", [user.pk, day.isoformat()]))
            user.next_digest_at = notifications.next_digest_at(user, now)
        User.objects.bulk_update(users, ["next_digest_at"])
        return queue_emails(emails, now)


def _expire_tables(now) -> int:
    """Tables still waiting for players ``TABLE_EXPIRES_AFTER`` after they were made: aborted by
    nobody (``aborted_by`` None, never started: ``Game.expired``), nothing rated, and each
    person seated there is emailed. An expired table is no longer open: never found again."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(skip_locked=True)  # a table being joined now waits
            .filter(status=Game.Status.OPEN, created_at__lte=now - settings.TABLE_EXPIRES_AFTER)
            .only("pk", "status", "version")
        )
        for game in games:
            game.status = Game.Status.ABORTED
            game.aborted_by = None
            game.finished_at = now
            game.version += 1
            game.save(update_fields=["status", "aborted_by", "finished_at", "version"])
            announce_on_commit(game)
            notify_people_on_commit("table_expired", game, key=str(game.pk))
    return len(games)
