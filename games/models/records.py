"""The move log and the records written from it.

``MoveRecord`` is the append-only log: with the game's seed it rebuilds the game. ``Round``,
``RoundSeat``, ``BoardToken``, ``Trick`` and ``Play`` are projections of it, written from what
the engine decided on each move (``games.actions.records``), so that stats read them with SQL;
``manage.py check_records`` / ``rebuild_records`` compare them with, or write them again from,
the replay of the log. Their constraints keep them whole (numbers once per round and per trick,
seats in range)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from games.engine import LINES

from .game import Game, Seat


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
