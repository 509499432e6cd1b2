"""The game page offers notifications after the player's own move at a correspondence table
(issue 35): never before it (so never on a first visit), once on a device whatever the answer,
and a yes there subscribes this browser as the settings page does. The browser vendor's push
service is out of reach: its subscribe is stood in for (tests/browser/test_install.py).

Screenshots: `push-prompt-*.png` in tests/browser/screenshots."""

import base64
import json

import pytest
from playwright.sync_api import expect

from accounts.models import PushDevice, User
from games.actions import play_against_bots
from games.push import b64encode, generate_keys

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    FAKE_SUBSCRIBE,
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

SENT = {
    "endpoint": "https://updates.push.services.mozilla.com/wpush/v2/this-browser",
    "keys": {"p256dh": b64encode(b"\x04" + bytes(range(64))), "auth": b64encode(bytes(16))},
}
WORDS = {
    "en": ("Get a notification on this device", "Turn on notifications", "Not now"),
    "fr": (
        "Recevoir une notification sur cet appareil",
        "Activer les notifications",
        "Pas maintenant",
    ),
}


def table_of_alice(browser, live_server, settings, pace: str, size="desktop", language="en"):
    """alice's game against two bots at ``pace``, and a browser where she is logged in; the
    site has a key pair."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    alice = User.objects.create_user("alice", "alice@example.com", "pw", language=language)
    game = play_against_bots(alice, players=3, time_control=pace)
    return alice, game, logged_in_context(browser, live_server, alice, **SIZES[size])


def first_move(page) -> None:
    """Say "nyet!" to the first box of the board, once it is the player's turn."""
    table = page.locator("#game")
    expect(table.locator(".your-turn")).to_be_visible()
    version = table.get_attribute("data-version")
    table.locator(".board button[name=box]").first.click()
    expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()


@pytest.mark.parametrize("size, language", [("desktop", "en"), ("phone", "fr")])
def test_after_a_move_the_page_offers_notifications_once(
    browser, live_server, settings, size, language
):
    alice, game, context = table_of_alice(
        browser, live_server, settings, "correspondence", size, language
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_SUBSCRIBE % json.dumps(SENT))
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    prompt = page.locator("#push-prompt")
    expect(page.locator("#game .board")).to_be_visible()
    expect(prompt).to_be_hidden()  # not on arrival
    first_move(page)
    asks, yes, _ = WORDS[language]
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text(asks)
    assert_no_sideways_scroll(page)
    assert_accessible(page, "the game page with its offer of notifications")
    shoot(page, f"push-prompt-{size}-{language}")
    prompt.get_by_role("button", name=yes).click()
    expect(prompt.get_by_role("button", name=yes)).to_be_hidden()
    device = PushDevice.objects.get()
    assert (device.user, device.endpoint) == (alice, SENT["endpoint"])
    given = json.loads(page.evaluate("sessionStorage.subscribedWith"))
    assert bytes(given) == base64.urlsafe_b64decode(settings.VAPID_PUBLIC_KEY + "=")
    context.close()


def test_not_now_is_not_asked_again_on_this_device(browser, live_server, settings):
    alice, game, context = table_of_alice(browser, live_server, settings, "correspondence")
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    first_move(page)
    prompt = page.locator("#push-prompt")
    prompt.get_by_role("button", name="Not now").click()
    expect(prompt).to_be_hidden()
    assert page.evaluate("localStorage.getItem('nyet.push.asked')") == "1"
    page.reload()
    page.evaluate("document.addEventListener('htmx:afterSettle', () => { window.settled = true; })")
    first_move(page)
    page.wait_for_function("() => window.settled === true")
    # as long as the page's own look for a subscription, which the offer would wait for
    page.evaluate("navigator.serviceWorker.ready.then(r => r.pushManager.getSubscription())")
    expect(prompt).to_be_hidden()
    assert not PushDevice.objects.exists()
    context.close()


def test_a_live_table_offers_nothing(browser, live_server, settings):
    alice, game, context = table_of_alice(browser, live_server, settings, "live")
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game .board")).to_be_visible()
    expect(page.locator("#push-prompt")).to_have_count(0)
    context.close()
