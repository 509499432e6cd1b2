"""The schemas of the tables and games routes: what each takes and answers (a game's view and
moves are in ``view`` and ``moves``), and ``Error``, the body of every refusal."""

from __future__ import annotations

from ninja import Schema
from pydantic import Field

from accounts.models import User

from .enums import BotLevel, GameStatus, Pace, TimeControl, Visibility
from .moves import Card, Move, SeatedMove
from .view import RoundOut, View


class Error(Schema):
    code: str
    message: str


class PlaceOut(Schema):
    seat: int
    name: str
    total: int
    rank: int  # 1 for the winners; a seat that left comes after every seat that played on
    tied: bool
    left: bool  # ended the game on autopilot: ranked last whatever its points
    resigned: bool
    reason: str  # why a seat that left is ranked last, in words; "" otherwise


class ResultOut(Schema):
    winners: list[int]  # seats in first place
    places: list[PlaceOut]  # first to last


class SeatOut(Schema):
    position: int
    name: str
    is_bot: bool
    username: str | None


class TableOut(Schema):
    id: int
    status: GameStatus
    players: int
    time_control: TimeControl
    move_seconds: int
    target: int | None
    visibility: Visibility
    version: int
    seats: list[SeatOut]
    my_seat: int | None


class GameOut(Schema):
    id: int
    status: GameStatus
    version: int
    my_seat: int | None
    seats: list[SeatOut]  # who sits where
    view: View | None  # engine.view(state, my_seat): None before the game starts
    legal: list[Move]  # the moves my seat may make now, without their "seat"
    result: ResultOut | None  # once the game is finished: the winners and the ranking


class NewTable(Schema):
    players: int  # 2 to 5
    bots: list[BotLevel | None] = []  # seats 1, 2, …: a bot of this level, or null: open
    target: int | None = None  # a point target; null: the fixed number of rounds
    move_seconds: Pace | None = None  # null: live:300
    visibility: Visibility | None = None  # null: public


class JoinIn(Schema):
    invite: str = ""


class SeatBotIn(Schema):
    username: str  # a bot account's


class StartIn(Schema):
    level: BotLevel = BotLevel(str(User.DEFAULT_BOT_LEVEL))  # str: a Django choice, to mypy a tuple


class MoveIn(Schema):
    version: int  # the game's version the move was chosen at
    move: Move  # the engine's move without "seat", e.g. {"play": "Y7"}
    round: int | None = Field(
        None,
        description=(
            "Not needed (kept for old clients): a discard or pass made at a version of this "
            "Round's discard phase is taken even when other seats chose since (the version "
            "moved on). If sent, the Round the discard or pass was chosen in."
        ),
    )


class RecordRound(RoundOut):
    deal: list[list[Card]]  # each seat's hand as dealt


class RecordOut(Schema):
    id: int
    players: int
    target: int | None
    seats: list[SeatOut]
    moves: list[SeatedMove]  # each with its "seat", in order
    rounds: list[RecordRound]  # each round's deal, terms, teams, tricks, loot and scores
    final: View  # the last view (a spectator's): every total
    result: ResultOut  # the winners and the ranking
