"""A game as one seat sees it: ``engine.view(state, seat)`` exactly (``View``), every key typed.
It is a deliberate mirror of the engine's TypedDicts (games/engine/view.py), kept in step by
tests/test_types.py."""

from __future__ import annotations

from pydantic import BaseModel

from .enums import Color, DiscardRule, Line, Phase, SuperColor
from .moves import Card, SeatedMove

# --- the view: engine.view(state, seat) ----------------------------------------------------
# A deliberate mirror of the engine's TypedDicts (games/engine/view.py): pydantic models document
# and validate what the engine types for mypy. tests/test_types.py fails when the two disagree on
# a key, nested or not.


class OpenBoxes(BaseModel):
    """Each line's open boxes (the unused characters' boxes of line 1 are covered all game)."""

    first: list[str]  # "0" to "4": the seat that leads the first Trick
    discard: list[DiscardRule]
    trump: list[Color]
    super: list[SuperColor]
    points: list[str]  # "1", "2", "3", "4", "-2"


class BoardOut(BaseModel):
    tokens: list[tuple[int, Line, str]]  # [seat, line, box], in the order they were placed
    open: OpenBoxes


class TermsOut(BaseModel):
    """What the board decided for the Round: the one open box of each line."""

    first: int
    discard: DiscardRule
    trump: Color
    super: SuperColor
    points: int


class TrickInPlay(BaseModel):
    leader: int
    cards: list[Card]  # in play order, the leader's first


class TrickOut(BaseModel):
    leader: int
    cards: list[Card]
    winner: int
    loot: list[Card]


class RoundOut(BaseModel):
    """A finished Round on the scorepad."""

    dealer: int
    terms: TermsOut
    teams: list[list[int]]  # the first player's team, then the others
    bonus: int | None
    tricks: list[int]  # tricks won per seat
    loot: list[int]  # loot cards captured per seat
    scores: list[int]


class View(BaseModel):
    """A game as one seat sees it (``seat`` null: a spectator's view, without hand or legal
    moves): exactly the engine's ``view(state, seat)``."""

    seat: int | None
    players: int
    target: int | None  # the point target; null: a fixed number of rounds
    rounds: int | None  # that number of rounds; null with a point target
    round: int  # the Round in play, from 1 (when over: the rounds played)
    dealer: int
    phase: Phase
    to_act: list[int]  # the seats that may move now: several at once in the discard phase
    board: BoardOut
    terms: TermsOut | None  # once the board is done
    teams: list[list[int]] | None  # once chosen: the first player's team, then the others
    bonus: int | None
    hand: list[Card]  # my cards (none for a spectator)
    hand_sizes: list[int]
    out_of_play: int  # cards set aside (2 players)
    chosen: list[bool]  # per seat: its discard or pass is made (the cards stay secret)
    choice: list[Card] | None  # my own discard or pass, once made
    received: Card | None  # the card passed to me, once all passes are made
    trick: TrickInPlay
    tricks: list[TrickOut]  # this Round's finished tricks
    tricks_won: list[int]
    loot_won: list[int]
    results: list[RoundOut]  # the finished rounds
    totals: list[int]
    over: bool
    legal: list[SeatedMove]  # my legal moves now, each with my seat
