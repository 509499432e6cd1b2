"""The result as a player reads it (issue 31): after a resign, the game-over page names the winner
from the ranking, never the seat that left, and says why a higher score is last; the ratings read
as 1500-scale values with their "?" while provisional. English and French, both sizes."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.steering import finish_with_top_resigned

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
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

WORDS = {
    "en": {
        "winner": "Winner:",
        "why": "{name} scored more, but resigned: ranked last.",
        "tag": "resigned: ranked last",
        "rating": r"rating 1500\? → \d{4}\? \([+−]\d+\)",
        "rated": r"± \d+ after 1 rated game",
    },
    "fr": {
        "winner": "Gagnant :",
        "why": "{name} a marqué davantage, mais a abandonné : classé dernier.",
        "tag": "a abandonné : classé dernier",
        "rating": r"classement 1500\? → \d{4}\? \([+−]\d+\)",
        "rated": r"± \d+ après 1 partie classée",
    },
}


def run(action, *args, **kwargs):
    return action(*args, **kwargs)  # no transaction here: on-commit work runs at once


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_game_over_page_after_a_resign_names_the_true_winner(browser, live_server, language):
    people = [
        User.objects.create_user(
            username=name, email=f"{name}@example.com", password="pw", language=language
        )
        for name in ("ann", "ben", "cid")
    ]
    game, gone = finish_with_top_resigned(run, *people)
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.position)
    others = [s for s in seats if s.user_id != gone.pk]
    winner = max(others, key=lambda s: s.score)
    words = WORDS[language]
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        for viewer in (winner.user, gone):
            context = logged_in_context(browser, live_server, viewer, **options)
            page = context.new_page()
            page.goto(f"/games/{game.pk}/")
            line = page.locator(".winner-line")
            expect(line).to_contain_text(f"{words['winner']} {winner.user.name}")
            expect(line).to_contain_text(words["why"].format(name=gone.name))
            rows = page.locator(".ranking li")
            expect(rows).to_have_count(3)
            expect(rows.first).to_contain_text(winner.user.name)
            expect(rows.last).to_contain_text(gone.name)
            expect(rows.last).to_contain_text(words["tag"])
            expect(rows.first.locator(".rank-rating")).to_have_text(re.compile(words["rating"]))
            if viewer == gone:
                shoot(page, f"result-after-resign-{language}-{size}")
                assert_no_sideways_scroll(page)
                page.goto(f"/players/{winner.user.username}/")
                expect(page.locator("p.rating")).to_have_text(re.compile(words["rated"]))
                shoot(page, f"result-profile-{language}-{size}")
                page.goto(f"/games/{game.pk}/replay/?step={game.moves.count()}")
                expect(page.locator(".winner-line")).to_contain_text(
                    words["why"].format(name=gone.name)
                )
                expect(page.locator(".ranking li").last).to_contain_text(gone.name)
                shoot(page, f"result-replay-end-{language}-{size}")
                assert every_violation(page) == []
            context.close()
