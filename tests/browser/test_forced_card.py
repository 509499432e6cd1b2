""" "Play forced cards for me" at the table (issue 32, part 7): with the option on, the only card
the rules allow is played for the player after a moment that the page announces, through the
same form as a click; Cancel (or Escape) leaves it to them; with the option off nothing is
played.

Every move the page sends is counted (``COUNT``, before the page's own scripts run). Where a
test must know that nothing is sent, the page's clock is Playwright's: the moment passes when
the test says so, not while a slow machine dawdles."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game
from games.models import Game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import SIZES, assert_accessible, logged_in_context, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)

COUNT = """
window.moves = [];
document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    if (config && config.verb === "post") {
        window.moves.push(event.detail.requestConfig.parameters.card || null);
    }
});
"""


def legal_cards(state: engine.GameState) -> set[str]:
    return {m["play"] for m in engine.view(state, 0)["legal"] if "play" in m}


def forced_turn(state: engine.GameState) -> bool:
    return state.phase == engine.TRICKS and state.turn == 0 and len(legal_cards(state)) == 1


def alice_forced(monkeypatch, option: bool) -> tuple[User, Game, str]:
    """Alice with the option ``option``, on her turn at a 3-player table with two Easy bots,
    with one card she may play (the same deal every run)."""
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 3030)
    alice = User.objects.create_user(
        username="alice", email="alice@example.com", password="pw", play_forced_cards=option
    )
    game = create_game(alice, players=3, bots=["easy", "easy"])
    state = play_until(game, alice, forced_turn)
    assert forced_turn(state), "the game ended before alice had a forced card"
    game.refresh_from_db()
    return alice, game, next(iter(legal_cards(state)))


def open_table(browser, live_server, alice, game, size="desktop", clock=False):
    context = logged_in_context(browser, live_server, alice, **SIZES[size])
    context.add_init_script(COUNT)
    page = context.new_page()
    if clock:  # stopped: it moves when the test says
        page.clock.install(time=START)
        page.clock.pause_at(START + timedelta(seconds=1))
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
    return page


def moves_of_alice(game: Game) -> list[str]:
    return [m.move["play"] for m in game.moves.filter(seat=0) if "play" in m.move]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_forced_card_is_played_without_a_click(browser, live_server, monkeypatch, size):
    alice, game, card = alice_forced(monkeypatch, option=True)
    before = moves_of_alice(game)
    page = open_table(browser, live_server, alice, game, size, clock=True)
    button = page.locator(f'#game .hand .card-button[value="{card}"]')
    expect(button).to_have_attribute("data-forced", "")
    note = page.locator("#forced-note")
    page.clock.run_for(1400)  # a moment to cancel: nothing sent yet
    expect(note.locator("[role=status]")).to_contain_text(re.compile(r"Playing the \w+ \d+"))
    assert page.evaluate("window.moves") == []

    page.clock.run_for(200)
    assert page.evaluate("window.moves") == [card]
    page.clock.resume()
    expect(page.locator(f'#game .center [data-card="{card}"]').first).to_be_attached()
    assert page.evaluate("window.moves") == [card]  # once, by the form a click sends
    game.refresh_from_db()
    assert moves_of_alice(game) == [*before, card]


@pytest.mark.parametrize(("size", "how"), [("desktop", "Cancel"), ("phone", "Escape")])
def test_cancel_leaves_the_card_to_the_player(browser, live_server, monkeypatch, size, how):
    alice, game, card = alice_forced(monkeypatch, option=True)
    before = moves_of_alice(game)
    page = open_table(browser, live_server, alice, game, size, clock=True)
    note = page.locator("#forced-note")
    expect(note).to_be_visible()
    page.clock.run_for(200)  # the words are said once the note is on the page
    expect(note).to_contain_text("Playing the")
    shoot(page, f"forced-card-{size}")

    if how == "Cancel":
        note.get_by_role("button", name="Cancel").click()
    else:
        expect(page.locator(f'#game .hand .card-button[value="{card}"]')).to_be_focused()
        page.keyboard.press("Escape")
    page.clock.run_for(5000)  # well past the moment

    expect(note.locator("[role=status]")).to_have_text(re.compile(r"^Cancelled"))
    expect(note.get_by_role("button", name="Cancel")).to_be_hidden()
    expect(page.locator(f'#game .hand .card-button[value="{card}"]')).to_be_focused()
    assert page.evaluate("window.moves") == []
    game.refresh_from_db()
    assert moves_of_alice(game) == before
    shoot(page, f"forced-card-cancelled-{size}")
    page.clock.resume()  # axe waits on timers of its own
    assert_accessible(page, f"the table with a forced card cancelled ({size})")

    # Their own click plays it, once.
    page.locator(f'#game .hand .card-button[value="{card}"]').click()
    page.wait_for_function("card => window.moves.includes(card)", arg=card)
    assert page.evaluate("window.moves") == [card]


def test_with_the_option_off_nothing_is_played(browser, live_server, monkeypatch):
    alice, game, card = alice_forced(monkeypatch, option=False)
    before = moves_of_alice(game)
    page = open_table(browser, live_server, alice, game, clock=True)
    expect(page.locator(f'#game .hand .card-button[value="{card}"]')).not_to_have_attribute(
        "data-forced", ""
    )
    page.clock.run_for(5000)

    expect(page.locator("#forced-note")).to_have_count(0)
    assert page.evaluate("window.moves") == []
    game.refresh_from_db()
    assert moves_of_alice(game) == before


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_option_is_ticked_on_the_settings_page(browser, live_server, size):
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    page = logged_in_context(browser, live_server, alice, **SIZES[size]).new_page()
    page.goto("/settings/")
    option = page.get_by_label("Play forced cards for me")
    expect(option).not_to_be_checked()
    expect(option).to_have_accessible_description(re.compile(r"^When only one card"))
    option.check()
    shoot(page, f"settings-forced-cards-{size}")
    assert_accessible(page, f"the settings page ({size})")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_label("Play forced cards for me")).to_be_checked()
    alice.refresh_from_db()
    assert alice.play_forced_cards
