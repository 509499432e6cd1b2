"""How many complete random 5-player rounds the engine plays per second, on one core.

    python benchmarks/engine_rounds.py [--rounds 2000] [--repeats 5] [--players 5]

Before every move the legal moves of the seat to act are listed, as a bot would, and one is
picked at random. Prints each repeat and the median; the goal (issue 2) is at least 1,000
rounds per second for 5 players. Results are recorded in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import OVER, apply, legal_moves, new_game, to_act  # noqa: E402


def play_rounds(players: int, rounds: int, seed: int) -> int:
    """Play at least ``rounds`` rounds of random legal moves; return the moves made."""
    pick = random.Random(seed).random
    moves = 0
    played = 0
    game = 0
    while played < rounds:
        state = new_game(players, seed * 1_000_003 + game)
        game += 1
        while state.phase != OVER and played < rounds:
            legal = legal_moves(state, to_act(state)[0])
            before = len(state.results)
            state = apply(state, legal[int(pick() * len(legal))])
            moves += 1
            played += len(state.results) - before
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rates = []
    for repeat in range(args.repeats):
        start = time.perf_counter()
        moves = play_rounds(args.players, args.rounds, seed=repeat)
        seconds = time.perf_counter() - start
        rates.append(args.rounds / seconds)
        print(
            f"repeat {repeat + 1}: {args.rounds} rounds, {moves} moves in {seconds:.2f} s:"
            f" {args.rounds / seconds:.0f} rounds/s, {moves / seconds:.0f} moves/s"
        )
    print(f"median: {statistics.median(rates):.0f} rounds/s ({args.players} players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
