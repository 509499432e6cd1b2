"""The bots' strength ladder: levels play each other in mixed seats and the results are compared.

    python -m games.bots.arena --players 3,4,5 --games 400 --seed 1 --jobs 2 \\
        [--levels easy,medium,hard] [--hard-samples 100] [--hard-seconds 0.5] \\
        [--expert-samples 100] [--expert-seconds 5] [--hard-board-samples 0] \\
        [--hard-team-samples 200] [--expert-searches board,teams] [--record FILE]

Each pair of neighbouring levels in ``--levels`` (``random`` is the random legal bot, a rung
below easy) is a matchup (easy-medium, medium-hard) of ``--games`` games at each table size of
``--players``, played as duplicate pairs: two games on the same seed, so with the same deals,
the second with every seat's level swapped. Which seats get which level is drawn anew for every
pair (with 3 or 5 players the levels alternate which one has the extra seat), and the first
dealer changes with the seed, so every level plays from every position. ``--jobs`` plays that
many games at once, each in its own process: a game depends only on its seeds, so the results
are the same with any number of jobs.

For each matchup it prints, per level, the average points per round of its seats and the share
of its seats that won (ties count as wins), each with a 95% confidence interval; then, per
duplicate pair, the stronger level's points per round less the weaker's (the margin) and the
same for wins, with 95% intervals. Then the rounds in which the levels face each other (each
team all of one level) and the margin in them: teammates score alike, so at 4 players every
other round adds nothing to the margin, which is the share of those rounds times the margin in
them. Then the time per move of each level (mean, 95th percentile, max) on this machine. Last,
a table with a line per table size and matchup: the margin over all rounds, the margin in the
facing rounds, and each level's win rate, each with its 95% interval over the duplicate pairs.

Hard searches ``--hard-samples`` deals per move (default: ``hard.SAMPLES``, 100, reproducible);
with ``--hard-seconds`` it stops at that time per move instead (or at the deals given, if
sooner), as on the site with the default 0.5 s. Expert likewise with ``--expert-samples``
(default ``hard.EXPERT_SAMPLES``, 500) and ``--expert-seconds`` (5 s on the site);
``--<level>-board-samples`` and ``--<level>-team-samples`` set the deals of the board and team
searches (0: Medium's heuristic). ``--expert-searches`` says which of its own searches Expert
runs at every size (``cards``, ``board``, ``teams``; by default ``hard.EXPERT_SEARCHES``, per
size), Hard's choice for the rest. Expert is not in the default ladder (it plays correspondence
games, and costs three times Hard's time): ``--levels hard,expert`` measures it.

``--record FILE`` keeps every game played in FILE (JSON, a line a game) and reads back those
already on it instead of playing them: a match stopped (or a session ended) goes on where it
stopped when run again, with more ``--games`` if wanted, and a game is only reused by the code
that played it (``games.bots.record``; Expert's searches at the game's size are in its key, so
a change of ``hard.EXPERT_SEARCHES`` at one size keeps the games of the others).
``python -m games.bots.strength`` turns the records into the figures the site states.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from games.engine import OVER, apply, game_standings, new_game, to_act, view

from . import LEVELS, RandomBot, make_bot
from .hard import EXPERT_SEARCHES, SEARCHES
from .record import Game, Options, Record, Task, code_version

Z95 = 1.96
LADDER = ("easy", "medium", "hard")  # the default --levels: the levels of live tables
SEARCHERS = ("hard", "expert")  # the levels with --<level>-samples and --<level>-seconds


@dataclass
class Timings:
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, level: str, spent: float) -> None:
        self.seconds.setdefault(level, []).append(spent)

    def merge(self, other: Timings) -> None:
        for level, times in other.seconds.items():
            self.seconds.setdefault(level, []).extend(times)

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
    mean, half = interval_of(values)
    if len(values) < 2:
        return f"{mean:6.1%}"
    return f"{mean:6.1%} ± {half:5.1%}  [{mean - half:.1%}, {mean + half:.1%}]"


def interval_of(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (0 for a single value)."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, half


def play_task(task: Task) -> tuple[Game, Timings]:
    timings = Timings()
    return play(task.players, task.seed, task.levels, task.options, timings), timings


def games_of(tasks: list[Task], jobs: int) -> Generator[tuple[Game, Timings]]:
    """The games played, in the order of ``tasks``; on ``jobs`` processes at once. Each game
    is decided by its seed and its bots' seeds alone, so the processes change no move."""
    if jobs <= 1:
        yield from map(play_task, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(play_task, tasks)


def recorded_games(
    tasks: list[Task], jobs: int, record: Record | None
) -> Iterator[tuple[Game, Timings]]:
    """``games_of`` the tasks, the games on ``record`` read from it (with no timings) and the
    others played and added to it as they end."""
    played = record.played() if record else {}
    todo = [task for task in tasks if record is None or record.key(task) not in played]
    with contextlib.closing(games_of(todo, jobs)) as fresh:  # its pool ends with the match
        for task in tasks:
            if record is not None and record.key(task) in played:
                yield played[record.key(task)], Timings()
                continue
            game, spent = next(fresh)
            if record is not None:
                record.add(task, game)
            yield game, spent


@dataclass
class Result:
    """A matchup's games, duplicate pair by pair, and what the report says of them."""

    players: int
    weak: str
    strong: str
    games: list[Game]

    def pairs(self) -> list[tuple[Game, Game]]:
        return list(batched(self.games))

    def margin(self) -> list[float]:
        """Per pair: the strong level's points per round less the weak's, over all rounds."""
        s, w = self.strong, self.weak
        return [
            statistics.fmean(g.mean(s, g.per_round) - g.mean(w, g.per_round) for g in two)
            for two in self.pairs()
        ]

    def facing(self) -> list[float]:
        """Per pair with such rounds: the margin in the rounds in which the levels face each
        other (each team all of one level), the rounds that make the margin at 4 players."""
        rounds = [
            [d for g in two for d in g.facing(self.strong, self.weak)] for two in self.pairs()
        ]
        return [statistics.fmean(f) for f in rounds if f]

    def wins(self, level: str) -> list[float]:
        """Per pair: the share of this level's seats that won (ties count as wins)."""
        return [statistics.fmean(g.mean(level, g.won) for g in two) for two in self.pairs()]

    def report(self, out: TextIO) -> None:
        s, w, pairs = self.strong, self.weak, len(self.games) // 2
        print(f"{s} vs {w}: {self.players} players, {len(self.games)} games", file=out)
        for level in (w, s):
            points = [g.mean(level, g.per_round) for g in self.games]
            print(
                f"  {level:6} points/round {interval(points)}   win rate {rate(self.wins(level))}",
                file=out,
            )
        print(f"  {s} - {w} (per duplicate pair, {pairs} pairs):", file=out)
        print(f"    points/round {interval(self.margin())}", file=out)
        wins = [a - b for a, b in zip(self.wins(s), self.wins(w), strict=True)]
        print(f"    win rate     {interval([100 * x for x in wins])} points of %", file=out)
        count = sum(len(g.facing(s, w)) for g in self.games)
        rounds = sum(len(g.rounds) for g in self.games)
        print(
            f"  rounds in which the levels face each other (each team one level): {count} of"
            f" {rounds} ({count / max(1, rounds):.1%}); {s} - {w} in them, per pair with such"
            " rounds:",
            file=out,
        )
        facing = self.facing()
        print(f"    points/round {interval(facing) if facing else '(none)'}", file=out)
        out.flush()

    def summary(self) -> str:
        """One line of the table the arena ends with: the margin over all rounds, in the facing
        rounds, and each level's win rate, each with its 95% interval."""

        def shown(values: list[float], scale: float = 1.0, unit: str = "") -> str:
            if not values:
                return "-"
            mean, half = interval_of([scale * v for v in values])
            return f"{mean:+.2f}{unit} [{mean - half:+.2f}, {mean + half:+.2f}]"

        def win(level: str) -> str:
            mean, half = interval_of(self.wins(level))
            return f"{mean:.1%} [{mean - half:.1%}, {mean + half:.1%}]"

        return (
            f"| {self.players} | {self.strong} vs {self.weak} | {len(self.games)} |"
            f" {shown(self.margin())} | {shown(self.facing())} |"
            f" {win(self.strong)} | {win(self.weak)} |"
        )


SUMMARY = (
    "| players | matchup | games | margin, pts/round [95%] | margin in facing rounds [95%] |"
    " stronger's win rate [95%] | weaker's win rate [95%] |\n|---|---|---|---|---|---|---|"
)


def at_size(options: Options, players: int, levels: tuple[str, ...]) -> Options:
    """The options as a game of this size plays them: with Expert, its searches there (those
    given, else ``hard.EXPERT_SEARCHES``'s), which the record's key names and its digest does
    not."""
    if "expert" not in levels:
        return options
    expert = options.get("expert", {})
    searches = expert.get("searches", EXPERT_SEARCHES).get(players, SEARCHES)
    return options | {"expert": expert | {"searches": {players: searches}}}


def matchup(
    players: int,
    games: int,
    seed: int,
    weak: str,
    strong: str,
    options: Options,
    timings: Timings,
    out: TextIO,
    jobs: int = 1,
    record: Record | None = None,
) -> Result:
    pairs = max(1, (games + 1) // 2)
    rng = random.Random(f"arena/{seed}/{weak}/{strong}")
    options = at_size(options, players, (weak, strong))
    tasks = [
        Task(players, seed * 1_000_003 + pair, levels, options)
        for pair in range(pairs)
        for levels in seatings(players, pair, rng, weak, strong)
    ]
    result = Result(players, weak, strong, [])
    for game, spent in recorded_games(tasks, jobs, record):
        result.games.append(game)
        timings.merge(spent)
        if len(result.games) % 10 == 0:  # a long run stopped early still says something
            facing = result.facing()
            print(
                f"  ... {len(result.games)} games: {strong} - {weak} points/round "
                f"{interval(result.margin())}; in facing rounds "
                f"{interval(facing) if facing else '(none)'}",
                file=sys.stderr,
                flush=True,
            )
    result.report(out)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="4", help="table sizes, e.g. 3,4,5 (each of 2 to 5)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once, one process each"
    )
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
    parser.add_argument(
        "--expert-searches",
        default=None,
        help="Expert's own searches at every size: some of cards,board,teams, or none"
        " (default: hard.EXPERT_SEARCHES, per size; Hard's choice for the rest)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        help="a file of games: those on it are read, not played again; new ones are added",
    )
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    sizes = [int(p) for p in args.players.split(",") if p.strip().isdigit()]
    if not sizes or len(sizes) != len(args.players.split(",")) or set(sizes) - {2, 3, 4, 5}:
        parser.error("--players takes table sizes from 2 to 5, e.g. 3,4,5")
    if args.jobs < 1:
        parser.error("--jobs takes 1 or more")
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
            if args.record:
                parser.error("--record takes games decided by their seeds: no --*-seconds")
            options[level]["seconds"] = seconds
            options[level]["clock"] = time.perf_counter
    # Where Expert plays Hard's choice, it is the choice of the Hard it is measured against.
    for budget, hards in (("samples", "hard_samples"), ("team_samples", "hard_team_samples")):
        if budget in options["hard"]:
            options["expert"][hards] = options["hard"][budget]
    if args.expert_searches is not None:
        chosen = frozenset(args.expert_searches.split(",")) - {"none", ""}
        if chosen - SEARCHES:
            parser.error(f"--expert-searches takes some of {', '.join(sorted(SEARCHES))}, or none")
        options["expert"]["searches"] = dict.fromkeys((2, 3, 4, 5), chosen)
    record = Record(args.record, code_version()) if args.record else None
    results = []
    for players in sizes:
        timings = Timings()
        start = time.perf_counter()
        for weak, strong in zip(levels, levels[1:]):  # noqa: B905
            results.append(
                matchup(
                    players,
                    args.games,
                    args.seed,
                    weak,
                    strong,
                    options,
                    timings,
                    sys.stdout,
                    args.jobs,
                    record,
                )
            )
        print(
            f"time per move, {players} players ({time.perf_counter() - start:.0f} s wall clock"
            f" in all, {args.jobs} job{'s' if args.jobs > 1 else ''}):"
        )
        print("\n".join(timings.report()), flush=True)
    print(SUMMARY)
    print("\n".join(r.summary() for r in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
