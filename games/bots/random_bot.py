"""The random legal bot: any legal move, chosen by its own seeded generator."""

from __future__ import annotations

import random

from games.engine import Move, View, move_from_json


class RandomBot:
    """Plays a uniformly random legal move from the seat's view."""

    def __init__(self, seed: int | str = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, seen: View) -> Move:
        """A move for the seat whose ``view`` this is; that seat must be among ``to_act``."""
        return move_from_json(self.random.choice(seen["legal"]))
