"""A game by keyboard alone, in Chromium: the hand and the board are each one tab stop with the
arrow keys, Home and End inside (WAI-ARIA's toolbar pattern, a roving tabindex), and every
decision takes at most 3 key presses once the focus has landed on the table: a card played
(Enter), a token placed (Enter), a discard of 2 cards (Space, →, Enter), a pass (Enter), the
teams formed (Space, Enter; at 5 players Space, Tab, Enter). The key that sends a discard or
a pass is said in a visible hint and in aria-keyshortcuts, in English and French."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game
from tests.steering import play_until, prefer_boxes

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import DESKTOP, PHONE, logged_in_context, shoot, wait_for_update

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

HINTS = {
    "en": {
        "discard": "Enter discards",
        "pass": "Enter passes",
        "board": "Enter says NYET!",
        "play": "Enter plays",
        "teams": "Enter forms the teams",
    },
    "fr": {
        "discard": "Entrée pour défausser",
        "pass": "Entrée pour la passer",
        "board": "Entrée pour dire NYET!",
        "play": "Entrée pour jouer",
        "teams": "Entrée pour former les équipes",
    },
}

# The controls of a group that Tab stops on.
TAB_STOPS = """(group) => [...group.querySelectorAll("button, input, a[href]")]
    .filter(el => !el.disabled && el.tabIndex >= 0).length"""


class Keys:
    """Key presses, counted."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


# The deal of every table here: the Easy bots draw from the game's seed, so each test plays the
# same game every time and reaches its situation (a random deal may end before the discard rule
# it waits for ever comes up).
SEED = 1


def table(browser, live_server, players: int, language: str = "en", size=DESKTOP):
    user = User.objects.create_user(
        username="alice", email="alice@example.com", password="pw", language=language
    )
    with mock.patch("secrets.randbits", return_value=SEED):
        game = create_game(user, players=players, bots=["easy"] * (players - 1))
    page = logged_in_context(browser, live_server, user, **size).new_page()
    return user, game, page


def state_of(game) -> engine.GameState:
    game.refresh_from_db()
    return engine.state_from_json(game.state)


def open_table(page, game, phase: str):
    """The page on the player's turn in ``phase``, the focus landed on the table."""
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-phase", phase)
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
    expect(page.locator("#game .felt :focus")).to_have_count(1)
    return page.locator("#game")


