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

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.judging import interval  # noqa: E402
from games.bots import Hard, Medium  # noqa: E402
from games.bots.cardplay import choose_card  # noqa: E402
from games.bots.hard import edge, equivalent_cards  # noqa: E402
from games.bots.knowledge import Knowledge  # noqa: E402
from games.bots.playout import Round, play_out  # noqa: E402
from games.engine import TRICKS, PlayCard, apply, new_game, to_act, view  # noqa: E402


def worth(truth: Round, card: str, seat: int) -> float:
    """The round played out from the true deal after ``card``, everyone playing as Medium."""
    r = truth.copy()
    r.play(card)
    return edge(play_out(r), seat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    args = parser.parse_args(argv)
    gains, oracle = [], []
    seconds = 0.0
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
                truth = Round.from_state(state)
                start = time.process_time()
                hard = Hard(game, samples=args.deals).choose(seen).card
                seconds += time.process_time() - start
                base = worth(truth, mine, seat)
                gains.append(worth(truth, hard, seat) - base)
                oracle.append(max(worth(truth, c, seat) for c in cards) - base)
            state = apply(state, PlayCard(seat, mine))
    print(f"{args.players} players, {args.games} rounds, {len(gains)} card decisions:")
    print(
        f"  Hard, {args.deals} deals: gain {interval(gains)} a decision,"
        f" {seconds / len(gains):.3f} s a decision"
    )
    print(f"  oracle (the best card for the true deal): {interval(oracle)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
