"""The seats around the table as one viewer sees them: where each sits (``place``), its mark
(``initial``) and its panel (``Panel``, ``panels``).

Seats sit around the table relative to the viewer: the viewer at the bottom, the player to
their left (the next to play, RULES.md: seats go clockwise) on the left, and so on round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.engine import View, team_of
from games.models import CHARACTERS

from .words import clock_text

# Where each seat sits, by player count, counted clockwise from the viewer (k = 0, at the
# bottom): the names are compass points of the table as the viewer sees it.
SLOTS = {
    2: ("s", "n"),
    3: ("s", "w", "e"),
    4: ("s", "w", "n", "e"),
    5: ("s", "w", "nw", "ne", "e"),
}


def place(seat: int, viewer: int | None, players: int) -> tuple[int, str]:
    """(k, slot): how far clockwise from the viewer ``seat`` sits, and where on the table.
    A spectator sees the table from seat 0: that seat is at the bottom (k = 0, slot "s"), its
    panel and its trick cards alike."""
    k = (seat - (viewer or 0)) % players
    return k, SLOTS[players][k]


def initial(position: int) -> str:
    """The seat's mark on its tokens and its panel: its character's initial (unique per table)."""
    return str(CHARACTERS[position])[:1].upper()


@dataclass
class Panel:
    """One seat as the table shows it."""

    position: int
    name: str
    character: str
    initial: str
    k: int
    slot: str
    is_me: bool
    is_bot: bool
    profile: str | None  # the username whose profile the name links to
    cards: int = 0
    tricks: int = 0
    loot: int = 0
    total: int = 0
    team: int | None = None  # 1 for the first player's team, 2 for the others
    my_team: bool = False
    bonus: bool = False
    dealer: bool = False
    first: bool = False
    acting: bool = False
    chosen: bool = False  # has made their discard or pass choice
    seconds_left: int | None = None
    deadline: datetime | None = None
    paused: bool = False
    autopilot: bool = False
    resigned: bool = False
    rating: object = None  # accounts.models.Shown, or None before a first rated game
    here: bool | None = None  # has the game's page open (games.presence); None: no mark (a bot)
    hand: list[str] = field(default_factory=list)  # the replay only: every hand is shown
    choice: list[str] = field(default_factory=list)  # the replay only

    @property
    def classes(self) -> str:
        """The panel's classes after ``seat``: where it sits, and what it is now."""
        words = [f"slot-{self.slot}"]
        if self.acting:
            words.append("acting")
        if self.is_me:
            words.append("me")
        if self.team:
            words.append(f"team team-{self.team}")
        if self.my_team:
            words.append("my-team")
        words.append(f"k-{self.k}")
        return " ".join(words)

    @property
    def bottom(self) -> bool:
        """Drawn at the bottom of the table: the viewer's own seat, or for a spectator the seat
        the table is seen from (seat 0). Every other seat sits around the felt."""
        return self.k == 0

    @property
    def backs(self) -> range:
        """One card back drawn per card in the hand."""
        return range(self.cards)

    @property
    def deadline_iso(self) -> str:
        """The deadline for ``<time datetime>``: ISO 8601 to the second, which every browser
        reads."""
        return "" if self.deadline is None else self.deadline.replace(microsecond=0).isoformat()

    @property
    def clock(self) -> str:
        return "" if self.seconds_left is None else clock_text(self.seconds_left)


def _team_numbers(teams: Sequence[Sequence[int]] | None) -> dict[int, int]:
    """Team 1 (the first player's) or 2 for each seat, once the teams are set."""
    if not teams:
        return {}
    return {s: t + 1 for s, t in enumerate(team_of((tuple(teams[0]), tuple(teams[1]))))}


def panels(seen: View, seats: Sequence[Any], viewer: int | None) -> list[Panel]:
    """The seats in clockwise order from the one on the viewer's left; the viewer's own last
    (it sits at the bottom, beside the hand)."""
    n = seen["players"]
    terms = seen["terms"]
    teams = seen["teams"]
    team_number = _team_numbers(teams)
    mine = None if viewer is None else team_number.get(viewer)
    result = []
    for info in seats:
        p = info.position
        k, slot = place(p, viewer, n)
        result.append(
            Panel(
                position=p,
                name=info.name,
                character=info.character,
                initial=initial(p),
                k=k,
                slot=slot,
                is_me=viewer is not None and p == viewer,
                is_bot=info.is_bot,
                profile=info.username,
                cards=seen["hand_sizes"][p],
                tricks=seen["tricks_won"][p],
                loot=seen["loot_won"][p],
                total=seen["totals"][p],
                team=team_number.get(p),
                my_team=mine is not None and team_number.get(p) == mine,
                bonus=seen["bonus"] == p,
                dealer=seen["dealer"] == p and not seen["over"],
                first=terms is not None and terms["first"] == p and not seen["over"],
                acting=p in seen["to_act"],
                chosen=seen["phase"] == "discard" and seen["chosen"][p],
                deadline=info.deadline,
                paused=info.paused,
                autopilot=info.autopilot,
                resigned=info.resigned,
                rating=getattr(info, "rating", None),
            )
        )
    return sorted(result, key=lambda panel: (panel.k == 0, panel.k))
