""" "Your games" in the lobby, in sections (issue 31): your turn, waiting for others, your open
tables, and the latest ended (finished, aborted, expired), each game in one, with a link to every
finished game. Both sizes, both languages, no axe violation of any impact, on the lobby and on
the page of every finished game."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.steering import your_games

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    DESKTOP,
    PHONE,
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

SIZES = {"desktop": DESKTOP, "phone": PHONE}
WORDS = {
    "en": {
        "mine": "Your games",
        "sections": ["Your turn", "Waiting for others", "Your open tables", "Finished"],
        "all": "All your finished games",
        "finished": "Finished games of alice",
    },
    "fr": {
        "mine": "Vos parties",
        "sections": ["À vous", "En attente des autres", "Vos tables ouvertes", "Terminées"],
        "all": "Toutes vos parties terminées",
        "finished": "Parties terminées de alice",
    },
}


def run(action, *args, **kwargs):
    """An action as a request runs it: outside a test's transaction, its on-commit work (the
    bots' turns) runs as it commits."""
    return action(*args, **kwargs)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_your_games_in_sections(browser, live_server, language, size):
    alice = User.objects.create_user("alice", "alice@example.org", "pw", language=language)
    bob = User.objects.create_user("bob", "bob@example.org", "pw")
    games = your_games(run, alice, bob)
    words = WORDS[language]
    context = logged_in_context(browser, live_server, alice, **SIZES[size])
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    mine = page.get_by_role("region", name=words["mine"])
    expect(mine.get_by_role("heading", level=3)).to_have_text(words["sections"])
    expected = [[games["turn"]], [games["others"]], [games["open"]], games["ended"]]
    for heading, shown in zip(words["sections"], expected, strict=True):
        links = mine.get_by_role("list", name=heading).get_by_role("link")
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert sorted(hrefs) == sorted(f"/games/{g.pk}/" for g in shown), heading
    assert_no_sideways_scroll(page)
    assert every_violation(page) == []
    shoot(page, f"your-games-{language}-{size}")

    # Every finished game, a page at a time: the link under the latest.
    mine.get_by_role("link", name=words["all"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["finished"])
    assert_no_sideways_scroll(page)
    assert every_violation(page) == []
    context.close()
