"""The state of a game of Nyet!: ``GameState``, its phases, and the finished tricks and rounds
it keeps.

A ``GameState`` is never changed in place: the engine's moves (``game.apply``) return a new one
and leave the old one as it was, also when they refuse the move. The modules named after the
phases change a fresh copy (``evolve``) before handing it back.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Terms, Token
from .tricks import play_order, team_of

BOARD = "board"
TEAMS = "teams"
DISCARD = "discard"  # discard or pass, as line 2 says
TRICKS = "tricks"
OVER = "over"
PHASES = (BOARD, TEAMS, DISCARD, TRICKS, OVER)


class Trick(NamedTuple):
    """A finished trick: cards in play order, starting with the leader's."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    loot: tuple[str, ...]

    def seats(self, players: int) -> tuple[int, ...]:
        """Who played each card, in play order (clockwise from the leader)."""
        return play_order(self.leader, players)[: len(self.cards)]


class RoundResult(NamedTuple):
    """What a finished round leaves on the scorepad."""

    dealer: int
    terms: Terms
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    bonus: int | None
    tricks: tuple[int, ...]  # tricks won per seat
    loot: tuple[int, ...]  # loot cards captured per seat
    scores: tuple[int, ...]


class GameState:
    """Everything about a game, secrets included. Treat it as immutable; show a seat ``view()``.

    Game: ``players``, ``seed``, ``target`` (point target, or None for the fixed round count),
    ``first_dealer``, ``results`` (one ``RoundResult`` per finished round).
    The round in play: ``dealer``, ``phase``, ``turn`` (who acts in the board, teams and tricks
    phases), ``hands``, ``out_of_play`` (2 players only), ``tokens``, ``open`` (open boxes per
    line), ``terms``, ``teams``, ``bonus``, ``choices`` (each seat's discard or pass, None until
    made; applied when all are made), ``trick`` (cards played to the current trick, led by
    ``leader``), ``tricks`` (finished ones), ``tricks_won`` and ``loot_won`` per seat.
    """

    players: int
    seed: int
    target: int | None
    first_dealer: int
    results: tuple[RoundResult, ...]
    dealer: int
    phase: str
    turn: int
    hands: tuple[tuple[str, ...], ...]
    out_of_play: tuple[str, ...]
    tokens: tuple[Token, ...]
    open: dict[str, tuple[str, ...]]
    terms: Terms | None
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None
    bonus: int | None
    choices: tuple[tuple[str, ...] | None, ...]
    trick: tuple[str, ...]
    leader: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    loot_won: tuple[int, ...]

    def evolve(self) -> GameState:
        new = object.__new__(GameState)
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<GameState {self.players}p round {self.round} {self.phase}"
            f" tokens={len(self.tokens)} tricks={len(self.tricks)}>"
        )

    @property
    def round(self) -> int:
        """Number of the round in play (1-based); after the game, the number of rounds played."""
        return len(self.results) + (self.phase != OVER)

    @property
    def team_of(self) -> tuple[int, ...]:
        """0 for each seat of the first player's team, 1 for the others (once teams are set)."""
        return team_of(self.teams)
