"""How strong each bot level is, as the arena measured it: the figures that the site's help for
choosing a bot states, worked out from the arena's records of its games, so that the page and
BENCHMARKS.md say what the games gave and nothing else.

    python -m games.bots.arena --players 4 --games 100 --seed 3 --levels medium,hard \\
        --record benchmarks/arena/hard-medium-4.jsonl        # any matchups and sizes
    python -m games.bots.strength benchmarks/arena/*.jsonl   # writes games/bots/strength.json

For every matchup and table size on record (two levels, the games of each duplicate pair): the
games, the rounds in which the levels face each other (each team all of one level), the stronger
level's points a round less the weaker's over all rounds and in those rounds, and each level's
win rate (the share of its seats that won, ties counting as wins), each with its 95% interval
over the pairs (``arena.Result``). A pair counts only when both its games are on record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from . import LEVELS
from .arena import Result, interval_of
from .record import Game, Record

FIGURES = Path(__file__).with_name("strength.json")
ORDER = ("random", *LEVELS)  # the arena's levels, weakest first


def figures(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The figures of every matchup and table size in these record files, the strongest
    matchup last, smaller tables first. A game on several files counts once. Where a matchup
    was played by more than one version of the code (or with other options), only the games
    of the version last recorded count: the others' bots are not the bots of today."""
    played: dict[str, Game] = {}
    for path in paths:
        played.update(Record(path, "").played())
    pairs: dict[str, list[Game]] = {}
    for key, game in played.items():
        code, players, seed, _levels, options = json.loads(key)
        # The two games of a pair share everything but which seat has which level.
        pair = json.dumps([code, players, seed, sorted(set(game.levels)), options])
        pairs.setdefault(pair, []).append(game)
    # (players, weak, strong) -> (code, options) -> games, in the order recorded
    matchups: dict[tuple[int, str, str], dict[str, list[Game]]] = {}
    for pair, games in pairs.items():
        levels = sorted(set(games[0].levels), key=ORDER.index)
        if len(games) != 2 or len(levels) != 2:
            continue  # a match stopped between a pair's two games, or a level against itself
        code, players, _seed, _levels, options = json.loads(pair)
        versions = matchups.setdefault((players, *levels), {})
        version = json.dumps([code, options])
        versions[version] = versions.pop(version, []) + games  # the last recorded, last
    order = sorted(matchups, key=lambda m: (ORDER.index(m[2]), m[0]))
    results = []
    for players, weak, strong in order:
        version, games = list(matchups[players, weak, strong].items())[-1]
        code = json.loads(version)[0]
        results.append(_figures(Result(players, weak, strong, games)) | {"code": code})
    return results


def _figures(result: Result) -> dict[str, Any]:
    def spread(values: list[float], share: bool = False) -> list[float] | None:
        if not values:
            return None
        mean, half = interval_of(values)
        low, high = mean - half, mean + half
        if share:  # a share's interval stays within 0 and 1 (the normal one may not)
            low, high = max(0.0, low), min(1.0, high)
        return [round(mean, 4), round(low, 4), round(high, 4)]

    strong, weak = result.strong, result.weak
    return {
        "players": result.players,
        "strong": strong,
        "weak": weak,
        "games": len(result.games),
        "rounds": sum(len(g.rounds) for g in result.games),
        "facing_rounds": sum(len(g.facing(strong, weak)) for g in result.games),
        "margin": spread(result.margin()),
        "facing": spread(result.facing()),
        "wins": {
            strong: spread(result.wins(strong), share=True),
            weak: spread(result.wins(weak), share=True),
        },
    }


# The fewest games (duplicate pairs times 2) of a matchup and size that the site states: with
# fewer, the 95% interval (the normal one, 1.96 standard errors) is too narrow to trust.
PUBLISHED_GAMES = 40


@cache
def measured() -> tuple[dict[str, Any], ...]:
    """The figures on record (``strength.json``)."""
    return tuple(json.loads(FIGURES.read_text()))


def published() -> list[dict[str, Any]]:
    """The figures the site states: the site's levels, over ``PUBLISHED_GAMES`` or more."""
    return [
        m
        for m in measured()
        if m["games"] >= PUBLISHED_GAMES and {m["strong"], m["weak"]} <= set(LEVELS)
    ]


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m games.bots.strength RECORD.jsonl [...]", file=sys.stderr)
        return 2
    measured = figures(paths)
    lines = (json.dumps(entry) for entry in measured)
    FIGURES.write_text("[\n" + ",\n".join(lines) + "\n]\n")  # a line a matchup and size
    print(f"wrote {FIGURES}\n\n{table(measured)}")
    return 0


def table(measured: Iterable[dict[str, Any]]) -> str:
    """The figures as BENCHMARKS.md gives them: a line per matchup and size."""

    def spread(values: list[float] | None, scale: float = 1.0, unit: str = "") -> str:
        if values is None:
            return "-"
        mean, low, high = (scale * v for v in values)
        if unit:
            return f"{mean:.1f}{unit} [{low:.1f}{unit}, {high:.1f}{unit}]"
        return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"

    rows = [
        "| players | matchup | games | margin, pts/round [95%] | margin in facing rounds [95%]"
        " (facing rounds) | stronger's win rate [95%] | weaker's win rate [95%] |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in measured:
        strong, weak = m["strong"], m["weak"]
        rows.append(
            f"| {m['players']} | {strong} vs {weak} | {m['games']} | {spread(m['margin'])} |"
            f" {spread(m['facing'])} ({m['facing_rounds']} of {m['rounds']}) |"
            f" {spread(m['wins'][strong], 100, '%')} | {spread(m['wins'][weak], 100, '%')} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    raise SystemExit(main())
