"""One-click play from the home page (issue 32): a new account reaches its hand in a game against
bots in at most 3 clicks (the test counts every click: one to the hand, one more for its first
move); a visitor who is not logged in clicks the same button, signs up, and comes back to the
same choice. The lobby's screens (logged in with games, and not; English and French; a laptop's
size and a phone's) are photographed (`one-click-*.png` in tests/browser/screenshots), fit the
screen's width and have no axe violation of any impact."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import presence
from games.actions import create_game, join_game, play_against_bots
from games.models import Game
from tests.steering import your_games

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT
from .helpers import (
    DESKTOP,
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

PASSWORD = "a long passphrase 42"
MOST_CLICKS = 3


class Clicks:
    """Every click the player makes, counted."""

    def __init__(self):
        self.made: list[str] = []

    def click(self, locator, what: str) -> None:
        self.made.append(what)
        locator.click()


def photograph(page, name: str) -> None:
    shoot(page, f"one-click-{name}")


def hand_is_shown(page) -> None:
    """The player's hand, with its cards, drawn at the table."""
    hand = page.get_by_role("group", name="Your hand").or_(
        page.get_by_role("toolbar", name="Your hand")
    )
    expect(hand.first).to_be_visible()
    cards = hand.first.locator(".card")
    expect(cards.first).to_be_visible()
    assert cards.count() >= 3


def run(action, *args, **kwargs):
    """An action as a request runs it (its on-commit work, the bots' turns, as it commits)."""
    return action(*args, **kwargs)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_account_reaches_its_hand_against_bots_in_at_most_three_clicks(
    browser, live_server, size
):
    newcomer = User.objects.create_user("nadia", "nadia@example.org", PASSWORD)
    context = logged_in_context(browser, live_server, newcomer, **SIZES[size])
    page = context.new_page()
    clicks = Clicks()
    page.goto("/")
    play = page.get_by_role("button", name="3 players", exact=True)
    expect(play).to_be_visible()
    clicks.click(play, "3 players")
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    hand_is_shown(page)
    assert clicks.made == ["3 players"], "one click from the home page to the hand"
    game = Game.objects.get()
    levels = [s.user.bot_level for s in game.seats.order_by("position")]
    assert (game.status, game.players, game.time_control) == ("active", 3, "live")
    assert levels == ["", User.DEFAULT_BOT_LEVEL, User.DEFAULT_BOT_LEVEL]
    photograph(page, f"one-click-table-{size}")

    # The first move: say "nyet!" to the first box the board offers, once it is our turn.
    table = page.locator("#game")
    expect(table.locator(".your-turn")).to_be_visible()
    version = table.get_attribute("data-version")
    clicks.click(table.locator(".board button[name=box]").first, "a box on the board")
    expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()
    assert not page.locator("#game .error").count()
    assert game.moves.filter(seat=0).exists()
    assert len(clicks.made) <= MOST_CLICKS, clicks.made
    context.close()


def test_a_visitor_clicks_play_signs_up_and_comes_back_to_the_same_game(browser, live_server):
    context = browser.new_context(base_url=live_server.url, **DESKTOP)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    clicks = Clicks()
    page.goto("/")
    page.get_by_role("radio", name=re.compile("Correspondence")).check()
    clicks.click(page.get_by_role("button", name="2 players", exact=True), "2 players")
    expect(page.get_by_role("heading", name="Log in", level=1)).to_be_visible()
    clicks.click(page.locator(".page-head").get_by_role("link", name="Sign up"), "Sign up")
    form = page.locator("form:has(input[name=password1])")
    form.locator("input[name=email]").fill("zoe@example.org")
    form.locator("input[name=username]").fill("zoe")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    page.keyboard.press("Enter")
    # Back to the choice made before signing up, in words, with the one button that makes it.
    expect(page.get_by_text("2 players, correspondence, 3 days a move.")).to_be_visible()
    assert not Game.objects.exists(), "nothing is made before the player says so"
    assert every_violation(page) == []
    clicks.click(page.get_by_role("button", name="Play now"), "Play now")
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    hand_is_shown(page)
    game = Game.objects.get()
    assert (game.players, game.time_control) == (2, "correspondence")
    assert game.seats.get(position=0).user.username == "zoe"
    assert len(clicks.made) == 3, clicks.made
    context.close()


