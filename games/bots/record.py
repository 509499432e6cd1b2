"""The arena's record: the games of a match kept in a file (JSON, a line a game), so that a long
match is played once across several runs, each game under a key that says what decided it: the
code that played it (``code_version``), the table size, the seed, the levels by seat and the
bots' options at that size."""

from __future__ import annotations

import ast
import hashlib
import json
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Each level's keyword arguments of make_bot.
Options = dict[str, dict[str, Any]]


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
class Task:
    """One game to play, sent to a worker process: everything it needs, nothing shared."""

    players: int
    seed: int
    levels: list[str]
    options: Options


_NO_MOVES = {"arena.py", "record.py", "strength.py"}  # the bots' modules that decide no move
# Tables by table size that a game's key names at its own size (``Task.options``), so the
# digest leaves them out: a change at one size keeps the records of the others.
BY_SIZE = {"EXPERT_SEARCHES"}


def code_version() -> str:
    """A digest of the rules' and the bots' code: a game recorded by other code may have gone
    otherwise, so a record is only reused by the code that played it."""
    here = Path(__file__).resolve().parent
    paths = sorted([*here.glob("*.py"), *(here.parent / "engine").glob("*.py")])
    return digest(
        {f"{p.parent.name}/{p.name}": p.read_text() for p in paths if p.name not in _NO_MOVES}
    )


def digest(sources: dict[str, str]) -> str:
    """The code as parsed, less its docstrings (comments are not parsed): a change of words
    keeps the records. Less the tables of ``BY_SIZE`` too, which the keys name."""
    hashed = hashlib.sha256()
    for name, source in sorted(sources.items()):
        tree = ast.parse(source)
        tree.body = [node for node in tree.body if not _by_size(node)]
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (
                isinstance(body, list)
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                body[0] = ast.Pass()
        hashed.update(name.encode())
        hashed.update(ast.dump(tree).encode())
    return hashed.hexdigest()[:16]


def _by_size(node: ast.stmt) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return any(isinstance(t, ast.Name) and t.id in BY_SIZE for t in targets)


@dataclass
class Record:
    """A file of games played (JSON, a line a game), so that a long match is played once
    across several runs: a game whose task is on record is read rather than played again.
    A game is on record for the same task (table size, seed, levels by seat, the bots'
    options) played by the same code (``code_version``)."""

    path: Path
    code: str  # code_version()

    def key(self, task: Task) -> str:
        return json.dumps(
            [self.code, task.players, task.seed, task.levels, task.options],
            sort_keys=True,
            default=sorted,  # Expert's searches, sets
        )

    def played(self) -> dict[str, Game]:
        if not self.path.exists():
            return {}
        games = {}
        for line in self.path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # blank, or cut short by a run killed while writing it
            game = entry["game"]
            game["rounds"] = [
                (tuple(tuple(team) for team in teams), tuple(scores))
                for teams, scores in game["rounds"]
            ]
            games[entry["key"]] = Game(**game)
        return games

    def add(self, task: Task, game: Game) -> None:
        line = json.dumps({"key": self.key(task), "game": asdict(game)}) + "\n"
        with self.path.open("a+b") as file:  # appends, wherever it reads
            end = file.seek(0, 2)
            if end:
                file.seek(end - 1)
                if file.read(1) != b"\n":
                    line = "\n" + line  # after a line cut short, on a line of its own
            file.write(line.encode())