def assert_one_tab_stop(page, group_selector: str) -> None:
    """The group is one tab stop: Tab leaves it at once, Shift+Tab comes back to the same
    control; the arrows, Home and End move inside it."""
    group = page.locator(group_selector)
    assert group.evaluate(TAB_STOPS) == 1
    focused = page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Tab")
    assert not group.evaluate("g => g.contains(document.activeElement)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.outerHTML") == focused
    at = "g => [...g.querySelectorAll('button, input')].indexOf(document.activeElement)"
    first = group.evaluate(at)
    page.keyboard.press("End")
    last = group.evaluate(at)
    assert last > first or group.evaluate(TAB_STOPS) == 1
    page.keyboard.press("Home")
    home = group.evaluate(at)
    page.keyboard.press("ArrowRight")
    assert group.evaluate(at) > home
    assert group.evaluate(TAB_STOPS) == 1  # the stop moved with the focus
    page.keyboard.press("ArrowLeft")
    assert group.evaluate(at) == home
    for _ in range(first - home):  # back where the focus landed
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.outerHTML") == focused


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_token_and_a_card_in_one_key_press_each(browser, live_server, size):
    user, game, page = table(browser, live_server, 3, size=DESKTOP if size == "desktop" else PHONE)
    play_until(game, user, lambda s: s.phase == engine.BOARD and s.turn == 0)
    game_el = open_table(page, game, "board")
    hint = game_el.locator("#keys-board")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(HINTS["en"]["board"])
    expect(game_el.locator(".board-grid")).to_have_attribute("role", "toolbar")
    assert_one_tab_stop(page, "#game .board-grid")
    page.keyboard.press("Home")
    focused_box = page.evaluate("document.activeElement.dataset.box")
    shoot(page, f"keyboard-board-{size}")
    tokens = len(state_of(game).tokens)
    keys = Keys(page)
    version = game_el.get_attribute("data-version")
    keys.press("Enter")
    wait_for_update(page, version)
    state = state_of(game)
    assert keys.count <= 3
    mine = [t for t in state.tokens if t[0] == 0]
    assert len(state.tokens) > tokens
    assert ":".join(mine[-1][1:]) == focused_box

    page.goto("about:blank")
    play_until(game, user, lambda s: s.phase == engine.TRICKS and s.turn == 0)
    game_el = open_table(page, game, "tricks")
    expect(game_el.locator("#keys-play")).to_contain_text(HINTS["en"]["play"])
    assert_one_tab_stop(page, "#game .hand")
    card = page.evaluate("document.activeElement.value")
    assert card, "the focus is on a playable card"
    shoot(page, f"keyboard-hand-{size}")
    held = state_of(game).hands[0].count(card)  # a 1 may be held twice
    keys = Keys(page)
    version = game_el.get_attribute("data-version")
    keys.press("Enter")
    wait_for_update(page, version)
    assert keys.count <= 3
    assert state_of(game).hands[0].count(card) == held - 1


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_discard_of_two_cards_in_three_key_presses(browser, live_server, language):
    user, game, page = table(browser, live_server, 4, language)
    play_until(
        game,
        user,
        lambda s: s.phase == engine.DISCARD and s.choices[0] is None and s.terms.discard == "2",
        prefer=prefer_boxes(0, 4, "2"),
    )
    game_el = open_table(page, game, "discard")
    hint = game_el.locator("#keys-choice")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(HINTS[language]["discard"])
    send = game_el.locator(".choice-form button[type=submit]")
    expect(send).to_have_attribute("aria-keyshortcuts", "Enter")
    assert_one_tab_stop(page, "#game .choice-form .hand")
    hand = state_of(game).hands[0]
    keys = Keys(page)
    keys.press("Space")
    keys.press("ArrowRight")
    shoot(page, f"keyboard-discard-{language}")
    version = game_el.get_attribute("data-version")
    keys.press("Enter")
    wait_for_update(page, version)
    assert keys.count <= 3
    moved = game.moves.filter(seat=0).order_by("-number").first().move
    assert sorted(moved["discard"]) == sorted(hand[:2])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_pass_in_one_key_press(browser, live_server, language):
    user, game, page = table(browser, live_server, 3, language)
    play_until(
        game,
        user,
        lambda s: (
            s.phase == engine.DISCARD and s.choices[0] is None and s.terms.discard == "pass_left"
        ),
        prefer=prefer_boxes(0, 3, "pass_left"),
    )
    game_el = open_table(page, game, "discard")
    expect(game_el.locator("#keys-choice")).to_contain_text(HINTS[language]["pass"])
    expect(game_el.locator(".choice-form button[type=submit]")).to_have_attribute(
        "aria-keyshortcuts", "Enter"
    )
    assert_one_tab_stop(page, "#game .choice-form .hand")
    page.keyboard.press("ArrowRight")  # choosing which card: not part of the decision's keys
    card = page.evaluate("document.activeElement.value")
    keys = Keys(page)
    version = game_el.get_attribute("data-version")
    keys.press("Enter")
    wait_for_update(page, version)
    assert keys.count <= 3
    moved = game.moves.filter(seat=0).order_by("-number").first().move
    assert moved["pass"] == card


@pytest.mark.parametrize("players", [4, 5])
def test_the_teams_in_at_most_three_key_presses(browser, live_server, players):
    user, game, page = table(browser, live_server, players)
    play_until(
        game,
        user,
        lambda s: s.phase == engine.TEAMS and s.turn == 0,
        prefer=prefer_boxes(0, players, "none"),
    )
    game_el = open_table(page, game, "teams")
    expect(page.locator(":focus")).to_have_attribute("name", "partner")
    partner = int(page.evaluate("document.activeElement.value"))
    expect(game_el.locator("form[data-teams] .keys-hint")).to_contain_text(HINTS["en"]["teams"])
    keys = Keys(page)
    keys.press("Space")
    if players == 5:
        keys.press("Tab")  # to the bonus card's holders: the first who may hold it
        expect(page.locator(":focus")).to_have_attribute("name", "bonus")
    version = game_el.get_attribute("data-version")
    keys.press("Enter")
    wait_for_update(page, version)
    assert keys.count <= 3
    state = state_of(game)
    assert state.teams is not None
    assert any(0 in team and partner in team for team in state.teams)
    expect(game_el.locator(f'.seat[data-seat="{partner}"] .mark-team')).to_have_text(
        re.compile(r"team 1")
    )