def lobby_with_games(language: str) -> User:
    """alice with a game of each kind, two other people online, and two open tables."""
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD, language=language)
    bob = User.objects.create_user("bob", "bob@example.org", PASSWORD)
    carol = User.objects.create_user("carol", "carol@example.org", PASSWORD)
    your_games(run, alice, bob)
    run(play_against_bots, alice, players=3, time_control="correspondence")
    run(create_game, bob, players=4, bots=["easy", None, None], move_seconds=2 * 60)
    waiting = run(
        create_game, carol, players=5, time_control="correspondence", move_seconds=7 * 86400
    )
    run(join_game, bob, waiting.pk)
    presence.seen(bob.pk)
    presence.seen(carol.pk)
    return alice


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_lobby_logged_in_with_games(browser, live_server, language, size):
    alice = lobby_with_games(language)
    mine = Game.objects.get(status=Game.Status.OPEN, created_by=alice)
    context = logged_in_context(browser, live_server, alice, **SIZES[size])
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    # The last game against bots (3 players, correspondence) is offered first.
    last = page.locator(".player-buttons button[data-last-choice]")
    expect(last).to_have_attribute("value", "3")
    expect(page.locator("input[name=pace][value=correspondence]")).to_be_checked()
    # Open tables: a card each, with its seats and a Join button; alice's own says so instead.
    cards = page.locator(".table-card")
    expect(cards).to_have_count(3)
    for i in range(3):
        expect(cards.nth(i).locator(".table-card-seats li.empty").first).to_be_visible()
    expect(cards.locator("form button[type=submit]")).to_have_count(2)
    expect(cards.locator(f'a.button[href="/games/{mine.pk}/"]')).to_be_visible()
    # Who is online: the two others, not alice herself.
    online = page.locator(".online")
    expect(online.get_by_role("link", name="bob")).to_be_visible()
    expect(online.get_by_role("link", name="carol")).to_be_visible()
    expect(online.get_by_role("link", name="alice")).to_have_count(0)
    assert_no_sideways_scroll(page)
    assert every_violation(page) == []
    photograph(page, f"lobby-with-games-{language}-{size}")
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_lobby_of_a_visitor(browser, live_server, language, size):
    bob = User.objects.create_user("bob", "bob@example.org", PASSWORD)
    run(create_game, bob, players=3, bots=[None, "easy"])
    presence.seen(bob.pk)
    context = browser.new_context(base_url=live_server.url, locale=language, **SIZES[size])
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".player-buttons button")).to_have_count(4)
    expect(page.locator("form.play-bots-form")).to_have_attribute("method", "get")
    expect(page.locator(".table-card a.button")).to_have_attribute(
        "href", re.compile(r"^/accounts/login/\?next=/games/\d+/$")
    )
    assert_no_sideways_scroll(page)
    assert every_violation(page) == []
    photograph(page, f"lobby-visitor-{language}-{size}")
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_a_visitor_comes_back_to(browser, live_server, size):
    zoe = User.objects.create_user("zoe", "zoe@example.org", PASSWORD)
    context = logged_in_context(browser, live_server, zoe, **SIZES[size])
    page = context.new_page()
    page.goto("/games/play/?players=4&pace=live")
    expect(page.get_by_text("4 players, live, 5 minutes a move.")).to_be_visible()
    assert_no_sideways_scroll(page)
    assert every_violation(page) == []
    photograph(page, f"play-against-bots-{size}")
    context.close()
