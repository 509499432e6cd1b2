"""The bots' strength ladder: levels play each other in mixed seats and the results are compared.

    python -m games.bots.arena --players 4 --games 400 --seed 1 \\
        [--levels easy,medium,hard] [--hard-samples 100] [--hard-seconds 0.5] \\
        [--expert-samples 100] [--expert-seconds 5] [--hard-board-samples 0]
        [--hard-team-samples 200]

Each pair of neighbouring levels in ``--levels`` (``random`` is the random legal bot, a rung
below easy) is a matchup (easy-medium, medium-hard) of
``--games`` games, played as duplicate pairs: two games on the same seed, so with the same
deals, the second with every seat's level swapped. Which seats get which level is drawn anew
for every pair (with 3 or 5 players the levels alternate which one has the extra seat), and the
first dealer changes with the seed, so every level plays from every position.

For each matchup it prints, per level, the average points per round of its seats and the share
of its seats that won (ties count as wins), each with a 95% confidence interval over the games;
then the paired difference between the levels (per duplicate pair: the stronger level's points
per round less the weaker's, and the same for wins) with its 95% confidence interval. Then the
rounds in which the levels face each other (each team all of one level) and the margin in them:
teammates score alike, so at 4 players every other round adds nothing to the margin, which is
the share of those rounds times the margin in them. Last, the time per move of each level
(mean, 95th percentile, max) on this machine.

Hard searches ``--hard-samples`` deals per move (default: ``hard.SAMPLES``, 100, reproducible);
with ``--hard-seconds`` it stops at that time per move instead (or at the deals given, if
sooner), as on the site with the default 0.5 s. Expert likewise with ``--expert-samples``
(default ``hard.EXPERT_SAMPLES``, 500) and ``--expert-seconds`` (5 s on the site);
``--<level>-board-samples`` and ``--<level>-team-samples`` set the deals of the board and team
searches (0: Medium's heuristic). Expert is
not in the default ladder (it plays correspondence games, and costs five times Hard's time):
``--levels hard,expert`` measures it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from games.engine import OVER, apply, game_standings, new_game, to_act, view

from . import LEVELS, RandomBot, make_bot

# Each level's keyword arguments of make_bot.
Options = dict[str, dict[str, Any]]

Z95 = 1.96
LADDER = ("easy", "medium", "hard")  # the default --levels: the levels of live tables
SEARCHERS = ("hard", "expert")  # the levels with --<level>-samples and --<level>-seconds


@dataclass
class Game:
    """One game's result: points per round and whether each seat won, with the seats' levels;
    and each round's teams and scores."""

    levels: list[str]
    per_round: list[float]
    won: list[bool]
    rounds: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = field(default_factory=list)

    def mean(self, level: str, values: Sequence[float]) -> float:
        return statistics.fmean(v for v, lv in zip(values, self.levels, strict=True) if lv == level)

    def facing(self, strong: str, weak: str) -> list[float]:
        """The strong level's points less the weak's in each round in which the levels face
        each other: each team all of one level. In any other round of 4 players (no bonus) a
        team holds both levels and its members score alike, so the round adds nothing to the
        margin; the game's margin is the mean over all its rounds of this difference."""
        return [
            self.mean(strong, scores) - self.mean(weak, scores)
            for teams, scores in self.rounds
            if all(len({self.levels[s] for s in team}) == 1 for team in teams)
        ]


@dataclass
class Timings:
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, level: str, spent: float) -> None:
        self.seconds.setdefault(level, []).append(spent)

    def report(self) -> list[str]:
        lines = []
        for level, times in self.seconds.items():
            ordered = sorted(times)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            lines.append(
                f"  {level:6} {len(times):7} moves: mean {statistics.fmean(times) * 1000:7.1f} ms,"
                f" p95 {p95 * 1000:7.1f} ms, max {ordered[-1] * 1000:7.1f} ms"
            )
        return lines


def play(players: int, seed: int, levels: list[str], options: Options, timings: Timings) -> Game:
    """A whole game with these levels by seat; every decision is timed. ``options``: each
    level's keyword arguments of ``make_bot`` (``{"hard": {"samples": 100}}``)."""
    bots = [
        RandomBot(f"arena/{seed}/{seat}")
        if level == "random"
        else make_bot(level, f"arena/{seed}/{seat}", **options.get(level, {}))
        for seat, level in enumerate(levels)
    ]
    state = new_game(players, seed)
    clock = time.perf_counter
    while state.phase != OVER:
        seat = to_act(state)[0]
        seen = view(state, seat)
        start = clock()
        move = bots[seat].choose(seen)
        timings.add(levels[seat], clock() - start)
        state = apply(state, move)
    rounds = len(state.results)
    standings = game_standings(state)
    return Game(
        levels=levels,
        per_round=[total / rounds for total in standings.totals],
        won=[s in standings.winners for s in range(players)],
        rounds=[(r.teams, r.scores) for r in state.results],
    )


