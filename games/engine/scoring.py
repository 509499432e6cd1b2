"""Scoring a Round and the standings of a game (RULES.md, "Scoring a round", "End of the game")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import SETUPS


def round_scores(
    teams: Sequence[Sequence[int]],
    bonus: int | None,
    points: int,
    tricks: Sequence[int],
    loot: Sequence[int],
) -> list[int]:
    """Every member scores (team tricks + team loot) x points; the bonus holder scores double."""
    scores = [0] * len(tricks)
    for team in teams:
        total = sum(tricks[s] + loot[s] for s in team) * points
        for s in team:
            scores[s] = total * 2 if s == bonus else total
    return scores


class Standings(NamedTuple):
    over: bool
    winners: list[int]  # empty while the game goes on; several seats on a tie
    totals: list[int]


def standings(players: int, target: int | None, rounds: Sequence[Sequence[int]]) -> Standings:
    """Totals after the given rounds, and whether the game is over.

    With a point target the game ends after the round in which someone reaches it, and the
    round count no longer applies; otherwise it ends after the table's number of rounds.
    """
    totals = [sum(r[s] for r in rounds) for s in range(players)]
    if target is None:
        over = len(rounds) >= SETUPS[players].rounds
    else:
        over = any(t >= target for t in totals)
    winners = [s for s, t in enumerate(totals) if t == max(totals)] if over else []
    return Standings(over, winners, totals)
