"""How many playouts the Hard bot's search plays per second, on one core (issue 19).

    python benchmarks/playouts.py [--states 30] [--passes 3] [--views 20] [--repeats 3]

For 3, 4 and 5 players, ``--states`` seeded games are played at random into their first round's
trick phase, twice: stopped at a random trick and card (mid-round, as a search meets them), and at
the first trick's lead (a whole round, as the discard search plays them, from
``PlayoutRound.start``).
Each state's ``play_out(r.copy())`` is played ``--passes`` times over. Then Hard with its default
20 deals chooses a card for each of ``--views`` seeded mid-round views per player count (those
with a choice). Prints playouts per second and Hard moves per second per player count, in CPU
time of this process at the best of ``--repeats`` runs. Results are in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import Hard  # noqa: E402
from games.bots.playout import play_out  # noqa: E402
from games.bots.playout_round import PlayoutRound  # noqa: E402
from games.engine import (  # noqa: E402
    TRICKS,
    new_game,
    view,
)
from tests.bots.helpers import play_until  # noqa: E402

PLAYERS = (3, 4, 5)


def reached(state, tricks: int, cards: int) -> bool:
    return len(state.tricks) >= tricks and len(state.trick) >= cards


def states(players: int, count: int, mid: bool) -> list:
    """Seeded games in their first round's trick phase: at the first lead, or further in."""
    found = []
    for seed in range(count):
        rng = random.Random(f"playouts/{players}/{seed}")
        state = play_until(new_game(players, seed), rng, lambda s: s.phase == TRICKS)
        if mid:
            tricks = rng.randrange(len(state.hands[0]))
            cards = rng.randrange(players)
            state = play_until(state, rng, lambda s, t=tricks, c=cards: reached(s, t, c))
        found.append(state)
    return found


def rounds(players: int, count: int) -> tuple[list[PlayoutRound], list[PlayoutRound]]:
    """Mid-round playouts (``PlayoutRound.from_state``) and whole rounds
    (``PlayoutRound.start``)."""
    mid = [PlayoutRound.from_state(s) for s in states(players, count, mid=True)]
    whole = [
        PlayoutRound.start(s.hands, s.terms, s.teams, s.bonus, s.leader)
        for s in states(players, count, mid=False)
    ]
    return mid, whole


def best_rate(work, count: int, repeats: int) -> float:
    """``count`` items of ``work()`` per second of this process's CPU time, at the best of
    ``repeats`` runs: on 2 cores shared with other work, the wall clock counts the waits for a
    core and the slower runs the other work's disturbance."""
    clock = time.process_time
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        best = min(best, clock() - start)
    return count / best


def playouts_per_second(rs: list[PlayoutRound], passes: int, repeats: int) -> float:
    def work():
        for _ in range(passes):
            for r in rs:
                play_out(r.copy())

    return best_rate(work, passes * len(rs), repeats)


def hard_moves_per_second(players: int, count: int, repeats: int) -> float:
    views = []
    for state in states(players, count, mid=True):
        seen = view(state, state.turn)
        if len(seen["legal"]) > 1:  # else Hard plays the one card without a search
            views.append(seen)

    def work():
        for seed, seen in enumerate(views):
            Hard(seed).choose(seen)

    return best_rate(work, len(views), repeats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=30, help="states per player count")
    parser.add_argument("--passes", type=int, default=3, help="playouts of each state")
    parser.add_argument("--views", type=int, default=20, help="Hard's views per player count")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best counts")
    args = parser.parse_args(argv)
    print("players  mid-round playouts/s  whole-round playouts/s  Hard moves/s at 20 deals")
    for players in PLAYERS:
        mid, whole = rounds(players, args.states)
        mid_rate = playouts_per_second(mid, args.passes, args.repeats)
        whole_rate = playouts_per_second(whole, args.passes, args.repeats)
        hard_rate = hard_moves_per_second(players, args.views, args.repeats)
        print(f"{players:7}  {mid_rate:20.0f}  {whole_rate:22.0f}  {hard_rate:24.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
