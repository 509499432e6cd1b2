"""A newcomer finds the tutorial on the rules page and plays its round to the end by following
the hints, as shown on the real table: in English and French, on a desktop and a phone. Each
step shows a hint (and on the player's move a suggested move, marked on the table); the end says
the tutorial is finished. axe finds nothing serious on any step."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    SCREENSHOTS,
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

MAX_MOVES = 60  # the round asks the newcomer for about 22 moves
WORDS = {
    "en": {"done": "You finished the tutorial", "try": "Try: ", "board": "The Board"},
    "fr": {"done": "Vous avez terminé le tutoriel", "try": "Essayez : ", "board": "Le plateau"},
}


def photograph(page, name: str) -> None:
    shoot(page, name)


def follow(page, hint) -> str:
    """Make the hint's suggested move with the table's own controls; its kind."""
    suggestion = hint.locator(".tutorial-try")
    kind = suggestion.get_attribute("data-kind")
    value = suggestion.get_attribute("data-value")
    game = page.locator("#game")
    if kind == "token":
        box = game.locator("button.box.suggested")
        expect(box).to_have_attribute("data-box", value)
        box.click()
    elif kind == "teams":
        form = game.locator("form[data-teams]")
        for seat in value.split(","):
            form.locator(f"#partner-{seat}").check(force=True)
        form.locator("button[type=submit]").click()
    elif kind in ("pass", "discard"):
        form = game.locator(".choice-form")
        chosen = form.locator(".card-choice.suggested input")
        expect(chosen).to_have_count(len(value.split(",")))
        for i in range(chosen.count()):
            chosen.nth(i).check(force=True)
        form.locator("button[type=submit]").click()
    else:
        card = game.locator(".hand .card-button.suggested")
        expect(card).to_have_attribute("value", value)
        card.click()
    return kind


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_newcomer_completes_the_tutorial_by_following_its_hints(
    browser, live_server, language, size
):
    words = WORDS[language]
    user = User.objects.create_user(
        username="newcomer", email="new@example.com", password="pw", language=language
    )
    context = logged_in_context(browser, live_server, user, **SIZES[size])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = f"tutorial-{language}-{size}"

    page.goto("/rules/")
    page.locator('a[href="/tutorial/"]').first.click()
    expect(page).to_have_url(f"{live_server.url}/tutorial/")
    assert_accessible(page, "the tutorial's page")
    photograph(page, f"{name}-intro")
    page.locator('form[action="/tutorial/start/"] button').click()
    game_row = Game.objects.get(tutorial=True, seats__user=user)
    expect(page).to_have_url(f"{live_server.url}/games/{game_row.pk}/")

    hint = page.locator("#tutorial-hint")
    ready = page.locator("#tutorial-hint .tutorial-try, #tutorial-hint.tutorial-done").first
    steps, kinds = [], []
    for _ in range(MAX_MOVES):
        expect(ready).to_be_visible()
        step = hint.get_attribute("data-step")
        expect(hint.locator("h2")).not_to_be_empty()
        if step not in steps:  # each step once: photographed and audited
            steps.append(step)
            assert_accessible(page, f"the tutorial's {step} step")
            assert_no_sideways_scroll(page)
            photograph(page, f"{name}-{step}")
        if step == "done":
            break
        expect(hint.locator(".tutorial-try")).to_contain_text(words["try"])
        version = page.locator("#game").get_attribute("data-version")
        kinds.append(follow(page, hint))
        expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()
        error = page.locator("#game .error")
        assert not error.count(), error.first.inner_text()
    else:
        raise AssertionError(f"the tutorial did not end: {steps}, {kinds}")

    assert steps == ["board", "teams", "discard", "tricks", "done"], steps
    assert set(kinds) == {"token", "teams", "pass", "play"}, kinds
    expect(hint.locator("h2")).to_have_text(words["done"])
    expect(hint.get_by_role("link")).to_have_count(2)  # play against bots, the rules
    game_row.refresh_from_db()
    assert game_row.status == Game.Status.FINISHED
    assert errors == [], errors
    assert (SCREENSHOTS / f"{name}-done.png").exists()
    context.close()
