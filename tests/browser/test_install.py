"""The installable site in Chromium, against the site under uvicorn (issue 35): the service worker
registers and takes charge, Chromium's own installability check (the one behind its install
button, through the DevTools protocol) finds nothing missing, and once the server is down a
page of the site shows the offline page, in the player's language first. The site's own push
message (through the outbox and a push service in the test, decrypted as the browser would),
delivered to the service worker through the DevTools protocol as the vendor's push service
would, shows the game's notification, and the click on it looks for the tab that shows the
game. The settings page turns notifications on in this browser.

Screenshots: `offline-*.png` in tests/browser/screenshots."""

import base64
import json

import pytest
from playwright.sync_api import expect

from games.push import b64encode, generate_keys
from tests.servers import serve, stop

from .conftest import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, TIMEOUT
from .helpers import (
    FAKE_SUBSCRIBE,
    SIZES,
    STILL,
    assert_accessible,
    assert_no_sideways_scroll,
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
def test_the_site_s_message_shows_the_game_s_notification_and_its_click_finds_the_game_s_tab(
    on_postgres, browser, tmp_path, settings
):
    """The site's own message for a game that started, through the outbox and a push service in
    the test, decrypted as the browser would, then delivered to Chromium's service worker."""
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from games.actions import play_against_bots
    from games.actions.notify import queue_emails
    from games.models import PendingEmail
    from tests.games.push_service import Browser, browser_decrypt, running, site_keys

    site_keys(settings)
    alice = User.objects.create_user("alice", "alice@example.com", "pw")
    game = play_against_bots(alice, players=3, time_control="correspondence")
    with running() as service:
        phone = Browser()
        phone.subscribe(alice, f"{service.origin}/push/phone")
        # sent once committed (the tasks run in this process): the email, then the message
        queue_emails([("game_started", [game.pk, 0, str(game.pk)])])
        assert not PendingEmail.objects.exists()
        [(_, _, body)] = service.requests
    data = browser_decrypt(body, phone.key, phone.auth).decode()
    message = json.loads(data)
    assert message["title"] == f"Game {game.pk} has started"

    server, port = serve(connection.settings_dict["NAME"], "", tmp_path)
    base = f"http://127.0.0.1:{port}"
    context = installed_browser(browser, tmp_path, base, **SIZES["desktop"])
    try:
        client = Client()
        client.force_login(alice)
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
        )
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
        registration = next(r for r in registrations if r["scopeURL"] == f"{base}/")
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": base, "registrationId": registration["registrationId"], "data": data},
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
                return shown.map(n => [n.title, n.tag, n.data.url]);
            }"""
        )
        assert shown == [[f"Game {game.pk} has started", f"game-{game.pk}", f"/games/{game.pk}/"]]

        # The click (which headless Chromium cannot make) focuses the tab that shows the game,
        # and opens one when none does.
        worker = context.service_workers[0]
        showing = f"windowShowing('/games/{game.pk}/').then(w => w && w.url)"
        assert worker.evaluate(showing) is None
        game_tab = context.new_page()
        game_tab.goto(f"/games/{game.pk}/")
        expect(game_tab.locator("#game")).to_be_visible()
        assert worker.evaluate(showing) == f"{base}/games/{game.pk}/"
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

    public, private = generate_keys()
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
            "keys": {"p256dh": b64encode(b"\x04" + bytes(range(64))), "auth": b64encode(bytes(16))},
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
