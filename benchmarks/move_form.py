"""The form a game page posts for a move (``games.forms.table.MoveForm``), from the engine's
legal move: what the benchmarks that play through the site's pages send."""

from __future__ import annotations


def form_of(move: dict, version: int, round_number: int) -> dict:
    kind = next(k for k in move if k != "seat")
    data = {"version": version, "kind": kind, "round": round_number}
    if kind == "token":
        data["box"] = ":".join(move[kind])
    elif kind == "teams":
        team = move[kind]["team"]
        data["partner"] = list(team[1:])
        data["bonus"] = "" if move[kind]["bonus"] is None else move[kind]["bonus"]
    elif kind == "discard":
        data["cards"] = move[kind]
    else:
        data["card"] = move[kind]
    return data
