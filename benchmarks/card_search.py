"""How much Hard's card search gains on Medium's card, judged on the true hands (issue 19).

    python benchmarks/card_search.py --players 4 --games 12 [--first 0] [--deals 100]

Medium plays every move of ``--games`` seeded rounds (the first round of games seeded 2000 +
``--first`` on). At each card that is a real choice (two or more playable cards that do not
play alike), Hard searches as it does in a game (``--deals`` deals), and its card and Medium's
are each judged by playing the round out from the true deal with every seat playing as Medium
does (``playout``). Prints the mean gain of Hard's card over Medium's (this seat's score less
the others' average, per decision) with a 95% interval, and an oracle's, which picks the best
card knowing the deal: what the hidden hands are worth to one card, and how much of it the
search recovers.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import Judged, parser  # noqa: E402
from games.bots import Hard, Medium  # noqa: E402
from games.bots.cardplay import choose_card  # noqa: E402
from games.bots.hard import edge, equivalent_cards  # noqa: E402
from games.bots.knowledge import Knowledge  # noqa: E402
from games.bots.playout import play_out  # noqa: E402
from games.bots.playout_round import PlayoutRound  # noqa: E402
from games.engine import TRICKS, PlayCard, apply, new_game, to_act, view  # noqa: E402


def worth(truth: PlayoutRound, card: str, seat: int) -> float:
    """The round played out from the true deal after ``card``, everyone playing as Medium."""
    r = truth.copy()
    r.play(card)
    return edge(play_out(r), seat)


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, choices=(2, 3, 4, 5), players=4, games=12, deals=100, beliefs=False)
    args = options.parse_args(argv)
    judged = Judged()
    for game in range(args.first, args.first + args.games):
        state = new_game(args.players, 2000 + game)
        medium = Medium(game)
        while state.phase != TRICKS:
            state = apply(state, medium.choose(view(state, to_act(state)[0])))
        while state.phase == TRICKS:
            seat = state.turn
            seen = view(state, seat)
            k = Knowledge(seen)
            cards = [m["play"] for m in seen["legal"]]
            mine = choose_card(k, cards)
            if len(equivalent_cards(k, cards)) > 1:
                truth = PlayoutRound.from_state(state)
                worths = {PlayCard(seat, c): worth(truth, c, seat) for c in cards}
                hard = {f"Hard, {args.deals} deals": Hard(game, samples=args.deals)}
                judged.judge(worths, PlayCard(seat, mine), seen, hard)
            state = apply(state, PlayCard(seat, mine))
    judged.report(f"{args.players} players, {args.games} rounds", "card", "card")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
