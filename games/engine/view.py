"""What one Seat may see of a game (RULES.md, "What each player may see").

``view(state, seat)`` is the only form of a game that pages, JSON and bots receive. It never holds
another seat's hand, discard or pass, the cards out of play, or the seed. ``seat=None`` is a
spectator's view: the public part only.
"""

from __future__ import annotations

from .board import LINES
from .cards import SETUPS
from .moves import move_to_json
from .state import OVER, TRICKS, GameState, game_standings, legal_moves, to_act


def _terms(terms) -> dict | None:
    return None if terms is None else terms.to_json()


def _teams(teams) -> list | None:
    return None if teams is None else [list(t) for t in teams]


def view(state: GameState, seat: int | None) -> dict:
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    n = state.players
    own_choice = None if seat is None else state.choices[seat]
    received = None
    passed = state.phase in (TRICKS, OVER) and state.terms.discard == "pass_left"
    if seat is not None and passed:
        received = state.choices[(seat - 1) % n][0]
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
        "terms": _terms(state.terms),
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
                "terms": _terms(r.terms),
                "teams": _teams(r.teams),
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
