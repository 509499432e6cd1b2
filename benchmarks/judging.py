"""What the decision benchmarks share (``card_search``, ``board_search``, ``team_search``): each
judges one kind of decision on the true hands, against Medium's choice and an oracle's, and
prints the mean gain a decision."""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from games.bots import Hard
from games.engine import Move

Z95 = 1.96


def interval(values: list[float]) -> str:
    """The mean with the half-width of its 95% interval."""
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5
    return f"{statistics.fmean(values):+.3f} ± {half:.3f}"


def parser(
    doc: str, choices: tuple[int, ...], players: int, games: int, deals: int, beliefs: bool
) -> argparse.ArgumentParser:
    """The options every decision benchmark takes; ``--beliefs`` where the search weighs deals."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--players", type=int, default=players, choices=choices)
    p.add_argument("--games", type=int, default=games)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--deals", type=int, default=deals)
    if beliefs:
        p.add_argument("--beliefs", default="0,2", help="sharpnesses of board.Belief")
    return p


def sharpnesses(args: argparse.Namespace) -> list[float]:
    return [float(b) for b in args.beliefs.split(",")]


class Judged:
    """Decisions judged on the true hands: each search's gain over Medium's choice and its CPU
    seconds, and the gain of an oracle that picks the best choice knowing the deal."""

    def __init__(self) -> None:
        self.gains: dict[str, list[float]] = defaultdict(list)
        self.seconds: dict[str, float] = defaultdict(float)
        self.oracle: list[float] = []

    def judge(
        self,
        worth: dict[Move, float],
        medium: Move,
        seen: dict,
        searches: dict[str, Hard],
    ) -> None:
        """``worth`` holds every move the oracle and the searches may choose from ``seen``."""
        self.oracle.append(max(worth.values()) - worth[medium])
        for label, bot in searches.items():
            start = time.process_time()
            choice = bot.choose(seen)
            self.seconds[label] += time.process_time() - start
            self.gains[label].append(worth[choice] - worth[medium])

    def report(self, heading: str, kind: str, best: str) -> None:
        """``kind`` names the decisions (card, board, team), ``best`` the oracle's choice."""
        count = len(self.oracle)
        print(f"{heading}, {count} {kind} decisions:")
        for label, gains in self.gains.items():
            print(
                f"  {label}: gain {interval(gains)} a decision,"
                f" {self.seconds[label] / count:.3f} s a decision"
            )
        print(f"  oracle (the best {best} for the true deal): {interval(self.oracle)}")
