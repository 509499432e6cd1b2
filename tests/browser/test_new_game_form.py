"""The new-game form offers Expert only while a correspondence time is chosen (static/js/
table.js), and a table made with it has an Expert seat."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import PHONE, logged_in_context, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


def test_expert_is_offered_with_a_correspondence_time_only(browser, live_server):
    user = User.objects.create_user("olga", "olga@example.org", "a long passphrase 42")
    context = logged_in_context(browser, live_server, user, **PHONE)
    page = context.new_page()
    page.goto("/")
    seat = page.locator("select#seat_1")
    expert = seat.locator("option[value=expert]")
    time = page.locator("select#move_seconds")
    assert not time.input_value().startswith("correspondence:")
    expect(expert).to_be_hidden()
    assert expert.is_disabled()

    correspondence = time.locator("option[value^='correspondence:']").first.get_attribute("value")
    time.select_option(correspondence)
    assert not expert.is_disabled()
    seat.select_option("expert")
    shoot(page, "new-game-correspondence-phone")
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"{widths[0]}px wide on a {widths[1]}px phone"

    # Back to a live time: Expert goes, and the seat that had it takes the default level.
    live = time.locator("option:not([value^='correspondence:'])").first.get_attribute("value")
    time.select_option(live)
    assert expert.is_disabled()
    assert seat.input_value() == User.DEFAULT_BOT_LEVEL

    time.select_option(correspondence)
    seat.select_option("expert")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/games/**")
    game = Game.objects.get()
    assert game.time_control == Game.TimeControl.CORRESPONDENCE
    assert "expert" in [s.user.bot_level for s in game.seats.all() if s.user]
    context.close()
