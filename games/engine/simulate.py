"""Play random legal games and report speed and a summary.

    python -m games.engine.simulate --players 5 --games 200 --seed 1 [--target 100]

Every move is chosen uniformly from ``legal_moves`` of the first seat in ``to_act``, with a
generator seeded from ``--seed``, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .board import LINES
from .game import apply, legal_moves, to_act
from .moves import Move
from .rounds import new_game
from .state import OVER, GameState


def random_game(players: int, seed: int, target: int | None = None) -> tuple[GameState, list[Move]]:
    """A whole game of random legal moves: the final state and the move log."""
    state = new_game(players, seed, target)
    rng = random.Random(f"random-game/{seed}")
    pick = rng.random
    log = []
    while state.phase != OVER:
        moves = legal_moves(state, to_act(state)[0])
        move = moves[int(pick() * len(moves))]
        log.append(move)
        state = apply(state, move)
    return state, log


@dataclass
class Summary:
    players: int
    games: int = 0
    rounds: int = 0
    moves: int = 0
    seconds: float = 0.0
    points: int = 0
    ties: int = 0
    terms: dict[str, Counter[str]] = field(
        default_factory=lambda: {line: Counter() for line in LINES}
    )

    def add(self, state: GameState, moves: int) -> None:
        self.games += 1
        self.rounds += len(state.results)
        self.moves += moves
        self.points += sum(sum(r.scores) for r in state.results)
        totals = [sum(r.scores[s] for r in state.results) for s in range(state.players)]
        self.ties += totals.count(max(totals)) > 1
        for r in state.results:
            for line, box in r.terms.to_json().items():
                self.terms[line][str(box)] += 1

    def report(self) -> str:
        lines = [
            f"{self.games} games, {self.rounds} rounds, {self.moves} moves in {self.seconds:.2f} s",
            f"{self.rounds / self.seconds:.0f} rounds/s, {self.moves / self.seconds:.0f} moves/s",
            f"average points per seat per round: {self.points / self.rounds / self.players:.2f}",
            f"games won by a tie: {self.ties}",
        ]
        for line, counts in self.terms.items():
            shares = ", ".join(f"{box} {n / self.rounds:.0%}" for box, n in counts.most_common())
            lines.append(f"{line}: {shares}")
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=None)
    args = parser.parse_args(argv)
    summary = Summary(players=args.players)
    start = time.perf_counter()
    for game in range(args.games):
        state, log = random_game(args.players, args.seed * 1_000_003 + game, args.target)
        summary.add(state, len(log))
    summary.seconds = time.perf_counter() - start
    print(summary.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
