"""axe-core (vendored, injected by Playwright) finds no serious or critical violation on the
pages around the table, in English and in French. The game page's every phase and the replay
are audited as they are played, in tests/browser/test_table.py."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_sideways_scroll,
    logged_in_context,
    shoot,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_pages_around_the_table_have_no_serious_violation(browser, live_server, language):
    user = User.objects.create_user(
        username="alice", email="alice@example.com", password="pw", language=language
    )
    finished = create_game(user, players=2, bots=["easy"], target=15)
    play_until(finished, user, lambda state: False)
    waiting = create_game(user, players=3, bots=["easy"])  # a seat open for a person
    pages = {
        "lobby": "/",
        "profile": "/players/alice/",
        "settings": "/settings/",
        "waiting-table": f"/games/{waiting.pk}/",
        "move-log": f"/games/{finished.pk}/log/",
    }
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        context = logged_in_context(browser, live_server, user, **options)
        page = context.new_page()
        for name, url in pages.items():
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("lang", language)
            shoot(page, f"{name}-{language}-{size}")
            if size == "desktop":
                assert_accessible(page, f"{name} ({language})")
            else:
                assert_no_sideways_scroll(page)
                # Nor does a table scroll inside its box: on a phone each row is a card.
                wide_tables = page.evaluate(
                    "[...document.querySelectorAll('.scroll')]"
                    ".filter(box => box.scrollWidth > box.clientWidth).length"
                )
                assert wide_tables == 0, f"{name}: {wide_tables} tables scroll sideways"
        context.close()
