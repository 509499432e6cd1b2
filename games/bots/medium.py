"""The Medium bot: a hand-evaluation heuristic for every decision.

- Board: cover the box whose loss helps this hand most, judged by the hand's expected tricks
  under the trumps and supertrumps still possible, times the points still possible (a strong
  hand covers ``-2``, a weak one covers ``4``), plus the worth of being the first player.
- Teams: estimate every seat's tricks (the others share what this hand will not take, shifted
  by what their tokens on the points line say) and take the team and bonus holder that give
  this seat the best score against the others'.
- Discard or pass: let go of the cards least worth keeping (``evaluate.keep_values``).
- Tricks: ``cardplay``: for each playable card, the chance the team takes the trick
  (counting the cards played and the voids shown) times what the trick is worth with its loot,
  less the worth of spending that card; with negative points the sum is turned around, so the
  bot ducks.
"""

from __future__ import annotations

import random
from statistics import fmean

from games.engine import (
    BOXES,
    ChooseTeams,
    Move,
    PassCard,
    PlaceToken,
    PlayCard,
    cards_discarded,
    move_from_json,
)

from .cardplay import choose_card
from .evaluate import expected_tricks, keep_values
from .knowledge import Knowledge

FIRST_WORTH = 0.6  # being the first player (choosing the team, leading), in tricks


class Medium:
    """Decides every move with the heuristics above; its generator only breaks ties."""

    def __init__(self, seed: int | str = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, seen: dict) -> Move:
        legal = [move_from_json(m) for m in seen["legal"]]
        if len(legal) == 1:
            return legal[0]
        return decide(Knowledge(seen), legal, self.random)


def decide(k: Knowledge, legal: list[Move], rng: random.Random) -> Move:
    """The Medium choice among ``legal`` (the moves of one kind open to ``k.seat``)."""
    first = legal[0]
    if isinstance(first, PlayCard):
        return PlayCard(k.seat, choose_card(k, [m.card for m in legal]))
    if isinstance(first, PlaceToken):
        return _best(rng, legal, token_values(k, legal))
    if isinstance(first, ChooseTeams):
        return _best(rng, legal, team_values(k, legal))
    values = keep_values(k.hand, k.terms.trump, k.terms.super, k.players, k.terms.points)
    if isinstance(first, PassCard):
        return _best(rng, legal, [-values[m.card] for m in legal])
    return _best(rng, legal, [-sum(values[c] for c in m.cards) for m in legal])


def _best(rng: random.Random, moves: list[Move], values: list[float]) -> Move:
    top = max(values)
    return rng.choice([m for m, v in zip(moves, values, strict=True) if v >= top - 1e-9])


# --- the board --------------------------------------------------------------------------------


def token_values(k: Knowledge, legal: list[PlaceToken]) -> list[float]:
    """How good the board looks for this seat after each token."""
    n = k.players
    fair = k.tricks_per_round / n
    worth = {
        (t, s): expected_tricks(k.hand, t, s, n) - fair
        for t in BOXES["trump"]
        for s in BOXES["super"]
    }
    open_boxes = k.seen["board"]["open"]
    mine = str(k.seat)

    def value(boxes: dict[str, list[str]]) -> float:
        hand = fmean(worth[t, s] for t in boxes["trump"] for s in boxes["super"])
        points = [int(p) for p in boxes["points"]]
        first = 1 / len(boxes["first"]) if mine in boxes["first"] else 0.0
        return hand * fmean(points) + FIRST_WORTH * first * fmean(abs(p) for p in points)

    values = []
    for move in legal:
        boxes = dict(open_boxes)
        boxes[move.line] = [b for b in open_boxes[move.line] if b != move.box]
        values.append(value(boxes))
    return values


# --- the teams --------------------------------------------------------------------------------


def trick_estimates(k: Knowledge) -> list[float]:
    """Tricks each seat should take this round, as this seat guesses them."""
    terms = k.terms
    n = k.players
    tricks = k.tricks_per_round - cards_discarded(terms.discard)
    mine = min(float(tricks), max(0.0, expected_tricks(k.hand, terms.trump, terms.super, n)))
    others = [s for s in range(n) if s != k.seat]
    # A seat that covered -2 likely holds a strong hand; one that covered 3 or 4, a weak one.
    signal = dict.fromkeys(others, 0.0)
    for s, line, box in k.seen["board"]["tokens"]:
        if s != k.seat and line == "points":
            signal[s] += 0.5 if box == "-2" else -0.3 if box in ("3", "4") else 0.0
    shift = fmean(signal.values())
    share = (tricks - mine) / len(others)
    estimates = [0.0] * n
    estimates[k.seat] = mine
    for s in others:
        estimates[s] = max(0.0, share + signal[s] - shift)
    return estimates


def team_values(k: Knowledge, legal: list[ChooseTeams]) -> list[float]:
    """This seat's expected round score against the others' for each choice of teams."""
    estimates = trick_estimates(k)
    total = sum(estimates)
    points = k.terms.points
    totals = k.seen["totals"]
    me = k.seat
    values = []
    for move in legal:
        ours = sum(estimates[s] for s in move.team)
        scores = [
            (ours if s in move.team else total - ours) * points * (2 if s == move.bonus else 1)
            for s in range(k.players)
        ]
        value = scores[me] - fmean(scores[s] for s in range(k.players) if s != me)
        if move.bonus is not None and move.bonus not in move.team:
            # The bonus goes to the other team: to its trailing player when it helps them.
            sign = 1 if (total - ours) * points > 0 else -1
            value -= 1e-3 * sign * totals[move.bonus]
        values.append(value)
    return values
