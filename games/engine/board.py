"""The NYET! board: five lines of boxes, covered one Token at a time (RULES.md, "The board").

Box ids are strings, as in the rules notation: ``["first", "2"]``, ``["points", "-2"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypedDict

from .cards import COLORS, VALUE
from .errors import IllegalMove, gettext_noop

LINES = ("first", "discard", "trump", "super", "points")
BOXES = {
    "first": ("0", "1", "2", "3", "4"),
    "discard": ("none", "1", "2", "except_1", "pass_left"),
    "trump": ("B", "R", "Y", "G"),
    "super": ("B", "R", "Y", "G", "none"),
    "points": ("1", "2", "3", "4", "-2"),
}


def check_box(line: str, box: str) -> None:
    """Refuses a box the Board does not have, when a move is read and when it is played."""
    if line not in BOXES or box not in BOXES[line]:
        raise IllegalMove(
            "no_such_box",
            gettext_noop("There is no box {box} on line {line}."),
            line=line,
            box=box,
        )


# How many cards each seat chooses under each rule of line 2 (``pass_left``: the one it passes).
CARDS_CHOSEN = {"none": 0, "1": 1, "2": 2, "except_1": 1, "pass_left": 1}
PASS_LEFT = "pass_left"
# The lines whose boxes are the four colors (line 4 also has "none").
COLOR_LINES = tuple(line for line in LINES if set(COLORS) <= set(BOXES[line]))


def cards_discarded(rule: str) -> int:
    """How many cards each seat's hand loses for the round under line 2's ``rule``: a passed
    card stays in play, in the next hand."""
    return 0 if rule == PASS_LEFT else CARDS_CHOSEN[rule]


def discardable(rule: str, cards: Sequence[str]) -> list[str]:
    """The cards of a hand (``cards``, in their order, repeats kept) that a seat may choose
    under line 2's ``rule``: ``except_1`` allows a 1 only to a hand of nothing but 1s."""
    if rule == "except_1":
        return [c for c in cards if VALUE[c] != 1] or list(cards)
    return list(cards)


def hands_after(
    rule: str, hands: Sequence[Sequence[str]], choices: Sequence[Sequence[str]]
) -> list[list[str]]:
    """The hands once every seat's choice under line 2's ``rule`` is made: the chosen cards
    leave them, and under ``pass_left`` each arrives, last, in the hand on the chooser's left
    (unsorted: the bots' playouts keep this order)."""
    n = len(hands)
    after = [list(h) for h in hands]
    for s, chosen in enumerate(choices):
        for c in chosen:
            after[s].remove(c)
    if rule == PASS_LEFT:
        for s, chosen in enumerate(choices):
            after[(s + 1) % n].append(chosen[0])
    return after


class Token(NamedTuple):
    """A NYET! token on the board: who covered which box."""

    seat: int
    line: str
    box: str

    @classmethod
    def from_json(cls, data: Sequence[int | str]) -> Token:
        """The token of its JSON form ``[seat, line, box]`` (a view's, a stored state's)."""
        seat, line, box = data
        return cls(int(seat), str(line), str(box))


class TermsJson(TypedDict):
    first: int
    discard: str
    trump: str
    super: str
    points: int


class Terms(NamedTuple):
    """What the board decided for the round: the one open box of each line."""

    first: int
    discard: str
    trump: str
    super: str  # a color, or "none"
    points: int

    def to_json(self) -> TermsJson:
        return {
            "first": self.first,
            "discard": self.discard,
            "trump": self.trump,
            "super": self.super,
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: TermsJson) -> Terms:
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


def coverable(open_boxes: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """The boxes a token may cover, line by line: every open box of a line that has another
    (a line's last open box can never be covered)."""
    return [(line, box) for line, boxes in open_boxes.items() if len(boxes) > 1 for box in boxes]


def terms_of(open_boxes: dict[str, tuple[str, ...]]) -> Terms:
    """The terms of a finished board (every line has exactly one open box)."""
    return Terms(
        first=int(open_boxes["first"][0]),
        discard=open_boxes["discard"][0],
        trump=open_boxes["trump"][0],
        super=open_boxes["super"][0],
        points=int(open_boxes["points"][0]),
    )
