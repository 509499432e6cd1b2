"""The installable site in Chromium, against the site under uvicorn (issue 35): the service worker
registers and takes charge, Chromium's own installability check (the one behind its install
button, through the DevTools protocol) finds nothing missing, and once the server is down a
page of the site shows the offline page, in the player's language first. A push message,
delivered to the service worker through the DevTools protocol as the browser vendor's push
service would, shows its notification, and the click on it looks for the tab that shows its game.

Screenshots: `offline-*.png` in tests/browser/screenshots."""

import base64
import json

import pytest
from playwright.sync_api import expect

from tests.servers import serve, stop

from .conftest import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, TIMEOUT
from .helpers import (
    FAKE_SUBSCRIBE,
    SIZES,
    STILL,
    assert_accessible,
    assert_no_sideways_scroll,
    b64,
    key_pair,
    shoot,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

KEPT = "css/site.css"


def installed_browser(browser, tmp_path, base: str, **options):
    """Chromium with a profile of its own: it never offers to install from an incognito window,
    which a plain new context is."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        base_url=base,
        **{**STILL, **options},
    )
    context.set_default_timeout(TIMEOUT)
    return context


def worker_state(page) -> str:
    """The state of the page's service worker once it is no longer on its way in."""
    return page.evaluate(
        """async () => {
            const worker = (await navigator.serviceWorker.ready).active;
            while (worker.state === "activating") {
                await new Promise(next => worker.addEventListener("statechange", next));
            }
            return worker.state;
        }"""
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_site_installs_and_shows_the_offline_page_when_the_server_is_down(
    on_postgres, browser, tmp_path, size, language
):
    from django.db import connection

    server, port = serve(connection.settings_dict["NAME"], "", tmp_path)
    base = f"http://127.0.0.1:{port}"
    context = installed_browser(browser, tmp_path, base, locale=language, **SIZES[size])
    try:
        page = context.pages[0]
        page.goto("/rules/")
        assert worker_state(page) == "activated"
        assert page.evaluate(
            f"caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
            f".then(c => c.match('/static/{KEPT}'))))).then(found => found.some(Boolean))"
        ), "the service worker keeps the static files"

        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"] == f"{base}/manifest.webmanifest"
        assert manifest["errors"] == []
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors

        stop(server, connection)
        page.goto("/games/")  # a page never visited: the server's, were it up
        heading = {"en": "You are offline", "fr": "Vous êtes hors ligne"}[language]
        expect(page.locator("main section").first.locator("h1")).to_have_text(heading)
        expect(page.locator("main section")).to_have_count(2)
        assert page.url == f"{base}/games/"
        assert_no_sideways_scroll(page)
        assert_accessible(page, "the offline page")
        shoot(page, f"offline-{size}-{language}")
    finally:
        context.close()
        if server.poll() is None:
            stop(server, connection)


@pytest.mark.django_db(transaction=True)
def test_a_pushed_message_shows_its_notification_and_its_click_finds_the_game_s_tab(
    on_postgres, browser, tmp_path
):
    from django.db import connection

    server, port = serve(connection.settings_dict["NAME"], "", tmp_path)
    base = f"http://127.0.0.1:{port}"
    context = installed_browser(browser, tmp_path, base, **SIZES["desktop"])
    try:
        context.grant_permissions(["notifications"], origin=base)
        page = context.pages[0]
        devtools = context.new_cdp_session(page)
        registrations = []
        devtools.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        devtools.send("ServiceWorker.enable")
        page.goto("/rules/")
        assert worker_state(page) == "activated"
        other = context.new_page()
        other.goto("/stats/")
        expect(other.locator("h1")).to_be_visible()
        registration = next(r for r in registrations if r["scopeURL"] == f"{base}/")

        message = {
            "title": "Nyet! game 12: your turn",
            "body": "Choose your card.",
            "url": "/stats/",
            "tag": "game-12",
        }
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": base,
                "registrationId": registration["registrationId"],
                "data": json.dumps(message),
            },
        )
        shown = page.evaluate(
            """async () => {
                const registration = await navigator.serviceWorker.ready;
                const until = Date.now() + 30000;
                let shown = [];
                while (!shown.length && Date.now() < until) {
                    await new Promise(next => setTimeout(next, 50));
                    shown = await registration.getNotifications();
                }
                return shown.map(n => [n.title, n.body, n.tag, n.data.url]);
            }"""
        )
        assert shown == [[message["title"], message["body"], message["tag"], message["url"]]]

        # The click (which headless Chromium cannot make) focuses the tab that shows the game,
        # and opens one when none does.
        worker = context.service_workers[0]
        assert worker.evaluate("windowShowing('/stats/').then(w => w && w.url)") == f"{base}/stats/"
        assert worker.evaluate("windowShowing('/games/12/').then(w => w && w.url)") is None
    finally:
        context.close()
        stop(server, connection)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "size, language, allowed", [("desktop", "en", True), ("phone", "fr", False)]
)
def test_the_settings_page_turns_notifications_on_in_this_browser(
    on_postgres, browser, tmp_path, size, language, allowed
):
    from django.db import connection
    from django.test import Client

    from accounts.models import PushDevice, User

    public, private = key_pair()
    server, port = serve(
        connection.settings_dict["NAME"],
        "",
        tmp_path,
        VAPID_PUBLIC_KEY=public,
        VAPID_PRIVATE_KEY=private,
    )
    base = f"http://127.0.0.1:{port}"
    alice = User.objects.create_user("alice", "alice@example.com", "pw", language=language)
    client = Client()
    client.force_login(alice)
    context = installed_browser(browser, tmp_path, base, **SIZES[size])
    try:
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
        )
        if allowed:
            context.grant_permissions(["notifications"], origin=base)
        sent = {
            "endpoint": "https://fcm.googleapis.com/fcm/send/this-browser",
            "keys": {"p256dh": b64(b"\x04" + bytes(range(64))), "auth": b64(bytes(16))},
        }
        context.add_init_script(FAKE_SUBSCRIBE % json.dumps(sent))
        page = context.pages[0]
        page.goto("/settings/")
        section = page.locator("#devices")
        words = {
            "en": ("Turn on notifications in this browser", "No device gets your notifications"),
            "fr": ("Activer les notifications dans ce navigateur", "Aucun appareil"),
        }[language]
        expect(section).to_contain_text(words[1])
        section.get_by_role("button", name=words[0]).click()
        if allowed:
            expect(section.locator(".devices li")).to_contain_text("Chrome · Linux")
            device = PushDevice.objects.get()
            assert (device.user, device.endpoint, device.p256dh, device.auth) == (
                alice,
                sent["endpoint"],
                sent["keys"]["p256dh"],
                sent["keys"]["auth"],
            )
            given = json.loads(page.evaluate("sessionStorage.subscribedWith"))
            assert bytes(given) == base64.urlsafe_b64decode(public + "=")
        else:
            blocked = {"en": "Notifications are blocked", "fr": "Les notifications sont bloquées"}
            expect(section.locator(".push-status")).to_contain_text(blocked[language])
            assert not PushDevice.objects.exists()
        assert_no_sideways_scroll(page)
        assert_accessible(page, "the settings page's notifications")
        section.scroll_into_view_if_needed()
        shoot(page, f"settings-notifications-{size}-{language}")
    finally:
        context.close()
        stop(server, connection)
