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

import pytest
from django.urls import reverse

from games import engine
from games.actions import create_game, join_game
from games.engine import DISCARD
from games.models import Game

from .conftest import form_data, seat_of, state_of
from .leaks import check_page, truth_for

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


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