def seatings(
    players: int, pair: int, rng: random.Random, a: str, b: str
) -> tuple[list[str], list[str]]:
    """The two games' levels by seat: a random split, then the same with the levels swapped."""
    count = players // 2 + (players % 2 if pair % 2 else 0)
    mine = set(rng.sample(range(players), count))
    first = [a if s in mine else b for s in range(players)]
    return first, [b if level == a else a for level in first]


def batched(games: list[Game]) -> Iterator[tuple[Game, Game]]:
    return zip(games[::2], games[1::2], strict=True)


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+7.2f} (one value: no interval)"
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:+7.2f} ± {half:5.2f}  [{mean - half:+.2f}, {mean + half:+.2f}]"


def rate(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:6.1%}"
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:6.1%} ± {half:5.1%}"


def matchup(
    players: int,
    games: int,
    seed: int,
    weak: str,
    strong: str,
    options: Options,
    timings: Timings,
    out: TextIO,
) -> None:
    pairs = max(1, (games + 1) // 2)
    rng = random.Random(f"arena/{seed}/{weak}/{strong}")
    played: list[Game] = []
    points_diff, wins_diff = [], []
    for pair in range(pairs):
        game_seed = seed * 1_000_003 + pair
        two = [
            play(players, game_seed, levels, options, timings)
            for levels in seatings(players, pair, rng, weak, strong)
        ]
        played += two
        points_diff.append(
            statistics.fmean(g.mean(strong, g.per_round) - g.mean(weak, g.per_round) for g in two)
        )
        wins_diff.append(statistics.fmean(g.mean(strong, g.won) - g.mean(weak, g.won) for g in two))
        if (pair + 1) % 10 == 0:
            print(
                f"  ... {len(played)} games: {strong} - {weak} points/round "
                f"{interval(points_diff)}",
                file=sys.stderr,
                flush=True,
            )
    print(f"{strong} vs {weak}: {players} players, {len(played)} games", file=out)
    for level in (weak, strong):
        points = [g.mean(level, g.per_round) for g in played]
        wins = [g.mean(level, g.won) for g in played]
        print(f"  {level:6} points/round {interval(points)}   win rate {rate(wins)}", file=out)
    print(f"  {strong} - {weak} (per duplicate pair, {pairs} pairs):", file=out)
    print(f"    points/round {interval(points_diff)}", file=out)
    print(f"    win rate     {interval([100 * w for w in wins_diff])} points of %", file=out)
    facing = [[d for g in (a, b) for d in g.facing(strong, weak)] for a, b in batched(played)]
    count = sum(len(f) for f in facing)
    rounds = sum(len(g.rounds) for g in played)
    if count:
        print(
            f"  rounds in which the levels face each other (each team one level): {count} of"
            f" {rounds} ({count / rounds:.1%}), {strong} - {weak} in them"
            f" {sum(map(sum, facing)) / count:+.2f} points; per pair with such rounds:",
            file=out,
        )
        print(f"    points/round {interval([statistics.fmean(f) for f in facing if f])}", file=out)
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=400, help="games per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--levels", default=",".join(LADDER), help="a ladder, weakest first (random: RandomBot)"
    )
    for level in SEARCHERS:
        parser.add_argument(f"--{level}-samples", type=int, default=None, help="deals per card")
        parser.add_argument(f"--{level}-seconds", type=float, default=None, help="time per move")
        parser.add_argument(
            f"--{level}-board-samples", type=int, default=None, help="deals per token (0: none)"
        )
        parser.add_argument(
            f"--{level}-team-samples", type=int, default=None, help="deals for teams (0: none)"
        )
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    if len(levels) < 2 or any(level not in ("random", *LEVELS) for level in levels):
        parser.error(f"--levels takes two or more of random, {', '.join(LEVELS)}")
    options: Options = {level: {} for level in SEARCHERS}
    for level in SEARCHERS:
        samples = getattr(args, f"{level}_samples")
        seconds = getattr(args, f"{level}_seconds")
        if samples is not None:
            options[level]["samples"] = samples
        for budget in ("board_samples", "team_samples"):
            deals = getattr(args, f"{level}_{budget}")
            if deals is not None:
                options[level][budget] = deals
        if seconds is not None:
            options[level]["seconds"] = seconds
            options[level]["clock"] = time.perf_counter
    timings = Timings()
    start = time.perf_counter()
    for weak, strong in zip(levels, levels[1:]):  # noqa: B905
        matchup(args.players, args.games, args.seed, weak, strong, options, timings, sys.stdout)
    print(f"time per move ({time.perf_counter() - start:.0f} s in all):")
    print("\n".join(timings.report()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
