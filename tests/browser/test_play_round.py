"""A person signs in, opens a 3-player table with two bots from the lobby, and plays a whole round
by clicking (and once by keyboard) the controls the game page offers, as a player would."""

import re
import time

import pytest
from playwright.sync_api import expect

from accounts.models import User

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
HAND = 16  # a 3-player deal
MAX_TURNS = 100  # a round asks a player for about 25 moves


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    # What the Content Security Policy refused, and any script error: Chromium reports both.
    page.refused = []
    page.on(
        "console",
        lambda message: (
            "Content Security Policy" in message.text and page.refused.append(message.text)
        ),
    )
    page.on("pageerror", lambda error: page.refused.append(f"script error: {error}"))
    yield page
    context.close()


def sign_in(page, username, password):
    page.goto("/accounts/login/?next=/")
    form = page.locator("form:has(input[name=password])")
    # Django's login form names the field "username", django-allauth's "login".
    form.locator("input[name=username], input[name=login]").press_sequentially(username)
    form.locator("input[name=password]").press_sequentially(password)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def create_game_with_two_bots(page):
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_label("Players", exact=True).select_option("3")
    page.locator("#seat_1").select_option("easy")  # each seat is labelled by its character
    page.locator("#seat_2").select_option("easy")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))


def discard(form):
    """Tick as many cards as the legend asks, 1s last (so "not a 1" is respected)."""
    wanted = int(re.search(r"Choose (\d+) card", form.locator("legend").inner_text()).group(1))
    boxes = form.locator("input[name=cards]")
    cards = [boxes.nth(i).get_attribute("value") for i in range(boxes.count())]
    for i in sorted(range(len(cards)), key=lambda i: cards[i][1:] == "1")[:wanted]:
        boxes.nth(i).check()
    form.get_by_role("button", name="Discard", exact=True).click()


def take_turn(page, by_keyboard: bool) -> str:
    """Make one legal move with the page's own controls; which kind it was."""
    game = page.locator("#game")
    teams = game.locator("form[data-teams]")
    if teams.count():
        # The form comes with a legal choice ticked: take it as it is.
        teams.get_by_role("button", name="Form these teams").click()
        return "teams"
    choice = game.locator(".choice-form")
    if choice.count():
        passing = choice.locator("input[name=card]")
        if passing.count():
            passing.first.check()
            choice.get_by_role("button", name="Pass this card").click()
            return "pass"
        discard(choice)
        return "discard"
    # Never "nyet!" our own first-player box (we sit in seat 0) while there is another: being the
    # first player gives us the team choice to make as well.
    boxes = game.locator('.board button[name=box]:not([data-box="first:0"])')
    if not boxes.count():
        boxes = game.locator(".board button[name=box]")
    if boxes.count():
        boxes.first.click()
        return "token"
    card = game.locator(".hand button.card-button.playable").first
    if by_keyboard:
        card.focus()
        expect(card).to_be_focused()
        page.keyboard.press("Enter")
        return "play by keyboard"
    card.click()
    return "play"


def screenshots(browser, page, path):
    """The page as it is, then at a phone's size, where nothing may be wider than the screen."""
    page.screenshot(path=path, full_page=True)
    context = browser.new_context(**PHONE, storage_state=page.context.storage_state())
    context.set_default_timeout(TIMEOUT)
    phone = context.new_page()
    phone.goto(page.url)
    expect(phone.locator("#game")).to_be_visible()
    phone_path = path.with_stem(f"{path.stem}-phone")
    phone.screenshot(path=phone_path, full_page=True)
    widths = phone.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    context.close()
    print(f"screenshots: {path} {phone_path}")
    assert widths[0] <= widths[1], f"{phone_path}: {widths[0]}px wide on a {widths[1]}px phone"


def play_round(browser, page, artifacts) -> list[str]:
    """Move whenever it is our turn until round 1 is on the scorepad; the moves made.
    The first discard (or pass) choice and the first trick are photographed on the way."""
    game = page.locator("#game")
    your_turn = game.locator(".your-turn")
    scorepad = game.locator(".scorepad")
    moves = []
    for _ in range(MAX_TURNS):
        expect(your_turn.or_(scorepad).first).to_be_visible()
        if scorepad.is_visible():
            return moves
        version = game.get_attribute("data-version")
        first_play = not any(m.startswith("play") for m in moves)
        first_choice = not any(m in ("discard", "pass") for m in moves)
        if first_choice and game.locator(".choice-form").count():
            screenshots(browser, page, artifacts / "game-discard.png")
        if first_play and game.locator(".hand button.playable").count():
            screenshots(browser, page, artifacts / "game-trick.png")
        moves.append(take_turn(page, by_keyboard=first_play))
        # The answer (or a poll) swaps in a newer #game; a refusal would show an error instead.
        answered = f'#game:not([data-version="{version}"]), #game .error'
        expect(page.locator(answered).first).to_be_attached()
        error = game.locator(".error")
        assert not error.count(), f"{moves[-1]} refused: {error.inner_text()}"
    raise AssertionError(f"round 1 did not end after {len(moves)} moves: {moves}")


def test_play_a_whole_round_against_two_bots(browser, page, live_server, artifacts):
    User.objects.create_user(username="alice", email="alice@example.com", password="secret-pw")
    started = time.monotonic()
    sign_in(page, "alice", "secret-pw")
    create_game_with_two_bots(page)
    moves = play_round(browser, page, artifacts)
    print(f"{len(moves)} moves in {time.monotonic() - started:.1f}s: {', '.join(moves)}")
    assert "play by keyboard" in moves and "token" in moves

    game = page.locator("#game")
    expect(game.locator(".game-options")).to_contain_text("round 2")
    expect(game.locator('[data-zone="hand"] [data-card]')).to_have_count(HAND)
    scorepad = game.locator(".scorepad")
    expect(scorepad.get_by_role("heading", name="Scorepad")).to_be_visible()
    bot = re.compile("bot", re.IGNORECASE)
    expect(scorepad.locator("thead th")).to_have_text(["Round", re.compile("alice"), bot, bot])
    rows = scorepad.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("th")).to_have_text(re.compile(r"^1\b"))
    expect(rows.first.locator("td")).to_have_text([re.compile(r"^-?\d+$")] * 3)
    expect(game.locator(".round-summary")).to_contain_text("Round 1 is over")

    screenshots(browser, page, artifacts / "game.png")

    # The whole round ran under the site's policy (own scripts and styles only), refusing nothing.
    policy = page.request.get(page.url).headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, policy
    assert page.refused == [], page.refused
