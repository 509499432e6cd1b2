"""The pages around the table share its look: each has the felt header bar, fits a phone's width
without sideways scrolling, has no serious or critical axe violation, in English and French, at
a laptop's size and a phone's, logged in and not. On a phone the header's links are behind a
"Menu" that opens without script. Screenshots: tests/browser/screenshots/front-*.png."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT
from .helpers import (
    SIZES,
    assert_accessible,
    assert_no_sideways_scroll,
    logged_in_context,
    shoot,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

LOBBY = {"en": "Lobby", "fr": "Accueil"}

GUEST_PAGES = {
    "home": "/",
    "players": "/players/",
    "profile": "/players/alice/",
    "stats": "/stats/",
    "watch": "/games/",
    "bots": "/bots/",
    "login": "/accounts/login/",
    "signup": "/accounts/signup/",
    "password-reset": "/accounts/password/reset/",
    "not-found": "/no-such-page/",
}
MEMBER_PAGES = {
    "home": "/",
    "players": "/players/",
    "profile": "/players/alice/",
    "finished-games": "/players/alice/games/finished/",
    "stats": "/stats/",
    "watch": "/games/",
    "settings": "/settings/",
    "tokens": "/settings/tokens/",
    "email": "/accounts/email/",
    "password-change": "/accounts/password/change/",
    "delete": "/settings/delete/",
}


@pytest.fixture
def alice(db, monkeypatch):
    """A player with a finished game (her record, the stats and the leaderboard have figures)
    and a game in play (the watch page lists it)."""
    # The leaderboard lists those with one game, so that its table is drawn.
    monkeypatch.setattr("accounts.selectors.LEADERBOARD_MIN_GAMES", 1)
    user = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    finished = create_game(user, players=3, bots=["easy", "easy"], target=15)
    play_until(finished, user, lambda state: False)
    in_play = create_game(user, players=3, bots=["easy", "easy"])
    play_until(in_play, user, lambda state: bool(state.results))
    return user


def check_page(page, name: str, url: str, language: str, size: str) -> None:
    response = page.goto(url)
    assert response is not None
    assert response.status < 500, f"{url}: {response.status}"
    expect(page.locator("html")).to_have_attribute("lang", language)
    header = page.locator("header.site-header")
    expect(header).to_be_visible()
    # The bar is the felt, as the table is.
    felt = header.evaluate("bar => getComputedStyle(bar).backgroundColor")
    assert felt == "rgb(31, 107, 67)", f"{name}: header is {felt}"
    lobby = header.get_by_role("link", name=LOBBY[language], exact=True)
    # The bar is one short line (on a phone, with the menu closed).
    height = header.evaluate("bar => bar.getBoundingClientRect().height")
    assert height <= 56, f"{name}: the header is {height}px tall"
    if size == "phone":
        expect(lobby).to_be_hidden()
        assert_no_sideways_scroll(page)
        wide = page.evaluate(
            "[...document.querySelectorAll('.scroll')]"
            ".filter(box => box.scrollWidth > box.clientWidth).length"
        )
        assert wide == 0, f"{name}: {wide} tables scroll sideways on a phone"
        shoot(page, f"front-{name}-{language}-{size}")
        header.locator("summary").click()
        expect(lobby).to_be_visible()
        assert_no_sideways_scroll(page)
        assert_accessible(page, f"{name} ({language}, {size}, menu open)")
        if name.endswith("home"):
            shoot(page, f"front-{name}-{language}-{size}-menu")
    else:
        expect(header.locator("summary")).to_be_hidden()
        expect(lobby).to_be_visible()
        shoot(page, f"front-{name}-{language}-{size}")
        assert_accessible(page, f"{name} ({language}, {size})")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_pages_of_a_guest(browser, live_server, alice, language, size):
    context = browser.new_context(
        base_url=live_server.url, locale={"en": "en-GB", "fr": "fr-FR"}[language], **SIZES[size]
    )
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    for name, url in GUEST_PAGES.items():
        check_page(page, f"guest-{name}", url, language, size)
    context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_pages_of_a_player(browser, live_server, alice, language, size):
    alice.language = language
    alice.save(update_fields=["language"])
    context = logged_in_context(browser, live_server, alice, **SIZES[size])
    page = context.new_page()
    for name, url in MEMBER_PAGES.items():
        check_page(page, f"member-{name}", url, language, size)
    context.close()
