"""A new person signs up through the real pages, confirms their email address from the link in
the email the site sent (django.core.mail.outbox: the tests' locmem backend), and plays: a table
with two bots from the lobby, and a first move on the board."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from playwright.sync_api import expect

from accounts.models import User

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAME, EMAIL, PASSWORD = "dmitri", "dmitri@example.org", "a long passphrase 42"


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    yield page
    context.close()


def fits_a_phone(browser, live_server, path) -> None:
    context = browser.new_context(base_url=live_server.url, **PHONE)
    phone = context.new_page()
    phone.goto(path)
    widths = phone.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    context.close()
    assert widths[0] <= widths[1], f"{path}: {widths[0]}px wide on a {widths[1]}px phone"


def sign_up(page) -> None:
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    form = page.locator("form.account-form")
    form.locator("input[name=email]").press_sequentially(EMAIL)
    form.locator("input[name=username]").press_sequentially(NAME)
    form.locator("input[name=password1]").press_sequentially(PASSWORD)
    form.locator("input[name=password2]").press_sequentially(PASSWORD)
    page.keyboard.press("Enter")  # sent from the keyboard
    expect(page.get_by_role("button", name=f"Log out {NAME}")).to_be_visible()


def confirm_email(page) -> None:
    (message,) = mail.outbox
    assert message.to == [EMAIL]
    (link,) = re.findall(r"https?://\S+", message.body)
    page.goto(link)
    expect(page.get_by_role("heading", name="Confirm Email Address")).to_be_visible()
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_text(f"You have confirmed {EMAIL}.")).to_be_visible()
    assert EmailAddress.objects.get(email=EMAIL).verified


def create_game_with_two_bots(page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Crane", exact=True).select_option("easy")
    page.get_by_label("Tiger", exact=True).select_option("easy")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))


def first_move(page) -> None:
    """Wait for our turn on the board, then say "nyet!" to the first box offered."""
    game = page.locator("#game")
    expect(game.locator(".your-turn")).to_be_visible()
    version = game.get_attribute("data-version")
    game.locator(".board button[name=box]").first.click()
    expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()
    assert not page.locator("#game .error").count()
    expect(page.locator("#game")).to_contain_text(f"{NAME} says NYET!")


def test_sign_up_confirm_the_email_and_play(browser, page, live_server):
    fits_a_phone(browser, live_server, "/accounts/signup/")

    sign_up(page)
    confirm_email(page)
    create_game_with_two_bots(page)
    first_move(page)

    user = User.objects.get(username=NAME)
    assert user.email == EMAIL and not user.is_site_bot
    assert user.seats.get().game.moves.filter(seat=0).exists()
