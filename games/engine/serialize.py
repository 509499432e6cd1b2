"""JSON form of a whole ``GameState``, secrets included: for storage, never for a player.

``state_from_json(state_to_json(s)) == s`` for every state; the form holds only JSON types.
"""

from __future__ import annotations

from typing import Any

from .board import LINES, Terms, TermsJson, Token
from .state import GameState, RoundResult, Trick
from .view import RoundView

FORMAT = 1


def _terms(terms: Terms | None) -> TermsJson | None:
    return None if terms is None else terms.to_json()


def _teams(teams: tuple[tuple[int, ...], ...] | None) -> list[list[int]] | None:
    return None if teams is None else [list(t) for t in teams]


# Read from storage and checked by nobody but its own format number: typed as what it is, JSON.
StateJson = dict[str, Any]


def state_to_json(state: GameState) -> StateJson:
    return {
        "format": FORMAT,
        "players": state.players,
        "seed": state.seed,
        "target": state.target,
        "first_dealer": state.first_dealer,
        "results": [
            {
                "dealer": r.dealer,
                "terms": _terms(r.terms),
                "teams": _teams(r.teams),
                "bonus": r.bonus,
                "tricks": list(r.tricks),
                "loot": list(r.loot),
                "scores": list(r.scores),
            }
            for r in state.results
        ],
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [list(h) for h in state.hands],
        "out_of_play": list(state.out_of_play),
        "tokens": [[t.seat, t.line, t.box] for t in state.tokens],
        "open": {line: list(state.open[line]) for line in LINES},
        "terms": _terms(state.terms),
        "teams": _teams(state.teams),
        "bonus": state.bonus,
        "choices": [None if c is None else list(c) for c in state.choices],
        "trick": list(state.trick),
        "leader": state.leader,
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner, "loot": list(t.loot)}
            for t in state.tricks
        ],
        "tricks_won": list(state.tricks_won),
        "loot_won": list(state.loot_won),
    }


def _terms_from(data: TermsJson | None) -> Terms | None:
    return None if data is None else Terms.from_json(data)


def _teams_from(data: list[list[int]] | None) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    return None if data is None else (tuple(data[0]), tuple(data[1]))


def round_result_from_json(r: RoundView) -> RoundResult:
    """A finished round as stored, and as the scorepad of every seat's view shows it."""
    return RoundResult(
        r["dealer"],
        Terms.from_json(r["terms"]),
        (tuple(r["teams"][0]), tuple(r["teams"][1])),
        r["bonus"],
        tuple(r["tricks"]),
        tuple(r["loot"]),
        tuple(r["scores"]),
    )


def state_from_json(data: StateJson) -> GameState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown state format {data.get('format')!r}")
    state = object.__new__(GameState)
    state.players = data["players"]
    state.seed = data["seed"]
    state.target = data["target"]
    state.first_dealer = data["first_dealer"]
    state.results = tuple(round_result_from_json(r) for r in data["results"])
    state.dealer = data["dealer"]
    state.phase = data["phase"]
    state.turn = data["turn"]
    state.hands = tuple(tuple(h) for h in data["hands"])
    state.out_of_play = tuple(data["out_of_play"])
    state.tokens = tuple(Token(*t) for t in data["tokens"])
    state.open = {line: tuple(data["open"][line]) for line in LINES}
    state.terms = _terms_from(data["terms"])
    state.teams = _teams_from(data["teams"])
    state.bonus = data["bonus"]
    state.choices = tuple(None if c is None else tuple(c) for c in data["choices"])
    state.trick = tuple(data["trick"])
    state.leader = data["leader"]
    state.tricks = tuple(
        Trick(t["leader"], tuple(t["cards"]), t["winner"], tuple(t["loot"])) for t in data["tricks"]
    )
    state.tricks_won = tuple(data["tricks_won"])
    state.loot_won = tuple(data["loot_won"])
    return state
