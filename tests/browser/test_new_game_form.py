"""The new-game form: the seats of the chosen number of players only (static/js/lobby.js), each
by its character and its bots named as the table will name them; every seat without the script,
with a note that only then says the extra ones are ignored; Expert only while a correspondence
time is chosen (static/js/table.js). Both sizes, both languages, no axe violation of any impact.

Screenshots: `new-game-*.png` in tests/browser/screenshots."""

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import User
from games.models import CHARACTERS, Game

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    DESKTOP,
    PHONE,
    SIZES,
    assert_no_sideways_scroll,
    every_violation,
    logged_in_context,
    shoot,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

MEDIUM = {"en": "Medium bot", "fr": "Bot Moyen"}
EASY = {"en": "Easy bot", "fr": "Bot Facile"}
IGNORED = "Seats beyond the number of players are ignored."


def characters(language: str) -> list[str]:
    with translation.override(language):
        return [str(c) for c in CHARACTERS]


def photograph(page, name: str) -> None:
    shoot(page, f"new-game-{name}")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_form_shows_the_seats_of_the_chosen_number_of_players(
    browser, live_server, language, size
):
    user = User.objects.create_user(
        "olga", "olga@example.org", "a long passphrase 42", language=language
    )
    context = logged_in_context(browser, live_server, user, **SIZES[size])
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    names = characters(language)
    form = page.locator("form.new-game")
    seats = form.get_by_role("group", name=form.locator("legend").inner_text())
    players = page.locator("select#players")
    assert players.input_value() == "4"
    for count in (2, 3, 4, 5):
        players.select_option(str(count))
        # The seats of this table only, each a menu named by its character...
        expect(seats.get_by_role("combobox")).to_have_count(count - 1)
        for p in range(1, 5):
            menu = page.locator(f"select#seat_{p}")
            if p < count:
                expect(seats.get_by_role("combobox", name=names[p], exact=True)).to_be_visible()
            else:
                expect(menu).to_be_hidden()
                assert menu.is_disabled(), "a hidden seat is not sent"
        # ...its bots named apart, as the table will name them.
        chosen = [
            page.locator(f"select#seat_{p} option:checked").inner_text() for p in range(1, count)
        ]
        assert chosen == [f"{MEDIUM[language]} ({names[p]})" for p in range(1, count)]
        assert IGNORED not in page.locator("main").inner_text()
        assert_no_sideways_scroll(page)
        assert every_violation(page) == [], f"{count} players"
        if count >= 4:
            photograph(page, f"lobby-{count}-players-{language}-{size}")

    # Made at 3 players with an Easy Tiger: the table has those seats, named as the form said.
    players.select_option("3")
    page.locator("select#seat_2").select_option("easy")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/games/**")
    game = Game.objects.get()
    levels = [s.user.bot_level if s.user else None for s in game.seats.order_by("position")]
    assert (game.players, levels) == (3, ["", "medium", "easy"])
    expect(page.get_by_text(f"{EASY[language]} ({names[2]})").first).to_be_visible()
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_keyboard_reaches_the_seats_of_the_chosen_number_only(browser, live_server, size):
    user = User.objects.create_user("olga", "olga@example.org", "a long passphrase 42")
    context = logged_in_context(browser, live_server, user, **SIZES[size])
    page = context.new_page()
    page.goto("/")
    players = page.locator("select#players")
    for key, count in (("ArrowDown", 5), ("ArrowUp", 4), ("ArrowUp", 3), ("ArrowUp", 2)):
        players.focus()
        page.keyboard.press(key)
        assert players.input_value() == str(count)
        reached = []
        for _ in range(count + 1):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("document.activeElement.id"))
        # The seats shown, then the link to how strong each level is, then the point target.
        assert reached == [f"seat_{p}" for p in range(1, count)] + ["bots-help", "target"], key
    context.close()


def test_without_its_script_the_form_shows_every_seat_and_says_the_extra_ones_are_ignored(
    browser, live_server
):
    user = User.objects.create_user("olga", "olga@example.org", "a long passphrase 42")
    context = logged_in_context(browser, live_server, user, java_script_enabled=False, **DESKTOP)
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_text(IGNORED)).to_be_visible()
    names = characters("en")
    for p in range(1, 5):
        expect(page.get_by_role("combobox", name=names[p], exact=True)).to_be_visible()
    page.locator("select#players").select_option("2")
    page.locator("select#seat_3").select_option("easy")  # beyond 2 players: ignored
    photograph(page, "lobby-without-script-desktop")
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_url("**/games/**")
    game = Game.objects.get()
    assert [s.user.username for s in game.seats.order_by("position")] == ["olga", "bot-medium"]
    expect(page.get_by_text(f"Medium bot ({names[1]})").first).to_be_visible()
    context.close()


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
