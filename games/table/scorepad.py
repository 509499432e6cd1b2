"""A finished round on the scorepad: its terms, each team's tricks and loot, and each player's
points with the arithmetic spelled out.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.engine.view import RoundView

from .board import terms_items


def round_summary(result: RoundView, number: int, names: Sequence[str]) -> dict[str, object]:
    """A finished round: its terms, each team's tricks and loot, and each player's points with
    the arithmetic spelled out."""
    points = result["terms"]["points"]
    bonus = result["bonus"]
    teams = []
    for members in result["teams"]:
        tricks = sum(result["tricks"][s] for s in members)
        loot = sum(result["loot"][s] for s in members)
        total = tricks + loot
        rows = []
        for s in members:
            base = total * points
            formula = _("(%(tricks)s tricks + %(loot)s loot) × %(points)s = %(score)s") % {
                "tricks": tricks,
                "loot": loot,
                "points": points,
                "score": base,
            }
            if s == bonus:
                formula += "; " + _("× 2 for the bonus card = %(score)s") % {"score": base * 2}
            rows.append(
                {
                    "seat": s,
                    "name": names[s],
                    "tricks": result["tricks"][s],
                    "loot": result["loot"][s],
                    "score": result["scores"][s],
                    "formula": formula,
                    "bonus": s == bonus,
                }
            )
        teams.append({"members": rows, "tricks": tricks, "loot": loot, "total": total})
    return {
        "number": number,
        "terms": terms_items(result["terms"], names),
        "points": points,
        "teams": teams,
    }
