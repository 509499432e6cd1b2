"""The turn as a player notices it: the countdown runs, times are in the browser's zone for a
player who chose none (and the server learns that zone), the tab title and the favicon say "Your
turn"; and the table works with JavaScript off, through its plain forms."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game, join_game
from tests.steering import play_until, prefer_boxes

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import DESKTOP, logged_in_context, wait_for_update

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


def test_the_turn_counts_down_in_the_browsers_zone_and_shows_in_the_tab(browser, live_server):
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="pw")
    assert alice.time_zone == ""  # none chosen: the browser's
    game = create_game(alice, players=2, move_seconds=120)
    join_game(bob, game.pk)
    game.refresh_from_db()
    if engine.to_act(engine.state_from_json(game.state)) != (0,):
        play_until(game, bob, lambda s: s.turn == 0)
    User.objects.filter(pk=alice.pk).update(sound=True)
    context = logged_in_context(browser, live_server, alice, timezone_id="Asia/Tokyo", **DESKTOP)
    # Count the turn sounds: a stand-in for the browser's audio, which a test cannot hear.
    context.add_init_script(
        """window.beeps = 0;
        window.AudioContext = class {
            constructor() { window.beeps += 1; this.currentTime = 0; this.destination = {}; }
            createOscillator() {
                return {frequency: {setValueAtTime() {}}, connect: n => n, start() {}, stop() {}};
            }
            createGain() {
                return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                        connect: n => n};
            }
        };"""
    )
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")

    expect(page).to_have_title(re.compile(r"^Your turn · Game \d+"))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile("favicon-turn"))
    deadline = game.seats.get(position=0).deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    shown = page.locator("#game-status time")
    expect(shown).to_have_text(re.compile(rf"\b{deadline:%-I}:{deadline:%M}\b"))
    assert datetime.fromisoformat(shown.get_attribute("datetime")) == deadline.replace(
        microsecond=0
    )

    countdown = page.locator("#game-status .countdown")
    first = countdown.inner_text()
    assert re.fullmatch(r"[12]:\d\d", first)
    expect(countdown).not_to_have_text(first)  # it runs, a second at a time

    # Alice moves: bob's turn now, and the tab says "Your turn" no more.
    version = page.locator("#game").get_attribute("data-version")
    page.locator(".board button.box").first.click()
    wait_for_update(page, version)
    expect(page).to_have_title(re.compile(r"^Game \d+"))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"/favicon\.svg"))
    expect(page.locator('.seat[data-seat="1"] .countdown')).to_be_visible()
    expect(page.locator("#game-status")).to_be_focused()  # not lost to the top of the page

    # Bob moves elsewhere; the poll brings alice's turn: title, badge, sound, and the focus on
    # the board, without her doing anything.
    play_until(game, bob, lambda s: s.turn == 0)
    expect(page).to_have_title(re.compile(r"^Your turn · Game \d+"))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile("favicon-turn"))
    expect(page.locator(".board button.box:focus")).to_have_count(1)
    assert page.evaluate("window.beeps") == 1

    # The page told the server the browser's zone: the next page she opens stores it, and her
    # emails (the daily digest at 07:00) follow it.
    (reported,) = [c["value"] for c in context.cookies() if c["name"] == "nyet_zone"]
    assert reported == "Asia/Tokyo"
    page.goto(reverse("lobby"))
    alice.refresh_from_db()
    assert alice.browser_time_zone == "Asia/Tokyo"
    context.close()


def test_the_table_works_without_javascript(browser, live_server):
    """Board tokens, team choice and cards by plain forms: each answer is a new page."""
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=3, bots=["easy", "easy"])
    play_until(
        game,
        alice,
        lambda s: s.phase == "teams" and s.turn == 0,
        prefer=prefer_boxes(0, 3, "none"),
    )
    context = logged_in_context(browser, live_server, alice, java_script_enabled=False, **DESKTOP)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    game_el = page.locator("#game")
    expect(game_el).to_have_attribute("data-phase", "teams")
    expect(page.locator(".pick").first).to_be_hidden()  # the seats' buttons need the script
    page.locator("#partner-1").check()
    page.get_by_role("button", name="Form these teams").click()
    expect(game_el).not_to_have_attribute("data-phase", "teams")
    expect(page.locator('.seat[data-seat="1"] .mark-team')).to_have_text("team 1")
    for _ in range(40):
        phase = game_el.get_attribute("data-phase")
        if phase == "tricks" and page.locator(".hand .card-button.playable").count():
            break
        version = game_el.get_attribute("data-version")
        if phase == "discard":
            legend = page.locator(".choice-form legend").inner_text()
            wanted = 1 if "pass" in legend else int(re.search(r"(\d+)", legend).group(1))
            for k in range(wanted):
                page.locator(".choice-form label.card-choice").nth(-1 - k).click()
            page.locator(".choice-form button[type=submit]").click()
        wait_for_update(page, version)
    card = page.locator(".hand .card-button.playable").first
    played = card.get_attribute("value")
    version = game_el.get_attribute("data-version")
    card.click()
    wait_for_update(page, version)
    in_play = page.locator('[data-zone="trick"], [data-zone="last-trick"]')
    expect(in_play.locator(f'[data-card="{played}"]').first).to_be_attached()
    context.close()
