"""No page shows a card its viewer may not see, and every page shows exactly the cards it should.

Whole games of 3, 4 and 5 people are played through the test client. After every move, every
seat's player, a spectator and an anonymous visitor fetch the game (the full page, the HTMX
fragment or the poll's fragment, in turn), and the mover's own answer to its move is read too.
Each page is checked against the true state: the cards of each section, as a multiset.

The convention the pages keep (and any redesign must keep):

- every card a page renders carries ``data-card="<card>"`` (an element inside a card that repeats
  the same ``data-card``, as a button around a card face, is the same card);
- every section that shows cards is an element with ``data-zone="<name>"``;
- a card outside any zone, or a zone not listed in ``EXPECTED`` below, fails the test.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import engine
from games.actions import create_game, join_game
from games.engine import BOARD, DISCARD, OVER, TRICKS
from games.models import Game, MoveRecord

from .conftest import form_data, seat_of, state_of

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


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


# Board choices the test steers, so that each game shows a discard and a pass: the boxes kept
# open in rounds 1 and 2 (the last open box of a line is the round's term). Round 1 scores
# -2 a trick, so nobody reaches the target of 1 before round 2 (which scores 4 a trick).
KEEP = {
    3: [("pass_left", "-2"), ("2", "4")],
    4: [("except_1", "-2"), ("pass_left", "4")],
    5: [("1", "-2"), ("pass_left", "4")],
}


def steered_move(state, seat: int, rng: random.Random) -> dict:
    legal = engine.view(state, seat)["legal"]
    if state.phase == engine.BOARD:
        keep_discard, keep_points = KEEP[state.players][min(state.round, 2) - 1]
        keep = {("discard", keep_discard), ("points", keep_points)}
        legal = [m for m in legal if tuple(m["token"]) not in keep] or legal
    return rng.choice(legal)


def fetch(client, game: Game, kind: int):
    """The game as a viewer gets it: 0 the page, 1 its HTMX fragment, 2 the poll's fragment."""
    if kind == 2:
        return client.get(reverse("game_poll", args=[game.pk]), {"version": -1}, headers=HX)
    return client.get(reverse("game", args=[game.pk]), headers=HX if kind else {})


def check_viewers(viewers, game: Game, checks) -> None:
    """Fetch the game for each (viewer index, kind) in ``checks`` and check its cards."""
    for k, kind in checks:
        client, person = viewers[k]
        seat = seat_of(game, person) if person else None
        response = fetch(client, game, kind)
        assert response.status_code == 200
        check_page(response.content.decode(), truth_for(game, seat), f"viewer {k}, kind {kind}")


def check_api(viewers, game: Game) -> None:
    """The API (/api/v1/games/N, read with each viewer's session) gives exactly the engine's
    view of the viewer's seat (a spectator's for anyone else) and that seat's moves, no more."""
    state = state_of(game)
    checked = 0
    for client, person in viewers:
        seat = seat_of(game, person) if person else None
        body = client.get(f"/api/v1/games/{game.pk}").json()
        if body.get("code") == "login":
            continue  # the anonymous visitor: the API wants a token or a session
        assert body["view"] == json.loads(json.dumps(engine.view(state, seat)))
        assert body["my_seat"] == seat
        checked += 1
    assert checked == len(viewers) - 1  # every player and the logged-in spectator


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_page_shows_each_viewer_exactly_the_cards_it_may_see(
    client_factory, make_person, django_capture_on_commit_callbacks, players
):
    """Every viewer gets every kind of page at each change of phase and at the end; in between,
    two viewers a move in turn (every page of every viewer after every move would take minutes),
    and the mover's answer after every move."""
    people = [make_person(f"p{k}") for k in range(players)]
    game = create_game(people[0], players=players, target=1)
    for person in people[1:]:
        join_game(person, game.pk)
    clients = {}
    for person in people:
        clients[person] = client_factory()
        clients[person].force_login(person)
    spectator = client_factory()
    spectator.force_login(make_person("spectator"))
    viewers = [(clients[p], p) for p in people] + [(spectator, None), (client_factory(), None)]
    everything = [(k, kind) for k in range(len(viewers)) for kind in range(3)]
    rng = random.Random(players)
    seen = set()
    phase = None
    for step in range(3000):
        game.refresh_from_db()
        state = state_of(game)
        if (state.round, state.phase) != phase or game.status == Game.Status.FINISHED:
            phase = (state.round, state.phase)
            check_viewers(viewers, game, everything)
            check_api(viewers, game)
        else:
            turn = (
                everything[(2 * step) % len(everything)],
                everything[(2 * step + 1) % len(everything)],
            )
            check_viewers(viewers, game, turn)
        seen.add((state.phase, state.terms.discard if state.terms else None))
        if game.status == Game.Status.FINISHED:
            break
        seat = rng.choice(engine.to_act(state))
        mover = next(p for p in people if seat_of(game, p) == seat)
        htmx = step % 4 != 0
        version = game.version
        with django_capture_on_commit_callbacks(execute=True):
            answer = clients[mover].post(
                reverse("game_move", args=[game.pk]),
                {"version": version, **form_data(steered_move(state, seat, rng))},
                headers=HX if htmx else {},
            )
        assert answer.status_code == (200 if htmx else 302)
        game.refresh_from_db()
        assert game.version == version + 1  # the move was taken
        if htmx:
            check_page(answer.content.decode(), truth_for(game, seat), f"answer to step {step}")
    else:
        raise AssertionError("the game did not end")
    for client, _person in viewers:  # the site's other pages show no cards at all
        pages = [reverse("lobby"), reverse("leaderboard"), reverse("profile", args=["p0"])]
        for path in pages:
            check_page(client.get(path).content.decode(), None, path)
    assert len(state_of(game).results) >= 2
    assert {(DISCARD, keep[0]) for keep in KEEP[players]} <= seen  # a discard and a pass


@pytest.fixture
def client_factory(client):
    return type(client)
