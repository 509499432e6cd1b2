"""The replay's step links are plain links that htmx boosts (games/replay.html): a click fetches
the step into the page, with no new page load, pushes its address to the history (Back returns
to the step before, as a whole page: the replay keeps no history snapshot, so htmx asks the
server for the page again) and leaves the page scrolled where it was (a boosted link scrolls
to the top unless told not to)."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import PHONE, logged_in_context

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


def test_a_step_link_swaps_the_step_in_pushes_it_and_keeps_the_scroll(browser, live_server):
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=3, bots=["easy", "easy"], target=15)
    play_until(game, alice, lambda state: False)
    context = logged_in_context(browser, live_server, alice, **PHONE)
    page = context.new_page()
    start = f"/games/{game.pk}/replay/"
    page.goto(start)
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-step", "0")
    # The controls at the top of the screen, the page scrolled past the replay's own top.
    page.evaluate(
        """() => {
            window.samePage = true;
            const nav = document.querySelector(".replay-controls");
            window.scrollTo(0, nav.getBoundingClientRect().top + window.scrollY - 4);
        }"""
    )
    scrolled = page.evaluate("window.scrollY")
    replay_top = page.evaluate(
        "document.getElementById('replay').getBoundingClientRect().top + window.scrollY"
    )
    assert scrolled > replay_top, "the page must be scrolled past the replay's top"

    page.locator("#replay-next").click()
    expect(replay).to_have_attribute("data-step", "1")
    assert page.url.endswith(f"{start}?step=1")
    assert page.evaluate("window.samePage === true"), "the step was a new page load"
    assert page.evaluate("window.scrollY") == scrolled
    expect(page.locator("#replay")).to_have_count(1)

    page.go_back()
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    assert page.url.endswith(start)
    # The whole page, as htmx asks for it again on Back (it keeps no snapshot of the replay).
    expect(page.locator("header.site-header")).to_have_count(1)
    expect(page.locator("main #replay")).to_have_count(1)
    context.close()
