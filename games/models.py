"""The records of a game of Nyet!.

The seed and the append-only ``MoveRecord`` log are the source of truth: replaying them through
the engine rebuilds ``Game.state``. The other records (``Round``, ``RoundSeat``, ``BoardToken``,
``Trick``, ``Play``) are written from what the engine decided on each move
(``games.actions.records``), so that stats read them with SQL; each fact is stored once, and
``manage.py check_records`` / ``rebuild_records`` compare them with, or write them again from,
the replay of the log. Their constraints keep them whole (numbers once per round and per trick,
seats in range).
Models hold data and constraints only; every change goes through ``games.actions``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import LINES, SETUPS

CHARACTERS = (_("Wolf"), _("Crane"), _("Tiger"), _("Bear"), _("Eagle"))


def before_first_card(state) -> bool:
    """Nothing a result could rest on has been played (round 1, no card yet): a game may then
    be aborted, unrated (``actions.abort_game``); after it, a player can only resign."""
    return state.round == 1 and not state.tricks and not state.trick


# The bot levels that think for seconds over each move (Expert: settings.EXPERT_BOT_SECONDS).
# Only correspondence tables offer them, where nobody sits waiting for the next move, and their
# turns have a task and a queue of their own (``games.actions.turns.bots_task``), so that no
# live table's bot reply or timeout ever waits behind them.
THINKING_BOT_LEVELS = frozenset({"expert"})


def offers_bot_level(time_control: str, level: str) -> bool:
    """Whether a table of this time control may seat a bot of this level."""
    return level not in THINKING_BOT_LEVELS or time_control == Game.TimeControl.CORRESPONDENCE


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed in the lobby")
        PRIVATE = "private", _("Private: by invite link only")

    class TimeControl(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    players = models.PositiveSmallIntegerField(
        _("players"), help_text=_("How many seats the table has, 2 to 5.")
    )
    target = models.PositiveIntegerField(
        _("point target"),
        null=True,
        blank=True,
        help_text=_("Play until someone reaches this many points instead of a fixed round count."),
    )
    time_control = models.CharField(
        _("time control"), max_length=16, choices=TimeControl, default=TimeControl.LIVE
    )
    move_seconds = models.PositiveIntegerField(_("time per move, in seconds"), default=5 * 60)
    visibility = models.CharField(
        _("visibility"), max_length=8, choices=Visibility, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(max_length=32, unique=True)
    status = models.CharField(max_length=8, choices=Status, default=Status.OPEN, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Secret: the seed reveals every deal. Never shown to a player.
    seed = models.BigIntegerField()
    # Grows by one with every accepted move (and every lobby change); forms carry it.
    version = models.PositiveIntegerField(default=0)
    # Moves made: the last MoveRecord's number, kept on the locked row so that numbering a move
    # counts no rows. (Not the version, which also moves for the lobby and "I'm back": the log's
    # numbers have no gaps.)
    moves_made = models.PositiveIntegerField(default=0)
    # The engine's GameState in its JSON form, secrets included: a cache of seed + moves.
    state = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)  # finished or aborted
    # Who ended the game before its first card (``actions.abort_game``): unrated, nobody won.
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # What the sweep queued for this game (a timeout, a stalled bot turn) and how often since
    # the game last moved: it queues nothing again while a task is on its way, and backs off,
    # then gives up, on a task that keeps failing. A move clears both.
    catchup_queued_at = models.DateTimeField(null=True, blank=True)
    catchup_attempts = models.PositiveSmallIntegerField(default=0)
    # The finished game this one replays with the same seats (started once every person at that
    # table accepted its ``RematchOffer``).
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    # A first-game guide (``games.tutorial``): one round on a fixed deal against bots, with a
    # hint at each step. Unrated, without a clock, and left out of records, stats and emails.
    tutorial = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=2) & Q(players__lte=5), name="game_players_2_to_5"
            ),
            models.CheckConstraint(
                condition=Q(target__isnull=True) | Q(target__gt=0), name="game_target_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    def invite_code_matches(self, code: object) -> bool:
        """Whether ``code`` is this table's invite code: compared in constant time, as bytes, so
        that any text a visitor sends is a fair answer (compare_digest refuses non-ASCII str)."""
        return isinstance(code, str) and secrets.compare_digest(
            code.encode(), self.invite_code.encode()
        )

    @property
    def expired(self) -> bool:
        """Aborted by the sweep because its open seats were never filled (it never started:
        a player aborts only a game in play, ``actions.abort_game``)."""
        return self.status == self.Status.ABORTED and self.started_at is None

    @property
    def round_count(self) -> int | None:
        """How many rounds are played; None when playing to a point target."""
        return None if self.target else SETUPS[self.players].rounds

    @property
    def pace(self) -> str:
        """The time control in words, for players choosing a table."""
        if self.time_control == self.TimeControl.CORRESPONDENCE:
            days = self.move_seconds // 86400
            text = ngettext(
                "correspondence, %(count)d day a move",
                "correspondence, %(count)d days a move",
                days,
            )
            return text % {"count": days}
        minutes = self.move_seconds // 60
        text = ngettext("live, %(count)d minute a move", "live, %(count)d minutes a move", minutes)
        return text % {"count": minutes}


class RematchOffer(models.Model):
    """A rematch asked for at the end of a finished game, as on lichess: every other person
    of that table (``Seat``s of people, bots aside) accepts or declines on the game's page; the
    new game starts with the same seats once all have accepted (the bots keep theirs), or the
    offer ends: declined, cancelled by someone who had accepted, or expired (the live tick and
    the sweep find ``expires_at``, ``actions.deadlines``). Changed only with the finished game's
    row locked (``actions.lobby``): one open offer per game at a time."""

    class Outcome(models.TextChoices):
        OPEN = "open", _("waiting for answers")
        ACCEPTED = "accepted", _("accepted: the rematch started")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rematch_offers")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    asked_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # The ids of the people who said yes, the one who asked first.
    accepted = models.JSONField(default=list)
    outcome = models.CharField(max_length=9, choices=Outcome, default=Outcome.OPEN)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Who declined or cancelled it (None when it expired, or was accepted by everyone).
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    new_game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(outcome="open"), name="rematch_offer_open_once"
            ),
        ]
        indexes = [  # the tick's look for the offers that expire, among every offer ever made
            models.Index(
                fields=["expires_at"], condition=Q(outcome="open"), name="rematch_offer_due"
            ),
        ]

    def __str__(self) -> str:
        return f"rematch of {self.game} ({self.outcome})"


class Seat(models.Model):
    """A place at the table. Position ``p`` plays the ``p``-th character (line 1 of the board)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="seats"
    )
    score = models.IntegerField(default=0)  # running total of the finished rounds
    # Set while this seat must act (several seats at once while discards are chosen).
    acting_since = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the seat's time to act runs out; None while its player is on vacation in a
    # correspondence game (``paused_seconds`` then keeps the time left). The sweep finds what
    # is due: a reminder at 75% of the time, a stand-in move at the deadline.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    reminder_due = models.DateTimeField(null=True, blank=True, db_index=True)
    paused_seconds = models.PositiveIntegerField(null=True, blank=True)
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    # After three timeouts in a row the stand-in bot plays the seat until the player is back.
    autopilot = models.BooleanField(default=False)
    # The player gave up (``actions.resign``): the stand-in plays the seat to the end, for good,
    # and the seat ranks last for rating as one that ended on autopilot.
    resigned_at = models.DateTimeField(null=True, blank=True)
    # The last "your turn" email for this game: none again before the player's next visit.
    turn_emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_once"),
            models.CheckConstraint(condition=Q(position__lte=4), name="seat_position_0_to_4"),
        ]
        # The sweep's look for seats on autopilot that nobody played, among many turns.
        indexes = [
            models.Index(
                fields=["acting_since"], condition=Q(autopilot=True), name="seat_autopilot_acting"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}"

    @property
    def character(self) -> str:
        return CHARACTERS[self.position]

    @property
    def name(self) -> str:
        """Who sits here, as every page says it (uses ``self.game``: prefetch it with seats)."""
        user = self.user
        if user is None:  # an open seat, or a player who deleted their account
            game = self.game  # a table that never started (open, or expired) had nobody there
            never_filled = game.status == Game.Status.OPEN or game.expired
            return _("(open seat)") if never_filled else _("(former player)")
        if user.is_bot:  # several bots of a level may sit at a table: add the character
            return f"{user.name} ({self.character})"
        return user.name if user.is_active else _("(former player)")


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()  # 1-based
    dealer = models.PositiveSmallIntegerField()
    # The terms, once the board is done. The first player, the teams and the bonus card's
    # holder are each seat's: in its RoundSeat once the round is over (in the game's state
    # while it is in play).
    discard = models.CharField(max_length=10, blank=True)
    trump = models.CharField(max_length=1, blank=True)
    supertrump = models.CharField(max_length=4, blank=True)
    points = models.SmallIntegerField(null=True, blank=True)
    # Once the round is over, each seat's team, tricks, loot and score are its RoundSeat.

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
            models.CheckConstraint(condition=Q(dealer__lte=4), name="round_dealer_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.game} round {self.number}"


class RoundSeat(models.Model):
    """One seat's part in a finished round, from the engine's ``RoundResult``: the row that
    per-player stats aggregate in SQL. A round has these rows once it is over."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="rounds")
    position = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField()  # 0: the first player's team, 1: the others
    first = models.BooleanField()  # the round's first player (line 1)
    bonus = models.BooleanField()  # holds the bonus card
    bonus_team = models.BooleanField()  # on the team of the bonus card's holder
    tricks = models.PositiveSmallIntegerField()
    loot = models.PositiveSmallIntegerField()
    score = models.SmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="round_seat_once"),
            models.CheckConstraint(condition=Q(position__lte=4), name="round_seat_0_to_4"),
            models.CheckConstraint(condition=Q(team__lte=1), name="round_seat_team_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.position}"


class BoardToken(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tokens")
    seat = models.PositiveSmallIntegerField()
    line = models.CharField(max_length=8, choices=[(line, line) for line in LINES])
    box = models.CharField(max_length=10)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "order"], name="token_order_once"),
            models.UniqueConstraint(fields=["round", "line", "box"], name="token_box_once"),
            models.CheckConstraint(condition=Q(seat__lte=4), name="token_seat_0_to_4"),
            models.CheckConstraint(condition=Q(line__in=LINES), name="token_line_known"),
        ]

    def __str__(self) -> str:
        return f"{self.round} token {self.order}: {self.line} {self.box}"


class Trick(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tricks")
    number = models.PositiveSmallIntegerField()  # 1-based within the round
    leader = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField()
    loot = models.JSONField(default=list)  # the loot cards, in play order

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="trick_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="trick_number_from_1"),
            models.CheckConstraint(condition=Q(leader__lte=4), name="trick_leader_0_to_4"),
            models.CheckConstraint(condition=Q(winner__lte=4), name="trick_winner_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.round} trick {self.number}"


class Play(models.Model):
    trick = models.ForeignKey(Trick, on_delete=models.CASCADE, related_name="plays")
    seat = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=3)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["trick", "order"], name="play_order_once"),
            models.UniqueConstraint(fields=["trick", "seat"], name="play_seat_once"),
            models.CheckConstraint(condition=Q(seat__lte=4), name="play_seat_0_to_4"),
            models.CheckConstraint(condition=Q(order__lte=4), name="play_order_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.trick} play {self.order}: {self.card}"


class MoveRecord(models.Model):
    """The append-only move log. With the seed it rebuilds the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 1-based, gapless
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()  # the engine's JSON form: {"seat": 0, "play": "Y7"}
    round = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    by_bot = models.BooleanField(default=False)  # a bot chose it (for a person: see below)
    timeout = models.BooleanField(default=False)  # the stand-in, as the player's time ran out
    autopilot = models.BooleanField(default=False)  # the stand-in, while the player was away

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="move_number_from_1"),
            models.CheckConstraint(condition=Q(seat__lte=4), name="move_seat_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.number}"


CHAT_MAX_LENGTH = 500


class ChatMessage(models.Model):
    """A line of a table's chat, written by one of its seated people. Only they read it: a
    table has no chat for spectators (see the README). Staff hide a message rather than delete
    it, so that a report still shows what was said."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField()
    hidden = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.game} chat {self.pk}"


class ChatReport(models.Model):
    """A player's report of a chat message, for staff to read in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]

    def __str__(self) -> str:
        return f"report of {self.message}"


class Vacation(models.Model):
    """A player's time away: their correspondence deadlines are paused meanwhile."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()  # as asked, or when the year's days run out
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    warned_at = models.DateTimeField(null=True, blank=True)  # "your vacation ends tomorrow"

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(ended_at__isnull=True), name="one_vacation_at_a_time"
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("started_at")), name="vacation_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} away from {self.started_at:%Y-%m-%d}"


class PendingEmail(models.Model):
    """The outbox: an email decided on (by an action, or by the sweep), written in the same
    transaction as the change that calls for it, and deleted once it is sent or given up.

    A task (``games.tasks.send_email``) sends it after commit; the sweep queues again one whose
    task was lost (``queued_at`` long past) or that is due for another attempt after a failure
    (``due_at``). Whoever sends it first claims it until ``claimed_until``, longer than a send
    can take, so two workers never send it at once.
    """

    kind = models.CharField(max_length=20)
    args = models.JSONField()  # what games.notifications.compose needs for this kind
    created_at = models.DateTimeField(db_index=True)
    due_at = models.DateTimeField(db_index=True)  # the next attempt, not before
    queued_at = models.DateTimeField(null=True, blank=True)  # a task was queued for it then
    claimed_until = models.DateTimeField(null=True, blank=True)  # a worker is sending it
    attempts = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.kind} {self.args} ({self.created_at:%Y-%m-%d %H:%M})"


class SentEmail(models.Model):
    """Every email handed to the mail server, by kind and a key naming what it was about:
    sending it again for the same key does nothing, so tasks that run twice send nothing twice.

    Written before talking to the server (``SENDING``), then ``SENT`` once the server said it
    took the message, or ``UNKNOWN`` when it never answered: such an email may or may not have
    arrived, is not sent again by itself, and is listed in the admin, whose action sends it
    again (games.notifications)."""

    class Fate(models.TextChoices):
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        UNKNOWN = "unknown", _("unknown: the mail server did not answer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sent_emails",
        verbose_name=_("recipient"),
    )
    kind = models.CharField(_("kind"), max_length=20)
    key = models.CharField(_("occasion"), max_length=100)
    sent_at = models.DateTimeField(_("sent at"))
    fate = models.CharField(_("fate"), max_length=8, choices=Fate, default=Fate.SENT)
    # The outbox's arguments (PendingEmail.args), to write the email again; none on the
    # records from before they were kept.
    args = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("sent email")
        verbose_name_plural = _("sent emails")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="email_once"),
        ]
        indexes = [
            # The health check counts them at every call: a few rows in an index, not a scan
            # of every email ever sent.
            models.Index(fields=["fate"], condition=Q(fate="unknown"), name="email_fate_unknown"),
            # the sweep looks for sends whose worker stopped midway (``settle_lost_sends``)
            models.Index(
                fields=["sent_at"], condition=Q(fate="sending"), name="email_fate_sending"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.key})"


class Invitation(models.Model):
    """A player asked to a table by someone at it. The invitee may watch the game even when it is
    private; the inviter's invitations of the last day are what the daily limits count, answered
    or not. While it is pending (and the table open) it is the invitee's right to a seat, even at
    a private table; the invitee accepts (sits) or declines it, the inviter may cancel it
    (``actions.lobby``): the row stays, with its answer."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    answer = models.CharField(max_length=9, choices=Answer, default=Answer.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["inviter", "created_at"], name="invitation_by_inviter"),
            models.Index(fields=["game", "invitee"], name="invitation_to_game"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee} to {self.game}"
