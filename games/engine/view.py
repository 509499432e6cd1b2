"""What one Seat may see of a game (RULES.md, "What each player may see").

``view(state, seat)`` is the only form of a game that pages, JSON and bots receive. It never holds
another seat's hand, discard or pass, the cards out of play, or the seed. ``seat=None`` is a
spectator's view: the public part only.

``View`` and the types below say what it holds, key by key; a view read back from JSON has the
same shape (tuples come back as lists, which is why every sequence here is a list).
"""

from __future__ import annotations

from typing import TypedDict

from .board import LINES, Terms, TermsJson
from .cards import SETUPS
from .game import legal_moves, to_act
from .moves import MoveJson, move_to_json
from .rounds import game_standings
from .state import OVER, TRICKS, GameState

# A token as [seat, line, box]: a JSON array, so one list of mixed items (``Token.from_json``).
TokenJson = list[int | str]


class BoardView(TypedDict):
    tokens: list[TokenJson]  # in the order they were placed
    open: dict[str, list[str]]  # each line's open boxes


class TrickView(TypedDict):
    """The trick in play: its cards in play order, the leader's first."""

    leader: int
    cards: list[str]


class FinishedTrick(TypedDict):
    leader: int
    cards: list[str]
    winner: int
    loot: list[str]


class RoundView(TypedDict):
    """A finished round on the scorepad."""

    dealer: int
    terms: TermsJson
    teams: list[list[int]]  # the first player's team, then the others
    bonus: int | None
    tricks: list[int]  # tricks won per seat
    loot: list[int]  # loot cards captured per seat
    scores: list[int]


class View(TypedDict):
    """What ``view(state, seat)`` returns (api/schemas/view.py's ``View`` documents each key)."""

    seat: int | None
    players: int
    target: int | None
    rounds: int | None
    round: int
    dealer: int
    phase: str
    to_act: list[int]
    board: BoardView
    terms: TermsJson | None
    teams: list[list[int]] | None
    bonus: int | None
    hand: list[str]
    hand_sizes: list[int]
    out_of_play: int
    chosen: list[bool]
    choice: list[str] | None
    received: str | None
    trick: TrickView
    tricks: list[FinishedTrick]
    tricks_won: list[int]
    loot_won: list[int]
    results: list[RoundView]
    totals: list[int]
    over: bool
    legal: list[MoveJson]


def _terms(terms: Terms | None) -> TermsJson | None:
    return None if terms is None else terms.to_json()


def _teams(teams: tuple[tuple[int, ...], ...] | None) -> list[list[int]] | None:
    return None if teams is None else [list(t) for t in teams]


def view(state: GameState, seat: int | None) -> View:
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    n = state.players
    own_choice = None if seat is None else state.choices[seat]
    received = None
    terms = state.terms
    passed = state.phase in (TRICKS, OVER) and terms is not None and terms.discard == "pass_left"
    if seat is not None and passed:
        given = state.choices[(seat - 1) % n]
        assert given is not None  # every pass is made before the first trick
        received = given[0]
    results = state.results
    standings = game_standings(state)
    return {
        "seat": seat,
        "players": n,
        "target": state.target,
        "rounds": None if state.target is not None else SETUPS[n].rounds,
        "round": state.round,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": list(to_act(state)),
        "board": {
            "tokens": [[t.seat, t.line, t.box] for t in state.tokens],
            "open": {line: list(state.open[line]) for line in LINES},
        },
        "terms": _terms(terms),
        "teams": _teams(state.teams),
        "bonus": state.bonus,
        "hand": [] if seat is None else list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "out_of_play": len(state.out_of_play),
        "chosen": [c is not None for c in state.choices],
        "choice": None if own_choice is None else list(own_choice),
        "received": received,
        "trick": {"leader": state.leader, "cards": list(state.trick)},
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner, "loot": list(t.loot)}
            for t in state.tricks
        ],
        "tricks_won": list(state.tricks_won),
        "loot_won": list(state.loot_won),
        "results": [
            {
                "dealer": r.dealer,
                "terms": r.terms.to_json(),
                "teams": [list(t) for t in r.teams],
                "bonus": r.bonus,
                "tricks": list(r.tricks),
                "loot": list(r.loot),
                "scores": list(r.scores),
            }
            for r in results
        ],
        "totals": standings.totals,
        "over": standings.over,
        "legal": [] if seat is None else [move_to_json(m) for m in legal_moves(state, seat)],
    }
