"""A trick as the table lays it out: who played each card and where that seat sits; in a trick
in play the card winning it so far (the engine's ``trick_winner``), in a finished one the loot.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import View, is_loot, play_order, team_of, trick_winner
from games.engine.view import FinishedTrick

from .seats import place


def trick_plays(
    leader: int,
    cards: Sequence[str],
    seen: View,
    viewer: int | None,
    winner: int | None = None,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[dict[str, object]]:
    """Each card of a trick with the seat that played it and where that seat sits. ``winner``:
    the seat taking a finished trick (each 1 its opponents played there is marked as loot); for
    a trick in play, the card winning it so far is marked."""
    n = seen["players"]
    winning: int | None
    if winner is None and cards and seen["terms"]:
        terms = seen["terms"]
        winning = trick_winner(leader, cards, n, terms["trump"], terms["super"])
    else:
        winning = winner
    teams = teams or seen["teams"]
    team = team_of((tuple(teams[0]), tuple(teams[1]))) if teams else None
    plays = []
    for seat, card in zip(play_order(leader, n), cards, strict=False):
        k, slot = place(seat, viewer, n)
        loot = winner is not None and team is not None and is_loot(card, seat, winner, team)
        plays.append(
            {
                "seat": seat,
                "card": card,
                "k": k,
                "slot": slot,
                "winning": seat == winning,
                "loot": loot,
            }
        )
    return plays


def finished_trick(
    trick: FinishedTrick,
    seen: View,
    viewer: int | None,
    teams: Sequence[Sequence[int]] | None = None,
) -> dict[str, object]:
    """A finished trick (the view's form): its plays, winner and loot."""
    return {
        "winner": trick["winner"],
        "loot": list(trick["loot"]),
        "plays": trick_plays(
            trick["leader"], trick["cards"], seen, viewer, winner=trick["winner"], teams=teams
        ),
    }
