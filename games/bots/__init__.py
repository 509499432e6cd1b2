"""Bots: players that choose a move from what their seat sees (``view(state, seat)``) and their own
random generator, never from the full state.

    bot = make_bot("medium", seed=42)          # "easy" | "medium" | "hard" | "expert"
    move = bot.choose(view(state, seat))       # a legal move for that seat

Levels: ``Easy`` (simple habits), ``Medium`` (hand-evaluation heuristics; also the stand-in for
a player who times out), ``Hard`` (search over the hidden cards) and ``Expert`` (Hard's search
with up to 5 s a move, for correspondence games; at each table size only the searches of its
own shown not weaker than Hard's, its board tokens and teams at 5 players, Hard's choice for
the rest: ``hard.EXPERT_SEARCHES``). ``RandomBot`` plays any legal move.
``make_bot("hard", seed, clock=time.perf_counter)`` gives Hard its time budget (0.5 s per move
by default, ``seconds=``; Expert's: 5 s); without a clock it searches a fixed number of deals
(``samples=``: Hard 100; Expert 500 where its card search is its own, by default nowhere) and is
reproducible. How strong each level is, measured: ``strength``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .easy import Easy
from .hard import Expert, Hard
from .medium import Medium
from .random_bot import RandomBot

# Each level and the bot that plays it, weakest first. The site names the same levels, with
# their labels, in ``accounts.models.User.BotLevel``: two lists, as the accounts import no game
# code and the bots no Django; tests/games/test_bot_levels.py fails if they disagree.
BOTS: dict[str, Callable[..., Easy | Medium | Hard | Expert]] = {
    "easy": Easy,
    "medium": Medium,
    "hard": Hard,
    "expert": Expert,
}
LEVELS = tuple(BOTS)
STAND_IN = "medium"  # plays for a player who times out


def make_bot(level: str, seed: int | str = 0, **options: Any) -> Easy | Medium | Hard | Expert:
    """A bot of this level; ``options`` (``samples``, ``seconds``, ``clock``) are Hard's and
    Expert's."""
    if level not in BOTS:
        raise ValueError(f"no bot level {level!r}; choose one of {', '.join(LEVELS)}")
    return BOTS[level](seed, **options)


__all__ = [
    "BOTS",
    "LEVELS",
    "STAND_IN",
    "Easy",
    "Expert",
    "Hard",
    "Medium",
    "RandomBot",
    "make_bot",
]
