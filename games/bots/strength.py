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
from .arena import Game, Record, Result, interval_of

FIGURES = Path(__file__).with_name("strength.json")
ORDER = ("random", *LEVELS)  # the arena's levels, weakest first


def figures(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The figures of every matchup and table size in these record files, the strongest
    matchup last, smaller tables first."""
    pairs: dict[str, list[Game]] = {}
    for path in paths:
        for key, game in Record(path, "").played().items():
            _code, players, seed, _levels, options = json.loads(key)
            # The two games of a pair share everything but which seat has which level.
            pair = json.dumps([_code, players, seed, sorted(set(game.levels)), options])
            pairs.setdefault(pair, []).append(game)
    matchups: dict[tuple[int, str, str], list[Game]] = {}
    for games in pairs.values():
        if len(games) != 2:
            continue  # a match stopped between a pair's two games
        weak, strong = sorted(set(games[0].levels), key=ORDER.index)
        matchups.setdefault((len(games[0].levels), weak, strong), []).extend(games)
    order = sorted(matchups, key=lambda m: (ORDER.index(m[2]), m[0]))
    return [
        _figures(Result(players, weak, strong, matchups[players, weak, strong]))
        for (players, weak, strong) in order
    ]


def _figures(result: Result) -> dict[str, Any]:
    def spread(values: list[float]) -> list[float] | None:
        if not values:
            return None
        mean, half = interval_of(values)
        return [round(mean, 4), round(mean - half, 4), round(mean + half, 4)]

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
        "wins": {strong: spread(result.wins(strong)), weak: spread(result.wins(weak))},
    }


@cache
def measured() -> tuple[dict[str, Any], ...]:
    """The figures the site states (``strength.json``)."""
    return tuple(json.loads(FIGURES.read_text()))


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m games.bots.strength RECORD.jsonl [...]", file=sys.stderr)
        return 2
    lines = (json.dumps(entry) for entry in figures(paths))
    FIGURES.write_text("[\n" + ",\n".join(lines) + "\n]\n")  # a line a matchup and size
    print(f"wrote {FIGURES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
