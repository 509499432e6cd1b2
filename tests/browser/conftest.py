"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium, driven by Playwright.

Playwright cannot download its own browsers here, so the tests use the system one and are
skipped, with a line in pytest's summary saying so, when it is not installed.
"""

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_MISSING = "Chromium not installed: apt-get install -y chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Pages and Playwright's expectations wait this long (ms) before failing: the machine is slow.
TIMEOUT = 60_000
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium, for one test module.

    Playwright's sync API keeps an asyncio loop running in this thread while it is started, which
    makes Django refuse database calls from the test (the live server's thread is unaffected), so
    DJANGO_ALLOW_ASYNC_UNSAFE is set for exactly that long.
    """
    if not CHROMIUM.exists():
        pytest.skip(CHROMIUM_MISSING)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield chromium
            chromium.close()


@pytest.fixture
def artifacts():
    """Where screenshots go (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "failure.png").unlink(missing_ok=True)
    return ARTIFACTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """When a test with a ``page`` fails, photograph the page as it was; the report says where."""
    report = yield
    page = item.funcargs.get("page")
    if report.when == "call" and report.failed and page is not None:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / "failure.png"
        try:
            page.screenshot(path=path, full_page=True)
            report.sections.append(("failure screenshot", f"{path} (at {page.url})"))
        except Exception as error:  # the browser itself may be what failed
            report.sections.append(("failure screenshot", f"none: {error}"))
    return report
