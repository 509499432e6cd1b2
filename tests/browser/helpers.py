"""What the browser tests share: logging a browser in, the site under uvicorn with a browser per
person (``Site``), the screenshot folder, the axe-core audit, the phone's first-screen check.
Moving a game on without clicking: ``tests.steering``."""

from __future__ import annotations

from pathlib import Path

from django.test import Client
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from tests.servers import serve, stop

from .conftest import TIMEOUT

HERE = Path(__file__).parent
# Written by every run (git-ignored); CI keeps the folder. See the README.
SCREENSHOTS = HERE / "screenshots"
AXE = HERE / "vendor" / "axe.min.js"

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


# The browser asks for reduced motion unless a test says otherwise: cards then land at once,
# where travelling ones hold every click back until they settle (test_motion.py proves the
# motion; a whole game at the table took 28 s to play its first round moving, 13 s still).
STILL = {"reduced_motion": "reduce"}


def logged_in_context(browser, live_server, user, **options):
    """A browser context (its own cookies) where ``user`` is logged in."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, **{**STILL, **options})
    context.set_default_timeout(TIMEOUT)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def shoot(page, name: str) -> Path:
    """A whole-page screenshot into the screenshots folder."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    return path


def every_violation(page) -> list[str]:
    """axe-core's violations of any impact on the page as it is now, in words, each starting
    with its impact."""
    # The page at rest: a card still flying in (faint as it arrives) is not the page's colours.
    # Endless animations (the turn's glow) are not waited for.
    page.wait_for_function(
        """() => document.getAnimations().every(a => a.playState !== "running"
            || a.effect.getComputedTiming().endTime === Infinity)"""
    )
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the browser's debugger, as the site's policy refuses inline <script> tags.
        page.evaluate(AXE.read_text() + "\n;true")
    results = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => `${v.impact} ${v.id}: ${v.help} -> ` +
                v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "));
        }"""
    )
    return list(results)


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, in words."""
    return [v for v in every_violation(page) if v.split(" ", 1)[0] in ("serious", "critical")]


def assert_accessible(page, where: str) -> None:
    violations = axe_violations(page)
    assert not violations, f"{where} ({page.url}): " + "\n".join(violations)


def assert_no_sideways_scroll(page) -> None:
    wide, screen = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide <= screen, f"{page.url}: {wide}px wide on a {screen}px screen"


def assert_in_first_screen(page, selector: str) -> None:
    """The element is wholly inside the first screen, without scrolling."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (
        f"{selector} spans {box['y']:.0f}-{box['y'] + box['height']:.0f}px of a {height}px screen"
    )


def assert_readable(locator) -> None:
    """The element is drawn at a size one can read, not merely left to screen readers (a
    visually-hidden element is 1px square)."""
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not shown"
    assert box["width"] >= 12 and box["height"] >= 8, (
        f"{locator} is {box['width']}×{box['height']}px"
    )


def wait_for_update(page, version: str) -> None:
    """The table has been swapped for a newer one (a move's answer or a poll), or refused."""
    expect(
        page.locator(f'#game:not([data-version="{version}"]), #game .error').first
    ).to_be_attached()
    error = page.locator("#game .error")
    assert not error.count(), error.first.inner_text()


def people(language: str, *names: str) -> list[User]:
    return [
        User.objects.create_user(
            username=name, email=f"{name}@example.com", password="pw", language=language
        )
        for name in names
    ]


class Site:
    """The site under uvicorn (no Redis: the hub reads the database every 0.2 s, as in
    ``make run``), and a browser context per person."""

    def __init__(self, browser, tmp_path):
        from django.db import connection

        self.browser = browser
        self.connection = connection
        self.server, self.port = serve(connection.settings_dict["NAME"], "", tmp_path)
        self.contexts = []

    def page_of(self, user, size: str):
        client = Client()
        client.force_login(user)
        base = f"http://127.0.0.1:{self.port}"
        context = self.browser.new_context(base_url=base, **{**STILL, **SIZES[size]})
        context.set_default_timeout(TIMEOUT)
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
        )
        self.contexts.append(context)
        return context.new_page()

    def open(self, page, game: Game):
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("html")).to_have_attribute("data-live", "stream")
        # a reload would lose this mark: each check below is made on the same document
        page.evaluate("window.sameDocument = true")

    def close(self):
        for context in self.contexts:
            context.close()
        stop(self.server, self.connection)


# --- push notifications ------------------------------------------------------------------------


# The browser vendor's push service is out of reach here: the page's script meets this stand-in
# for PushManager.subscribe, which keeps the key it was given and answers as Chrome would.
FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = function (options) {
  // kept across the reload that follows
  sessionStorage.subscribedWith = JSON.stringify(Array.from(options.applicationServerKey));
  return Promise.resolve({toJSON: () => (%s)});
};
"""
