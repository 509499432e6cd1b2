"""A table and its seats: ``Game`` (its options, its seed, its version, ``state`` as a cache
of the seed and the move log) and ``Seat`` (who sits where, and the seat's clock), with what
a table offers (the characters, the bot levels it may seat) and whether a game may still be
aborted (``before_first_card``)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from games.engine import SETUPS

CHARACTERS = (_("Wolf"), _("Crane"), _("Tiger"), _("Bear"), _("Eagle"))


def before_first_card(state) -> bool:
    """Nothing a result could rest on has been played (round 1, no card yet): a game may then
    be aborted, unrated (``actions.abort_game``); after it, a player can only resign."""
    return state.round == 1 and not state.tricks and not state.trick


# The bot levels that think for seconds over each move (Expert: settings.EXPERT_BOT_SECONDS).
# Only correspondence tables offer them, where nobody sits waiting for the next move, and their
# turns have a task and a queue of their own (``games.actions.turns.bots_task``), so that no
# live table's bot reply or timeout ever waits behind them.
THINKING_BOT_LEVELS = frozenset({User.BotLevel.EXPERT})


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
        if user.is_site_bot:  # several bots of a level may sit at a table: add the character
            return f"{user.name} ({self.character})"
        return user.name if user.is_active else _("(former player)")
