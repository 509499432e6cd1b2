"""Run rules vectors (``shared/rules-vectors/FORMAT.md``) through the engine.

    python -m games.engine.vectors PATH [PATH ...]

Each PATH is a ``.json`` file or a folder of them. Prints ``FAIL <id>: expected ..., got ...`` for
every failing vector and a closing ``N passed, M failed``; exits 0 only when nothing failed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .board import LINES
from .cards import SETUPS, deck
from .discard_phase import check_discard
from .errors import IllegalMove
from .game import apply
from .moves import PlaceToken, move_from_json
from .rounds import new_game, with_deal
from .scoring import round_scores, standings
from .state import BOARD, GameState
from .teams_phase import check_teams
from .tricks import legal_cards, loot, winning_index

# A vector, and what the engine gives for it: JSON read from files, checked by comparison.
Json = dict[str, Any]


def _setup(v: Json) -> Json:
    players = v["players"]
    state = new_game(players, seed=0)
    return {
        "deck": len(deck(players)),
        "hand": len(state.hands[0]),
        "rounds": SETUPS[players].rounds,
        "unused": len(state.out_of_play),
        "bonus": SETUPS[players].bonus,
    }


def _legal(v: Json) -> Json:
    terms = v["terms"]
    return {"legal": sorted(legal_cards(v["hand"], v["trick"], terms["trump"], terms["super"]))}


def _trick(v: Json) -> Json:
    terms, plays, leader = v["terms"], v["plays"], v["leader"]
    n = len(plays)
    seats = [(leader + k) % n for k in range(n)]
    team_of = [0] * n
    for s in v["teams"][1]:
        team_of[s] = 1
    winner = seats[winning_index(plays, terms["trump"], terms["super"])]
    return {"winner": winner, "loot": sorted(loot(plays, seats, winner, team_of))}


def _dealt(players: int, dealer: int, hands: list[list[str]] | None = None) -> GameState:
    state = new_game(players, seed=0)
    return with_deal(state, dealer, state.hands if hands is None else hands)


def _board(v: Json) -> Json:
    state = _dealt(v["players"], v["dealer"])
    for index, token in enumerate(v["tokens"]):
        try:
            move = move_from_json({"seat": state.turn, "token": token})
            assert isinstance(move, PlaceToken)
            state = apply(state, move)
        except IllegalMove:
            return {"error_at": index}
    if state.phase == BOARD:
        open_lines = {line: list(state.open[line]) for line in LINES if len(state.open[line]) > 1}
        return {"to_move": state.turn, "open": open_lines}
    assert state.terms is not None  # the board is done
    return {"terms": state.terms.to_json()}


def _teams(v: Json) -> Json:
    choice = v["choice"]
    try:
        teams, bonus = check_teams(v["players"], v["first"], choice["team"], choice["bonus"])
    except IllegalMove:
        return {"error": True}
    return {"teams": [list(t) for t in teams], "bonus": bonus}


def _discard(v: Json) -> Json:
    choice = v["choice"]
    cards = [choice] if isinstance(choice, str) else choice
    try:
        check_discard(v["rule"], v["hand"], cards)
    except IllegalMove:
        return {"ok": False}
    return {"ok": True}


def _score(v: Json) -> Json:
    loot_counts = [x if isinstance(x, int) else len(x) for x in v["loot"]]
    return {"scores": round_scores(v["teams"], v["bonus"], v["points"], v["tricks"], loot_counts)}


def _standings(v: Json) -> Json:
    result = standings(v["players"], v["target"], v["rounds"])
    return {"over": result.over, "winners": result.winners, "totals": result.totals}


def _round(v: Json) -> Json:
    state = _dealt(v["players"], v["dealer"], v["hands"])
    for index, data in enumerate(v["moves"]):
        if state.results:  # the round is over: a vector's round has no move after its end
            return {"error_at": index}
        try:
            state = apply(state, move_from_json(data))
        except IllegalMove:
            return {"error_at": index}
    if not state.results:
        return {"unfinished": state.phase}
    last = state.results[-1]
    return {"scores": list(last.scores), "tricks": list(last.tricks), "loot": list(last.loot)}


KINDS: dict[str, Callable[[Json], Json]] = {
    "setup": _setup,
    "legal": _legal,
    "trick": _trick,
    "board": _board,
    "teams": _teams,
    "discard": _discard,
    "score": _score,
    "standings": _standings,
    "round": _round,
}


def _same(kind: str | None, expected: Any, got: Json) -> bool:
    if kind == "trick" and "loot" in expected and "loot" in got:
        return bool(expected["winner"] == got["winner"] and sorted(expected["loot"]) == got["loot"])
    return bool(expected == got)


def check(vector: Json) -> tuple[bool, Json | str]:
    """(passed, what the engine gave) for one vector."""
    kind: Any = vector.get("kind")  # anything a file holds; a str names a kind
    run = KINDS.get(kind)
    if run is None:
        return False, f"unknown kind {kind!r}"
    try:
        got = run(vector)
    except Exception as exc:  # a broken vector or engine bug is a failure, not a crash
        return False, f"{type(exc).__name__}: {exc}"
    return _same(kind, vector.get("expect"), got), got


def vector_files(paths: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    return files


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    passed = failed = 0
    for file in vector_files(argv):
        try:
            vectors = json.loads(file.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            vectors = exc
        if not isinstance(vectors, list) or not all(isinstance(v, dict) for v in vectors):
            failed += 1  # not a file of vectors: say so and go on with the others
            print(f"FAIL {file}: not a JSON list of vectors ({vectors!r:.100})")
            continue
        for vector in vectors:
            ok, got = check(vector)
            if ok:
                passed += 1
            else:
                failed += 1
                vid = vector.get("id", "?")
                got = json.dumps(got) if isinstance(got, dict) else got
                print(f"FAIL {vid}: expected {json.dumps(vector.get('expect'))}, got {got}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
