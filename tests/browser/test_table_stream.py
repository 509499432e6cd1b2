"""A player's page gets the other players' moves as its own seat's table on the game's event
stream (issue 36), in Chromium against the site under uvicorn: the table changes with no
request for it, shows the player's own hand, and the moves go on from it."""

import pytest
from playwright.sync_api import expect

from games import engine
from games.actions import create_game, join_game, submit_move
from games.models import Game
from tests.games.conftest import seat_of, state_of

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import Site, people

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


@pytest.fixture
def site(browser, tmp_path):
    opened = Site(browser, tmp_path)
    yield opened
    opened.close()


def move_for(game: Game, user) -> None:
    """``user``'s first legal move, made in this process (as a worker's or another web
    process's move would be: the server hears it from the database)."""
    game.refresh_from_db()
    legal = engine.view(state_of(game), seat_of(game, user))["legal"]
    move = dict(legal[0])
    del move["seat"]
    submit_move(user, game.pk, game.version, move)
    game.refresh_from_db()


@pytest.mark.django_db(transaction=True)
def test_the_others_moves_come_as_the_seat_s_table_with_no_fetch(on_postgres, site):
    alice, bob, carol = people("en", "alice", "bob", "carol")
    game = create_game(alice, players=3)
    join_game(bob, game.pk)
    join_game(carol, game.pk)
    game.refresh_from_db()
    everyone = (alice, bob, carol)

    def to_act():
        return next(p for p in everyone if seat_of(game, p) in engine.to_act(state_of(game)))

    # whoever places a token just before bob does, once it is their turn again
    while to_act() != bob:
        move_for(game, to_act())
    move_for(game, bob)
    before_bob = None
    while before_bob is None or to_act() != before_bob:
        mover = to_act()
        move_for(game, mover)
        before_bob = mover if to_act() == bob and before_bob is None else before_bob
    bobs = site.page_of(bob, "desktop")
    asked = []
    bobs.on("request", lambda request: asked.append(request.url))
    site.open(bobs, game)
    asked.clear()

    move_for(game, before_bob)
    table = bobs.locator("#game")
    expect(table).to_have_attribute("data-version", str(game.version))
    assert not [url for url in asked if "/poll/" in url or f"/games/{game.pk}/?" in url], asked
    hand = state_of(game).hands[seat_of(game, bob)]
    expect(bobs.locator("#game .hand-area .card")).to_have_count(len(hand))

    # and bob's move is made from that table
    assert to_act() == bob
    version = game.version
    bobs.locator("#game .board button.box").first.click()
    expect(table).not_to_have_attribute("data-version", str(version))
    game.refresh_from_db()
    assert game.version == version + 1
    assert bobs.evaluate("window.sameDocument === true"), "the page was not reloaded"
