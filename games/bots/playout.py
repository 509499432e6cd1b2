"""The playouts of the Hard bot's search: a ``PlayoutRound`` (``playout_round``) played to its end.

The playout policy ``medium_card`` plays as the Medium bot does (``cardplay``), counting the
cards not yet played and the voids shown, blind to the other hands of the guessed deal as real
players are. (A policy of simpler habits, three times as fast, made the search no better than
Medium; playouts that play like the opponents do made it better.) It is ``cardplay``'s
arithmetic over the compact PlayoutRound (``_values``), the same operations in the same order,
so the
same floating-point values and choices; tests hold it equal to ``cardplay.card_values`` on a
table read from the engine's state, card by card.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.cards import ALL_CARDS

from .playout_round import TRUMP_BIT, PlayoutRound, T, TermsTable, playable


def _values(r: PlayoutRound, cards: list[int]) -> list[float]:
    """``cardplay.card_values`` (with ``chance_holds``) for the seat to play in ``r``.

    The same arithmetic in the same order, on the PlayoutRound's bits: ``count_from`` a card's suit
    and power is the bit count of the cards out among those at least as strong in its suit.
    The chance that a card holds the trick is worked out once for all the cards that would not
    take it: it depends only on the card holding it.
    """
    table = r.table
    suit = table.suit
    spend = table.spend
    one = table.one
    seat = r.turn
    team_of = r.team_of
    ours = team_of[seat]
    trick = r._trick
    later = r.players - len(trick) - 1
    sign = 1 if r.points > 0 else -1
    unseen = r.unplayed & ~r.held[seat]
    later_mates, against = r.later[seat][len(trick)]
    voids = r.voids
    theirs = against[ours]  # the later seats who may take it from us
    their_ones = 1 + r.ones[1 - ours]
    our_ones = 1 + r.ones[ours]
    values = []
    if trick:
        led = suit[trick[0]]
        strength = table.strength[led]
        best = r.win_strength
        # The chance for a card that does not take the trick: the holder's.
        kept: float | None = None
    for c in cards:
        if trick and strength[c] < best:
            if kept is None:
                held = team_of[(r.leader + r.win_at) % r.players]
                kept = _holds(table, unseen, led, trick[r.win_at], against[held], voids, later)
                if held != ours:
                    kept = max(1 - kept, 0.3) if later_mates else 1 - kept
            taken = kept
        elif not later:
            taken = 1.0
        else:
            taken = _holds(table, unseen, led if trick else suit[c], c, theirs, voids, later)
        gain = taken * their_ones - (1 - taken) * (our_ones + one[c])
        values.append(sign * gain - spend[c])
    return values


def _holds(
    table: TermsTable,
    unseen: int,
    led: int,
    card: int,
    seats: tuple[int, ...],
    voids: list[int],
    later: int,
) -> float:
    """``cardplay.chance_holds``: the chance that ``card``, holding the trick led in ``led``,
    keeps it, with ``unseen`` the cards out as the seat to play counts them and ``seats`` the
    later seats of the other team."""
    if not later:
        return 1.0
    count = (unseen & table.above[card]).bit_count()
    if led == T:
        following, ruffing = count, 0
    elif table.suit[card] == T:
        following, ruffing = 0, count
    else:
        following, ruffing = count, (unseen & table.suit_bits[T]).bit_count()
    if not following and not ruffing:
        return 1.0
    led_left = (unseen & table.suit_bits[led]).bit_count()
    chance = 1.0
    led_bit = 1 << led
    for s in seats:
        v = voids[s]
        if following and not v & led_bit:
            chance *= 0.5 if following > 1 else 0.7
        if ruffing and not v & TRUMP_BIT:
            if v & led_bit:
                chance *= 0.3
            elif led_left < 2 * later:
                chance *= 0.7
    return chance


def _medium(r: PlayoutRound) -> int:
    """``medium_card`` in card numbers; as ``cardplay.choose_card``, ties go to the lowest."""
    hand = playable(r)
    return _best(r, hand) if len(hand) > 1 else hand[0]


def _best(r: PlayoutRound, cards: list[int]) -> int:
    """Of two or more playable cards, the first of the lowest power among the best valued."""
    values = _values(r, cards)
    top = max(values) - 1e-9
    power = r.table.power
    pick = -1
    for c, v in zip(cards, values, strict=True):
        if v >= top and (pick < 0 or power[c] < power[pick]):
            pick = c
    return pick


def medium_card(r: PlayoutRound) -> str:
    """The Medium bot's card for the seat to play (``cardplay``), as a playout policy."""
    return ALL_CARDS[_medium(r)]


def play_out(r: PlayoutRound, policy: Callable[[PlayoutRound], str] | None = None) -> list[int]:
    """Play the round to its end with ``policy`` (``medium_card`` by default); its scores."""
    if policy is None or policy is medium_card:
        # ``_medium`` inlined: the search spends most of its time in this loop.
        hands = r._hands
        suit = r.table.suit
        while hand := hands[r.turn]:
            trick = r._trick
            if trick:
                led = suit[trick[0]]
                hand = [c for c in hand if suit[c] == led] or hand
            if len(hand) > 1:
                hand = list(dict.fromkeys(hand))
                r.play_code(_best(r, hand) if len(hand) > 1 else hand[0])
            else:
                r.play_code(hand[0])
    else:
        while not r.over:
            r.play(policy(r))
    return r.scores()
