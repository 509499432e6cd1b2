"""Presence in Chromium against the site under uvicorn (issue 32, point 4): at the table each seat
shows whether its player has the game's page open, and the other pages' marks change, pushed,
within seconds of a page opening or closing; the lobby shows who is online now. At a laptop's
size and a phone's.

Screenshots: `presence-*.png` in tests/browser/screenshots (alice's table with bob here, then away;
the lobby)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.actions import create_game, join_game

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import Site, assert_accessible, assert_no_sideways_scroll, people, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,  # the site under uvicorn reads the test's database: PostgreSQL
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

HERE = re.compile(r"\bis-here\b")
# ms. The change can only come pushed: a page with its stream open does not poll, and without
# Redis no stream expires. It comes in well under a second here; the bound is for a loaded CI
# machine (which once took more than 10 s), not a speed goal.
PUSHED = 30_000


@pytest.fixture
def site(browser, tmp_path):
    opened = Site(browser, tmp_path)
    yield opened
    opened.close()


def photograph(page, name: str) -> None:
    shoot(page, f"presence-{name}")


def mark(page, position: int):
    return page.locator(f'#game [data-presence="{position}"]')


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_seat_shows_its_player_here_while_their_page_is_open(on_postgres, site, size):
    alice, bob = people("en", "alice", "bob")
    game = create_game(alice, players=3, bots=[None, "easy"])
    join_game(bob, game.pk)  # seats: alice 0, bob 1, an Easy bot 2
    alices = site.page_of(alice, size)
    site.open(alices, game)
    expect(mark(alices, 0)).to_have_text("● here")  # her own page: open, it is this one
    expect(mark(alices, 1)).to_have_text("○ away")
    expect(mark(alices, 1)).not_to_have_class(HERE)
    expect(mark(alices, 2)).to_have_count(0)  # a bot: no mark, its "bot" mark says enough
    photograph(alices, f"table-away-{size}")

    bobs = site.page_of(bob, size)
    site.open(bobs, game)
    expect(mark(alices, 1)).to_have_text("● here", timeout=PUSHED)
    expect(mark(alices, 1)).to_have_class(HERE)
    expect(mark(bobs, 0)).to_have_text("● here")  # and bob sees alice's page open
    mark(alices, 1).scroll_into_view_if_needed()
    photograph(alices, f"table-here-{size}")
    assert_accessible(alices, "the table with the presence marks")
    assert_no_sideways_scroll(alices)

    bobs.close()
    expect(mark(alices, 1)).to_have_text("○ away", timeout=PUSHED)
    expect(mark(alices, 1)).to_have_attribute(
        "title", "Whether this player has the game's page open"
    )

    # the lobby: bob was on the site a moment ago, and links to his profile
    alices.goto(reverse("lobby"))
    online = alices.locator(".online")
    expect(online.get_by_role("link", name="bob")).to_have_attribute("href", "/players/bob/")
    expect(online).to_contain_text("1 player")
    expect(online).not_to_contain_text("alice")  # the viewer is left out
    online.scroll_into_view_if_needed()
    photograph(alices, f"lobby-online-{size}")
    assert_accessible(alices, "the lobby with who is online")
