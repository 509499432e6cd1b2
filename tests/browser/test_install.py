"""The installable site in Chromium, against the site under uvicorn (issue 35): the service worker
registers and takes charge, Chromium's own installability check (the one behind its install
button, through the DevTools protocol) finds nothing missing, and once the server is down a
page of the site shows the offline page, in the player's language first.

Screenshots: `offline-*.png` in tests/browser/screenshots."""

import pytest
from playwright.sync_api import expect

from tests.servers import serve, stop

from .conftest import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, TIMEOUT
from .helpers import SIZES, STILL, assert_accessible, assert_no_sideways_scroll, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

KEPT = "css/site.css"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_site_installs_and_shows_the_offline_page_when_the_server_is_down(
    on_postgres, browser, tmp_path, size, language
):
    from django.db import connection

    server, port = serve(connection.settings_dict["NAME"], "", tmp_path)
    base = f"http://127.0.0.1:{port}"
    # A profile of its own: Chromium never offers to install from an incognito window, which a
    # plain new context is.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        base_url=base,
        locale=language,
        **{**STILL, **SIZES[size]},
    )
    context.set_default_timeout(TIMEOUT)
    try:
        page = context.pages[0]
        page.goto("/rules/")
        state = page.evaluate(
            """async () => {
                const worker = (await navigator.serviceWorker.ready).active;
                while (worker.state === "activating") {
                    await new Promise(next => worker.addEventListener("statechange", next));
                }
                return worker.state;
            }"""
        )
        assert state == "activated"
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
