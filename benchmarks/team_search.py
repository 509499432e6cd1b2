"""How much the team search gains on Medium's choice of teams, judged on the true hands.

    python benchmarks/team_search.py --players 3 --games 100 [--first 0] [--deals 200]
        [--beliefs 0,2] [--more-deals 500] [--placers medium,expert,medium]

Medium places every token of ``--games`` seeded rounds (the first round of games seeded 1000 +
``--first`` on); the first player then chooses the teams. With ``--placers`` (a level by seat:
``medium``, or ``expert`` for a seat that searches its tokens as Expert does, at
``hard.EXPERT_BOARD_SAMPLES`` deals) the board is placed as at an arena's mixed table, where the
others' tokens need not be the Medium ones ``board.Belief`` reads them as. The bot searches them
as Hard does (``--deals`` deals, ``board.Belief`` at each sharpness of ``--beliefs``: 0 weighs
every deal alike), and its choice and Medium's are each judged by finishing the round from the
true deal (``board.Deal.finish_teams``: discards, passes and tricks as Medium plays them).
Prints, per sharpness, the mean gain of the search's choice over Medium's (this seat's score
less the others' average, per decision) with a 95% interval; an oracle's, which picks the best
of the weighed choices knowing the deal; and CPU seconds per decision. ``--more-deals`` judges
the search at each further budget too (Expert's is ``hard.EXPERT_TEAM_SAMPLES``).

One decision a round, judged on the same true deal for every choice: a change to the team
search can be judged in minutes, where an arena needs hours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import Judged, parser, sharpnesses  # noqa: E402
from games.bots import Expert, Hard, Medium, board  # noqa: E402
from games.bots.hard import TEAM_OPTIONS, edge  # noqa: E402
from games.bots.knowledge import Knowledge  # noqa: E402
from games.bots.medium import team_values  # noqa: E402
from games.engine import TEAMS, apply, legal_moves, new_game, view  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, choices=(3, 4, 5), players=3, games=100, deals=200, beliefs=True)
    options.add_argument("--more-deals", default="", help="further budgets, e.g. 500")
    options.add_argument("--placers", default="", help="a level by seat: medium or expert")
    args = options.parse_args(argv)
    beliefs = sharpnesses(args)
    budgets = [args.deals, *(int(d) for d in args.more_deals.split(",") if d)]
    placers = args.placers.split(",") if args.placers else ["medium"] * args.players
    if len(placers) != args.players or set(placers) - {"medium", "expert"}:
        options.error("--placers takes medium or expert for each seat")
    judged = Judged()
    for game in range(args.first, args.first + args.games):
        state = new_game(args.players, 1000 + game)
        while state.phase != TEAMS:
            placer = Expert(game) if placers[state.turn] == "expert" else Medium(game)
            state = apply(state, placer.choose(view(state, state.turn)))
        seat = state.turn
        seen = view(state, seat)
        medium = Medium(game).choose(seen)
        legal = legal_moves(state, seat)
        values = team_values(Knowledge(seen), legal)
        weighed = [legal[i] for i in board.options(values, TEAM_OPTIONS)]
        truth = board.Deal(state)
        worth = {m: edge(truth.finish_teams(m), seat) for m in {*weighed, medium}}
        judged.judge(
            worth,
            medium,
            seen,
            {
                f"belief {b:g}, {deals} deals": Hard(game, team_samples=deals, belief=b)
                for b in beliefs
                for deals in budgets
            },
        )
    judged.report(f"{args.players} players", "team", "weighed choice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
