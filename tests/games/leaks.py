"""What a page may show of a game's cards: the truth a test knows (``Truth``), and the check that
a page's cards, zone by zone, are exactly those its viewer may see (``check_page``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

from games import engine
from games.engine import BOARD, DISCARD, OVER, TRICKS
from games.models import Game, MoveRecord

from .conftest import state_of


@dataclass
class Truth:
    """What the test knows: the whole state, the viewer's seat (None for a spectator), the moves
    of the round in play (the whole last round once the game is over) and the cards of the last
    trick of the round before it, as the move log has them."""

    state: engine.GameState
    seat: int | None
    log: list[dict]
    last_round_trick: list[str]

    @property
    def finished(self) -> bool:
        return self.state.phase == OVER


def own_hand(t: Truth):
    return () if t.seat is None else t.state.hands[t.seat]


def chosen(t: Truth):
    """The viewer's own discard or pass, while the others still choose."""
    if t.seat is None or t.state.phase != DISCARD:
        return ()
    return t.state.choices[t.seat] or ()


def received(t: Truth):
    """The card passed from the right, once passes are applied, while the tricks are played."""
    s = t.state
    if t.seat is None or s.phase != TRICKS or s.terms.discard != "pass_left":
        return ()
    return (s.choices[(t.seat - 1) % s.players][0],)


def last_trick(t: Truth):
    """The trick just taken, on the table while the tricks are played (at the end of a round,
    the round's summary shows it)."""
    s = t.state
    return s.tricks[-1].cards if s.tricks and s.phase == TRICKS else ()


def round_summary(t: Truth):
    """The last trick of the round before, in its summary (in the next round's board phase),
    or of the last round, once the game is over."""
    if t.state.results and t.state.phase in (BOARD, OVER):
        return t.last_round_trick
    return ()


def log_cards(t: Truth):
    """Cards the move log names: every play; a discard or a pass only to the seat that made it,
    until the game is over."""
    cards = []
    for move in t.log:
        if "play" in move:
            cards.append(move["play"])
        elif move["seat"] == t.seat or t.finished:
            cards += move.get("discard", [])
            cards += [move["pass"]] if "pass" in move else []
    return cards


# Every zone a page may have, and the cards it must show (exactly, as a multiset) to a viewer.
# To add a zone: mark its element with data-zone="<name>" in the template and add the name here
# with a function of the truth. A zone not on the page is an empty one.
EXPECTED: dict[str, Callable[[Truth], object]] = {
    "hand": own_hand,  # the viewer's hand (as play buttons, discard boxes or plain cards)
    "choice": chosen,  # the viewer's discard or pass, until all have chosen
    "received": received,  # the card passed to the viewer
    "trick": lambda t: t.state.trick,  # the trick being played
    "last-trick": last_trick,
    "round-summary": round_summary,
    "log": log_cards,  # this round's moves
}


class Cards(HTMLParser):
    """The cards of a page, by zone."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, str | None, str | None]] = []  # (tag, zone, card)
        self.zones: dict[str, Counter] = {}
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        zone, card = attrs.get("data-zone"), attrs.get("data-card")
        if zone is not None:
            if zone not in EXPECTED:
                self.problems.append(f"unknown zone {zone!r}: add it to EXPECTED")
            self.zones.setdefault(zone, Counter())
        if card is not None:
            outer = next((c for _t, _z, c in reversed(self.stack) if c is not None), None)
            if outer is not None:
                if outer != card:
                    self.problems.append(f"card {card} inside card {outer}")
            else:
                where = next((z for _t, z, _c in reversed(self.stack) if z is not None), zone)
                if where is None:
                    self.problems.append(f"card {card} outside any zone")
                else:
                    self.zones.setdefault(where, Counter())[card] += 1
        if tag not in self.VOID:
            self.stack.append((tag, zone, card))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def check_page(html: str, truth: Truth | None, what: str) -> None:
    """The page's cards, zone by zone, against the truth (None: a page that shows no game)."""
    parser = Cards()
    parser.feed(html)
    parser.close()
    assert not parser.problems, f"{what}: {parser.problems}"
    for zone, expect in EXPECTED.items():
        shown = sorted(parser.zones.get(zone, Counter()).elements())
        expected = sorted(Counter(expect(truth) if truth else ()).elements())
        assert shown == expected, (
            f"{what}, seat {truth.seat}, {truth.state!r}: zone {zone} shows {shown}, not {expected}"
        )


def truth_for(game: Game, seat: int | None) -> Truth:
    state = state_of(game)
    moves = MoveRecord.objects.filter(game=game).order_by("number")
    log = [r.move for r in moves.filter(round=state.round)]
    plays = [r.move["play"] for r in moves.filter(round=len(state.results)) if "play" in r.move]
    return Truth(state, seat, log, plays[-state.players :] if state.results else [])
