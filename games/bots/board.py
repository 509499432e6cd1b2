"""The board search: which box to cover, judged by playing the round out over guessed deals.

In each deal of the hidden cards (``determinize``), every token weighed is placed and the round
is finished as Medium would play it with the deal's hands: the rest of the board by Medium's
``board_values`` for each seat's own hand, the teams by the first player's Medium estimate,
discards and passes by ``keep_values``, then the tricks (``playout``). A token is worth this
seat's round score less the others' average, over the same deals for every token.

The others' tokens depend on their hands in the deal, so a token that makes the board good for
this hand but also tells the others where to steer it is judged by what they would then do.

Uniform deals know nothing of the others' hands but that they are not this one, and the search
over them gains nothing on Medium's heuristic (BENCHMARKS.md, "The board search"). What the
others' tokens say is the information there is: each deal is weighed by how likely their tokens
so far are with its hands (``Belief``), each token chosen with a chance that grows as
``exp(BELIEF * value)`` with Medium's ``board_values`` for that seat's hand in the deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine import (
    TEAMS,
    ChooseTeams,
    GameState,
    PlaceToken,
    Terms,
    Token,
    View,
    apply,
    hands_after,
    legal_moves,
)
from games.engine.board import coverable, first_open

from .knowledge import all_of
from .medium import board_values, estimate_tricks, guess_choice, hand_worths, teams_values
from .playout import play_out
from .playout_round import PlayoutRound

# Each seat's hand_worths: the worth of a hand under each trump and supertrump.
Worth = dict[tuple[str, str], float]
Teams = tuple[tuple[int, ...], tuple[int, ...]]

OPTIONS = 4  # tokens weighed: Medium's best by its board values
BELIEF = 2.0  # how sharply a seat's tokens follow its board values (0: every token alike)


def options(values: Sequence[float], count: int = OPTIONS) -> list[int]:
    """The indexes of the ``count`` best tokens by Medium's values, best first."""
    return sorted(range(len(values)), key=lambda i: -values[i])[:count]


class Belief:
    """The others' tokens so far, replayed on the board as each was placed, to weigh deals."""

    def __init__(self, seen: View, sharpness: float = BELIEF) -> None:
        self.seat = seen["seat"]
        self.players = n = seen["players"]
        self.sharpness = sharpness
        # (seat, the open boxes then, the boxes it could cover, which it did)
        self.tokens: list[tuple[int, dict[str, tuple[str, ...]], list[PlaceToken], int]] = []
        open_boxes = first_open(n)
        for s, line, box in map(Token.from_json, seen["board"]["tokens"]):
            if s != self.seat:
                legal = [PlaceToken(s, ln, b) for ln, b in coverable(open_boxes)]
                self.tokens.append((s, open_boxes, legal, legal.index(PlaceToken(s, line, box))))
            boxes = open_boxes[line]
            open_boxes = {**open_boxes, line: tuple(b for b in boxes if b != box)}

    def log_weight(
        self, hands: Sequence[Sequence[str]], worths: dict[int, Worth] | None = None
    ) -> float:
        """The log of how likely the others' tokens are, had they held ``hands``. Each of
        their ``hand_worths`` (under every trump and supertrump) is left in ``worths``, for
        the ``Deal`` of these hands: it would work them out again, at a third of a token's
        search."""
        total = 0.0
        worths = {} if worths is None else worths
        sharpness = self.sharpness
        for s, open_boxes, legal, chosen in self.tokens:
            worth = worths.get(s)
            if worth is None:
                worth = worths[s] = hand_worths(hands[s], self.players)
            values = board_values(worth, s, open_boxes, legal)
            top = max(values)
            total += sharpness * (values[chosen] - top) - math.log(
                sum(math.exp(sharpness * (v - top)) for v in values)
            )
        return total


class Deal:
    """One guessed deal (a state in the board phase) and what the rounds finished from it
    share: each seat's ``hand_worths`` and its discard or pass under given terms, worked out
    once. ``worths`` may give some seats' in advance (this seat's are the same in every deal;
    the others' as ``Belief.log_weight`` worked them out): a seat's worths under more trumps and
    supertrumps than are open serve alike, as only the open ones are read."""

    def __init__(self, state: GameState, worths: dict[int, Worth] | None = None) -> None:
        self.state = state
        self.worths = dict(worths or {})
        self.choices: dict[tuple[int, Terms], tuple[str, ...]] = {}
        self.totals = [sum(r.scores[s] for r in state.results) for s in range(state.players)]

    def worth(self, seat: int) -> Worth:
        worth = self.worths.get(seat)
        if worth is None:
            state = self.state
            hand = state.hands[seat]
            worth = hand_worths(hand, state.players, state.open["trump"], state.open["super"])
            self.worths[seat] = worth
        return worth

    def choice(self, seat: int, terms: Terms) -> tuple[str, ...]:
        key = (seat, terms)
        choice = self.choices.get(key)
        if choice is None:
            state = self.state
            choice = self.choices[key] = guess_choice(terms, state.hands[seat], state.players)
        return choice

    def finish(self, token: PlaceToken) -> list[int]:
        """The round's scores once ``token`` is placed and everything after is played as Medium
        would play it with this deal's hands."""
        state = apply(self.state, token)
        n = state.players
        while state.phase != TEAMS and state.terms is None:
            seat = state.turn
            tokens = all_of(PlaceToken, legal_moves(state, seat))
            values = board_values(self.worth(seat), seat, state.open, tokens)
            state = apply(state, tokens[values.index(max(values))])
        terms = state.terms
        assert terms is not None  # the board is done
        if state.phase != TEAMS:  # 2 players: each alone, as the engine set them
            assert state.teams is not None
            return self.play(terms, state.teams, state.bonus)
        first = terms.first
        estimates = estimate_tricks(state.hands[first], first, n, terms, state.tokens)
        teams = all_of(ChooseTeams, legal_moves(state, first))
        values = teams_values(estimates, first, terms.points, self.totals, teams)
        return self.finish_teams(teams[values.index(max(values))], terms)

    def finish_teams(self, choice: ChooseTeams, terms: Terms | None = None) -> list[int]:
        """The round's scores with these teams (the deal's board is done), everything after
        played as Medium would play it with this deal's hands."""
        n = self.state.players
        teams = (choice.team, tuple(s for s in range(n) if s not in choice.team))
        terms = terms or self.state.terms
        assert terms is not None
        return self.play(terms, teams, choice.bonus)

    def play(self, terms: Terms, teams: Teams, bonus: int | None) -> list[int]:
        """The discards or passes and the tricks, as Medium would choose and play them."""
        state = self.state
        choices = [self.choice(s, terms) for s in range(state.players)]
        hands = hands_after(terms.discard, state.hands, choices)
        return play_out(PlayoutRound.start(hands, terms, teams, bonus, terms.first))
