"""The result of a finished game: who won, each seat's place, and why. The one definition, read by
the status line and the final ranking (games/_result.html), the game-over email, the ratings, the
profile's places (``games.stats.place``, the same rule in SQL), the API and the replay.

The rules rank the seats by final total (equal totals share a place). The site adds one rule: a
seat that ended the game on autopilot (its player resigned, or timed out and never came back) is
ranked after every seat that was played, whatever its total: a loss on time, as on every game
site. The winners are the seats in first place; when a seat that left scored more than them, the
result says so beside their names (``outscored_by``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from django.utils.translation import gettext as _


def ranks(totals: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Each seat's place: 1 + the number of seats ranked above it. A seat that left comes after
    every seat that did not; equal totals share a place (10, 10, 3 -> 1, 1, 3)."""
    keys = [(not gone, total) for gone, total in zip(left, totals, strict=True)]
    return [1 + sum(other > mine for other in keys) for mine in keys]


@dataclass(frozen=True)
class Place:
    seat: int
    name: str
    total: int
    rank: int
    tied: bool
    left: bool  # ended on autopilot: ranked after every seat that was played
    resigned: bool  # left by resigning (else by running out of time)

    @property
    def reason(self) -> str:
        """Why the seat is ranked where its total would not put it ("" when it is not)."""
        if not self.left:
            return ""
        if self.resigned:
            return _("resigned: ranked last")
        return _("left the game: ranked last")


class PlaceJson(TypedDict):
    seat: int
    name: str
    total: int
    rank: int
    tied: bool
    left: bool
    resigned: bool
    reason: str


class ResultJson(TypedDict):
    winners: list[int]
    places: list[PlaceJson]


@dataclass(frozen=True)
class Result:
    places: list[Place]  # first to last; equal places by seat

    @property
    def winners(self) -> list[Place]:
        return [p for p in self.places if p.rank == 1]

    @property
    def outscored_by(self) -> list[Place]:
        """Seats that left with more points than a winner: the reason the winner is first."""
        best = min(p.total for p in self.winners)
        return [p for p in self.places if p.left and p.total > best and p.rank != 1]

    def place_of(self, seat: int) -> Place:
        return next(p for p in self.places if p.seat == seat)

    def as_json(self) -> ResultJson:
        """What the API answers: each place with its reason, and the winners' seats."""
        return {
            "winners": [p.seat for p in self.winners],
            "places": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "total": p.total,
                    "rank": p.rank,
                    "tied": p.tied,
                    "left": p.left,
                    "resigned": p.resigned,
                    "reason": p.reason,
                }
                for p in self.places
            ],
        }


def result(
    totals: Sequence[int],
    names: Sequence[str],
    left: Sequence[bool],
    resigned: Sequence[bool] | None = None,
) -> Result:
    """The result of a game whose seats ended with ``totals``; ``left``: each seat ended on
    autopilot; ``resigned``: its player resigned."""
    quit_ = list(resigned or [False] * len(totals))
    places_ = ranks(totals, left)
    places = [
        Place(
            seat=s,
            name=names[s],
            total=totals[s],
            rank=rank,
            tied=places_.count(rank) > 1,
            left=bool(left[s]),
            resigned=bool(left[s] and quit_[s]),
        )
        for s, rank in enumerate(places_)
    ]
    return Result(sorted(places, key=lambda p: (p.rank, p.seat)))


def of_seats(totals: Sequence[int], seats) -> Result:
    """The result from a finished game's ``Seat`` rows (or anything with ``position``, ``name``,
    ``autopilot`` and ``resigned_at``), in any order."""
    seats = sorted(seats, key=lambda s: s.position)
    return result(
        totals,
        [str(s.name) for s in seats],
        [s.autopilot for s in seats],
        [s.resigned_at is not None for s in seats],
    )
