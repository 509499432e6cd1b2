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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import Judged, parser, sharpnesses  # noqa: E402
from games.bots import Hard, Medium, board  # noqa: E402
from games.bots.hard import edge  # noqa: E402
from games.bots.knowledge import Knowledge  # noqa: E402
from games.bots.medium import token_values  # noqa: E402
from games.engine import BOARD, apply, legal_moves, new_game, view  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, choices=(2, 3, 4, 5), players=4, games=10, deals=100, beliefs=True)
    args = options.parse_args(argv)
    beliefs = sharpnesses(args)
    judged = Judged()
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
            judged.judge(
                worth,
                medium,
                seen,
                {
                    f"belief {b:g}, {args.deals} deals": Hard(
                        game, board_samples=args.deals, belief=b
                    )
                    for b in beliefs
                },
            )
            state = apply(state, medium)
    judged.report(f"{args.players} players, {args.games} rounds", "board", "weighed token")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
