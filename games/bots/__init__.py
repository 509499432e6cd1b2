"""Bots: players that choose a move from what their seat sees (``view(state, seat)``) and their own
random generator, never from the full state.

    bot = make_bot("medium", seed=42)          # "easy" | "medium" | "hard"
    move = bot.choose(view(state, seat))       # a legal move for that seat

Levels: ``Easy`` (simple habits), ``Medium`` (hand-evaluation heuristics; also the stand-in for
a player who times out) and ``Hard`` (search over the hidden cards). ``RandomBot`` plays any legal
move. ``make_bot("hard", seed, clock=time.perf_counter)`` gives Hard its time budget (0.5 s per
move by default, ``seconds=``); without a clock it searches a fixed number of deals
(``samples=``) and is reproducible.
"""

from __future__ import annotations

from .easy import Easy
from .hard import Hard
from .medium import Medium
from .random_bot import RandomBot

LEVELS = ("easy", "medium", "hard")
STAND_IN = "medium"  # plays for a player who times out


def make_bot(level: str, seed: int | str = 0, **options) -> Easy | Medium | Hard:
    """A bot of this level; ``options`` (``samples``, ``seconds``, ``clock``) are Hard's."""
    if level == "easy":
        return Easy(seed)
    if level == "medium":
        return Medium(seed)
    if level == "hard":
        return Hard(seed, **options)
    raise ValueError(f"no bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "STAND_IN", "Easy", "Hard", "Medium", "RandomBot", "make_bot"]
