"""The Hard bot: a search over the cards it cannot see (determinized playouts).

For a card to play, it draws deals of the hidden cards consistent with everything its seat has
seen (``determinize``), and in each deal plays every playable card followed by a quick playout
of the rest of the round (``playout.quick_card`` for every seat); a card is worth its average
round score for this seat less the others' average. The same deals are used for every card, so
they are compared on equal luck. Ties go to the Medium bot's card. The board, the teams and the
discards are Medium's decisions.

Budget: ``samples`` deals at most; with a ``clock`` (e.g. ``time.perf_counter``, passed in so
that this module reads no clock itself) also at most ``seconds`` per move, checked after each
deal. Without a clock the bot is reproducible: the same view and seed give the same move.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import Move, PlayCard, move_from_json

from .determinize import determinize
from .knowledge import Knowledge
from .medium import choose_card, decide
from .playout import Round, play_out

SECONDS = 0.5
SAMPLES = 30  # deals per move without a clock
MAX_SAMPLES = 10_000  # with a clock, the time is the limit


class Hard:
    def __init__(
        self,
        seed: int | str = 0,
        samples: int | None = None,
        seconds: float = SECONDS,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.random = random.Random(seed)
        self.samples = samples if samples is not None else SAMPLES if clock is None else MAX_SAMPLES
        self.seconds = seconds
        self.clock = clock
        self.deals = 0  # deals searched for the last move (for reports)

    def choose(self, seen: dict) -> Move:
        legal = [move_from_json(m) for m in seen["legal"]]
        self.deals = 0
        if len(legal) == 1:
            return legal[0]
        k = Knowledge(seen)
        if not isinstance(legal[0], PlayCard):
            return decide(k, legal, self.random)
        return PlayCard(k.seat, self.search(seen, k, [m.card for m in legal]))

    def card_values(self, seen: dict, k: Knowledge, cards: list[str]) -> dict[str, float]:
        """Each card's average score difference over the deals searched."""
        clock = self.clock
        deadline = None if clock is None else clock() + self.seconds
        seat = k.seat
        n = k.players
        totals = dict.fromkeys(cards, 0.0)
        deals = 0
        while deals < self.samples:
            base = Round.from_state(determinize(seen, self.random, k))
            for c in cards:
                r = base.copy()
                r.play(c)
                scores = play_out(r)
                mine = scores[seat]
                totals[c] += mine - (sum(scores) - mine) / (n - 1)
            deals += 1
            if deadline is not None and clock() >= deadline:
                break
        self.deals = deals
        return {c: total / deals for c, total in totals.items()}

    def search(self, seen: dict, k: Knowledge, cards: list[str]) -> str:
        values = self.card_values(seen, k, cards)
        top = max(values.values())
        fallback = choose_card(k, cards)
        if values[fallback] >= top - 1e-9:
            return fallback
        return max(cards, key=values.__getitem__)
