"""How much the board search gains on Medium's token, judged on the true hands (issue 19).

    python benchmarks/board_search.py --players 4 --games 10 [--first 0] [--deals 100]
        [--beliefs 0,2] [--teams hard]

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

With ``--teams hard`` the first player chooses the teams of each judged round as Hard and Expert
do (``Hard.choose_teams``, ``--team-deals`` deals, by default Hard's, seeded by the game), not
as Medium does: the board search still expects Medium's choice, and this measures what that
costs it where the teams are searched.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import Judged, parser, sharpnesses  # noqa: E402
from games.bots import Hard, Medium, board  # noqa: E402
from games.bots.hard import TEAM_SAMPLES, edge  # noqa: E402
from games.bots.knowledge import Knowledge, all_of  # noqa: E402
from games.bots.medium import board_values, hand_worths, token_values  # noqa: E402
from games.engine import (  # noqa: E402
    BOARD,
    TEAMS,
    GameState,
    PlaceToken,
    apply,
    legal_moves,
    new_game,
    view,
)


def searched_teams(state: GameState, token: PlaceToken, seed: int, deals: int) -> list[int]:
    """The round's scores once ``token`` is placed, the rest of the board as Medium places it,
    the teams chosen by Hard's team search, and everything after played as Medium plays it."""
    state = apply(state, token)
    worths = {s: hand_worths(state.hands[s], state.players) for s in range(state.players)}
    while state.phase == BOARD:
        seat = state.turn
        tokens = all_of(PlaceToken, legal_moves(state, seat))
        values = board_values(worths[seat], seat, state.open, tokens)
        state = apply(state, tokens[values.index(max(values))])
    assert state.phase == TEAMS  # 3 to 5 players
    choice = Hard(seed, team_samples=deals).choose(view(state, state.turn))
    return board.Deal(state).finish_teams(choice)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, choices=(2, 3, 4, 5), players=4, games=10, deals=100, beliefs=True)
    options.add_argument("--teams", default="medium", choices=("medium", "hard"))
    options.add_argument("--team-deals", type=int, default=TEAM_SAMPLES, help="with --teams hard")
    args = options.parse_args(argv)
    if args.teams == "hard" and args.players == 2:
        options.error("--teams hard: 2 players choose no teams")
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
            if args.teams == "hard":
                worth = {
                    m: edge(searched_teams(state, m, game, args.team_deals), seat)
                    for m in {*weighed, medium}
                }
            else:
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
