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
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean

from games.engine import (
    BOXES,
    CARDS_CHOSEN,
    SETUPS,
    ChooseTeams,
    Discard,
    Move,
    PassCard,
    PlaceToken,
    PlayCard,
    Terms,
    Token,
    View,
    cards_discarded,
    discardable,
    move_from_json,
)

from .cardplay import choose_card
from .evaluate import expected_tricks, keep_values
from .knowledge import Knowledge, all_of

FIRST_WORTH = 0.6  # being the first player (choosing the team, leading), in tricks


class Medium:
    """Decides every move with the heuristics above; its generator only breaks ties."""

    def __init__(self, seed: int | str = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, seen: View) -> Move:
        legal = [move_from_json(m) for m in seen["legal"]]
        if len(legal) == 1:
            return legal[0]
        return decide(Knowledge(seen), legal, self.random)


def decide(k: Knowledge, legal: Sequence[Move], rng: random.Random) -> Move:
    """The Medium choice among ``legal`` (the moves of one kind open to ``k.seat``)."""
    first = legal[0]
    if isinstance(first, PlayCard):
        return PlayCard(k.seat, choose_card(k, [m.card for m in all_of(PlayCard, legal)]))
    if isinstance(first, PlaceToken):
        return _best(rng, legal, token_values(k, all_of(PlaceToken, legal)))
    if isinstance(first, ChooseTeams):
        return _best(rng, legal, team_values(k, all_of(ChooseTeams, legal)))
    terms = k.terms
    assert terms is not None  # the board is done
    values = keep_values(k.hand, terms.trump, terms.super, k.players, terms.points)
    if isinstance(first, PassCard):
        return _best(rng, legal, [-values[m.card] for m in all_of(PassCard, legal)])
    return _best(rng, legal, [-sum(values[c] for c in m.cards) for m in all_of(Discard, legal)])


def _best(rng: random.Random, moves: Sequence[Move], values: Sequence[float]) -> Move:
    top = max(values)
    return rng.choice([m for m, v in zip(moves, values, strict=True) if v >= top - 1e-9])


# --- the board --------------------------------------------------------------------------------


def token_values(k: Knowledge, legal: list[PlaceToken]) -> list[float]:
    """How good the board looks for this seat after each token."""
    return board_values(hand_worths(k.hand, k.players), k.seat, k.seen["board"]["open"], legal)


def hand_worths(
    hand: Sequence[str],
    players: int,
    trumps: Sequence[str] = BOXES["trump"],
    supers: Sequence[str] = BOXES["super"],
) -> dict[tuple[str, str], float]:
    """The hand's expected tricks beyond the fair share under each trump and supertrump."""
    fair = SETUPS[players].hand / players
    return {(t, s): expected_tricks(hand, t, s, players) - fair for t in trumps for s in supers}


def board_values(
    worth: Mapping[tuple[str, str], float],
    seat: int,
    open_boxes: Mapping[str, Sequence[str]],
    legal: Sequence[PlaceToken],
) -> list[float]:
    """How good the board looks for ``seat`` (whose hand has these ``worth``s) after each
    token: the hand's worth averaged over the trumps and supertrumps left open, times the
    points left open on average, plus the worth of being the first player. A token changes
    one line, so each is the board's sums less that box's share."""
    trumps, supers = open_boxes["trump"], open_boxes["super"]
    row = {t: sum(worth[t, s] for s in supers) for t in trumps}
    column = {s: sum(worth[t, s] for t in trumps) for s in supers}
    total = sum(row.values())
    points = [int(p) for p in open_boxes["points"]]
    firsts = open_boxes["first"]
    mine = str(seat)
    values = []
    for move in legal:
        line, box = move.line, move.box
        if line == "trump":
            hand = (total - row[box]) / ((len(trumps) - 1) * len(supers))
        elif line == "super":
            hand = (total - column[box]) / (len(trumps) * (len(supers) - 1))
        else:
            hand = total / (len(trumps) * len(supers))
        left = [p for p in points if str(p) != box] if line == "points" else points
        first = 0.0
        if mine in firsts and not (line == "first" and box == mine):
            first = 1 / (len(firsts) - (line == "first"))
        values.append(
            hand * sum(left) / len(left) + FIRST_WORTH * first * sum(map(abs, left)) / len(left)
        )
    return values


# --- discards and passes in a playout --------------------------------------------------------


def guess_choice(terms: Terms, hand: Sequence[str], players: int) -> tuple[str, ...]:
    """A discard or pass as Medium would choose it, for the seats of a playout."""
    keep = keep_values(hand, terms.trump, terms.super, players, terms.points)
    cards = discardable(terms.discard, sorted(hand, key=keep.__getitem__))
    return tuple(cards[: CARDS_CHOSEN[terms.discard]])


# --- the teams --------------------------------------------------------------------------------


def trick_estimates(k: Knowledge) -> list[float]:
    """Tricks each seat should take this round, as this seat guesses them."""
    assert k.terms is not None
    tokens = [Token.from_json(t) for t in k.seen["board"]["tokens"]]
    return estimate_tricks(k.hand, k.seat, k.players, k.terms, tokens)


def estimate_tricks(
    hand: Sequence[str], seat: int, n: int, terms: Terms, tokens: Iterable[Token]
) -> list[float]:
    """Tricks each seat should take, as ``seat`` (holding ``hand``) guesses them from its hand
    and the board's ``tokens`` (``(seat, line, box)``)."""
    tricks = SETUPS[n].hand - cards_discarded(terms.discard)
    mine = min(float(tricks), max(0.0, expected_tricks(hand, terms.trump, terms.super, n)))
    others = [s for s in range(n) if s != seat]
    # A seat that covered -2 likely holds a strong hand; one that covered 3 or 4, a weak one.
    signal = dict.fromkeys(others, 0.0)
    for s, line, box in tokens:
        if s != seat and line == "points":
            signal[s] += 0.5 if box == "-2" else -0.3 if box in ("3", "4") else 0.0
    shift = fmean(signal.values())
    share = (tricks - mine) / len(others)
    estimates = [0.0] * n
    estimates[seat] = mine
    for s in others:
        estimates[s] = max(0.0, share + signal[s] - shift)
    return estimates


def team_values(k: Knowledge, legal: list[ChooseTeams]) -> list[float]:
    """This seat's expected round score against the others' for each choice of teams."""
    assert k.terms is not None
    return teams_values(trick_estimates(k), k.seat, k.terms.points, k.seen["totals"], legal)


def teams_values(
    estimates: Sequence[float],
    me: int,
    points: int,
    totals: Sequence[int],
    legal: Sequence[ChooseTeams],
) -> list[float]:
    """``team_values`` from each seat's estimated tricks and the game's totals so far."""
    total = sum(estimates)
    n = len(estimates)
    values = []
    for move in legal:
        ours = sum(estimates[s] for s in move.team)
        scores = [
            (ours if s in move.team else total - ours) * points * (2 if s == move.bonus else 1)
            for s in range(n)
        ]
        value = scores[me] - fmean(scores[s] for s in range(n) if s != me)
        if move.bonus is not None and move.bonus not in move.team:
            # The bonus goes to the other team: to its trailing player when it helps them.
            sign = 1 if (total - ours) * points > 0 else -1
            value -= 1e-3 * sign * totals[move.bonus]
        values.append(value)
    return values
