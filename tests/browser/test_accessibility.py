"""axe-core (vendored, injected by Playwright) finds no serious or critical violation on the
pages around the table, in English and in French; and no violation of any impact (moderate and
minor too) on the game page in play, on the board and at game over, on the replay, the lobby
and a profile, in both languages at both sizes. The game page's every phase and the replay are
also audited as they are played, in tests/browser/test_table.py."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_sideways_scroll,
    every_violation,
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


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_table_its_replay_the_lobby_and_a_profile_have_no_violation_at_all(
    browser, live_server, language
):
    user = User.objects.create_user(
        username="alice", email="alice@example.com", password="pw", language=language
    )
    finished = create_game(user, players=4, bots=["easy"] * 3, target=15)
    play_until(finished, user, lambda state: False)
    board = create_game(user, players=5, bots=["easy"] * 4)
    play_until(board, user, lambda s: s.phase == engine.BOARD and s.turn == 0 and s.results)
    tricks = create_game(user, players=3, bots=["easy"] * 2)
    play_until(tricks, user, lambda s: s.phase == engine.TRICKS and s.turn == 0 and s.results)
    pages = {
        "game-board": f"/games/{board.pk}/",
        "game-tricks": f"/games/{tricks.pk}/",
        "game-over": f"/games/{finished.pk}/",
        "replay": f"/games/{finished.pk}/replay/?step=20",
        "lobby": "/",
        "profile": "/players/alice/",
    }
    found = []
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        context = logged_in_context(browser, live_server, user, **options)
        page = context.new_page()
        for name, url in pages.items():
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("lang", language)
            shoot(page, f"axe-{name}-{language}-{size}")
            found += [f"{name} {size}: {v}" for v in every_violation(page)]
        context.close()
    assert not found, "\n".join(found)
