"""The NYET! board: five lines of boxes, covered one Token at a time (RULES.md, "The board").

Box ids are strings, as in the rules notation: ``["first", "2"]``, ``["points", "-2"]``.
"""

from __future__ import annotations

from typing import NamedTuple

LINES = ("first", "discard", "trump", "super", "points")
BOXES = {
    "first": ("0", "1", "2", "3", "4"),
    "discard": ("none", "1", "2", "except_1", "pass_left"),
    "trump": ("B", "R", "Y", "G"),
    "super": ("B", "R", "Y", "G", "none"),
    "points": ("1", "2", "3", "4", "-2"),
}
# How many cards each seat chooses under each rule of line 2 (``pass_left``: the one it passes).
CARDS_CHOSEN = {"none": 0, "1": 1, "2": 2, "except_1": 1, "pass_left": 1}
PASS_LEFT = "pass_left"


def cards_discarded(rule: str) -> int:
    """How many cards each seat's hand loses for the round under line 2's ``rule``: a passed
    card stays in play, in the next hand."""
    return 0 if rule == PASS_LEFT else CARDS_CHOSEN[rule]


class Token(NamedTuple):
    """A NYET! token on the board: who covered which box."""

    seat: int
    line: str
    box: str


class Terms(NamedTuple):
    """What the board decided for the round: the one open box of each line."""

    first: int
    discard: str
    trump: str
    super: str  # a color, or "none"
    points: int

    def to_json(self) -> dict:
        return self._asdict()

    @classmethod
    def from_json(cls, data: dict) -> Terms:
        return cls(
            int(data["first"]),
            data["discard"],
            data["trump"],
            data["super"],
            int(data["points"]),
        )


def first_open(players: int) -> dict[str, tuple[str, ...]]:
    """Open boxes at the start of a round: the unused characters' boxes are covered all game."""
    open_boxes = dict(BOXES)
    open_boxes["first"] = BOXES["first"][:players]
    return open_boxes


def terms_of(open_boxes: dict[str, tuple[str, ...]]) -> Terms:
    """The terms of a finished board (every line has exactly one open box)."""
    return Terms(
        first=int(open_boxes["first"][0]),
        discard=open_boxes["discard"][0],
        trump=open_boxes["trump"][0],
        super=open_boxes["super"][0],
        points=int(open_boxes["points"][0]),
    )
