"""How much the board search gains on Medium's token, judged on the true hands (issue 19).

    python benchmarks/board_search.py --players 4 --games 10 [--first 0] [--deals 100]
        [--beliefs 0,2]

Medium places every token of ``--games`` seeded rounds (the first round of games seeded 1000 +
``--first`` on). At each token, the bot searches the board as Expert does (``--deals`` deals,
``board.Belief`` at each sharpness of ``--beliefs``: 0 weighs every deal alike) and its token
and Medium's are each judged by finishing the round from the true deal (``board.Deal``: the rest
played as Medium plays it, which is how the arena's Medium and Hard seats place their tokens and
choose their teams). Prints, per sharpness, the mean gain of the search's token over Medium's
(this seat's score less the others' average, per decision) with a 95% interval, and the same
for an oracle that picks the best of the weighed tokens knowing the deal: what the information
hidden in the others' hands is worth to a board decision. CPU seconds per decision too.

An arena measures the levels' strength; this measures one decision with far less noise (the
same true deal for every token), so a change to the board search can be judged in minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import interval  # noqa: E402
from games.bots import Hard, Medium, board  # noqa: E402
from games.bots.hard import edge  # noqa: E402
from games.bots.knowledge import Knowledge  # noqa: E402
from games.bots.medium import token_values  # noqa: E402
from games.engine import BOARD, apply, legal_moves, new_game, view  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--beliefs", default="0,2", help="sharpnesses of board.Belief")
    args = parser.parse_args(argv)
    sharpnesses = [float(b) for b in args.beliefs.split(",")]
    gains: dict[float, list[float]] = {b: [] for b in sharpnesses}
    seconds: dict[float, float] = dict.fromkeys(sharpnesses, 0.0)
    oracle = []
    for game in range(args.first, args.first + args.games):
        state = new_game(args.players, 1000 + game)
        while state.phase == BOARD:
            seat = state.turn
            seen = view(state, seat)
            medium = Medium(game).choose(seen)
            legal = legal_moves(state, seat)
            weighed = [legal[i] for i in board.options(token_values(Knowledge(seen), legal))]
            truth = board.Deal(state)
            worth = {m: edge(truth.finish(m), seat) for m in {*weighed, medium}}
            oracle.append(max(worth.values()) - worth[medium])
            for b in sharpnesses:
                start = time.process_time()
                move = Hard(game, board_samples=args.deals, belief=b).choose(seen)
                seconds[b] += time.process_time() - start
                gains[b].append(worth[move] - worth[medium])
            state = apply(state, medium)
    count = len(oracle)
    print(f"{args.players} players, {args.games} rounds, {count} board decisions:")
    for b in sharpnesses:
        print(
            f"  belief {b:g}, {args.deals} deals: gain {interval(gains[b])} a decision,"
            f" {seconds[b] / count:.2f} s a decision"
        )
    print(f"  oracle (the best weighed token for the true deal): {interval(oracle)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
