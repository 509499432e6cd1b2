"""The bots' cards at a pace a person can follow (issue 30): the server makes the bots' moves at
once (the tasks run within the move's request here), and the page shows each of them in turn,
the pause apart, before the newest table with its forms.

Alice leads a trick at a 3-player table with two Easy bots: the move's answer is the table after
both bots' cards (and after the next trick's first cards when a bot takes it). The page must
show the trick with 1, 2, then 3 cards: every bot card, and the trick's last card before the
trick is gathered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game
from games.models import Game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import DESKTOP, PHONE, logged_in_context, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

# Each table put on screen, as the trick in the middle shows it: the cards of the trick in play,
# or, when it has none, of the trick just taken (it stays there until the next card).
WATCH = """() => {
    window.shown = [];
    const note = () => {
        const table = document.getElementById("game");
        if (!table) return;
        const moves = table.dataset.moves;
        const last = window.shown[window.shown.length - 1];
        if (last && last.moves === moves) return;
        const playing = table.querySelectorAll('.center [data-zone="trick"] [data-card]').length;
        const taken = table.querySelectorAll('.center [data-zone="last-trick"] [data-card]').length;
        window.shown.push({
            moves, step: table.dataset.step !== undefined,
            cards: playing || taken, at: performance.now(),
        });
    };
    note();
    new MutationObserver(note).observe(document.body, {childList: true, subtree: true});
}"""


def alice_leads(monkeypatch) -> tuple[User, Game]:
    """Alice at a 3-player table with two Easy bots, about to lead a trick (not a round's last)."""
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 3030)
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=3, bots=["easy", "easy"])
    play_until(
        game,
        alice,
        lambda s: s.phase == "tricks" and s.turn == 0 and not s.trick and len(s.hands[0]) > 2,
    )
    game.refresh_from_db()
    return alice, game


# With reduced motion too: the steps are the moves themselves, not an animation.
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_each_bot_card_appears_in_turn(browser, live_server, settings, monkeypatch, motion):
    settings.BOT_PAUSE_SECONDS = 0.2
    alice, game = alice_leads(monkeypatch)
    before = game.moves_made
    context = logged_in_context(browser, live_server, alice, reduced_motion=motion, **DESKTOP)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    table = page.locator("#game")
    expect(table).to_have_attribute("data-my-turn", "1")
    page.evaluate(WATCH)

    with page.expect_response(lambda response: response.url.endswith("/move/")):
        page.locator(".hand .card-button.playable").first.click()

    game.refresh_from_db()
    assert game.moves_made >= before + 3, "the bots answered within the move's request"
    # The newest table fetched again meanwhile (as a pushed version would) is held back too.
    expect(page.locator("#game[data-step]")).to_have_count(1)
    page.evaluate(
        """(url) => htmx.ajax("GET", url, {source: "#game", target: "#game", swap: "outerHTML"})""",
        f"/games/{game.pk}/",
    )
    # The newest table comes last, with alice's cards to play and the focus on them.
    expect(table).to_have_attribute("data-moves", str(game.moves_made))
    expect(page.locator("#game[data-step]")).to_have_count(0)
    expect(table).to_have_attribute("data-my-turn", "1")
    expect(page.locator(".hand .card-button.playable:focus")).to_have_count(1)

    shown = page.evaluate("window.shown")
    after = [s for s in shown if int(s["moves"]) > before]
    # Every move once, in order: the one before the click, then each of the moves after it.
    assert [int(s["moves"]) for s in shown] == list(range(before, game.moves_made + 1)), shown
    assert [s["cards"] for s in after[:3]] == [1, 2, 3], shown
    assert all(s["step"] for s in after[:-1]) and not after[-1]["step"], shown
    # A pace a person can follow: each move stays the pause (less the timer's slack) at least.
    gaps = [b["at"] - a["at"] for a, b in zip(after, after[1:], strict=False)]
    assert all(gap >= 150 for gap in gaps), gaps
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_step_on_the_way_is_read_only(browser, live_server, settings, monkeypatch, size):
    """A past table is shown as it was, without the hand's buttons nor a clock; the pause is
    long here, for the screenshot."""
    settings.BOT_PAUSE_SECONDS = 2
    alice, game = alice_leads(monkeypatch)
    options = DESKTOP if size == "desktop" else PHONE
    context = logged_in_context(browser, live_server, alice, **options)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")

    with page.expect_response(lambda response: response.url.endswith("/move/")):
        page.locator(".hand .card-button.playable").first.click()

    step = page.locator("#game[data-step]")
    expect(step).to_have_count(1)
    expect(page.locator("#game .center [data-zone='trick'] [data-card]").first).to_be_visible()
    assert page.locator("#game form").count() == 0
    assert page.locator("#game .countdown").count() == 0
    shoot(page, f"bot-pacing-step-{size}")
    game.refresh_from_db()
    expect(page.locator("#game")).to_have_attribute("data-moves", str(game.moves_made))
    expect(page.locator(".hand .card-button.playable:focus")).to_have_count(1)
    context.close()


def test_no_steps_while_the_player_chooses_a_discard_with_the_others(
    browser, live_server, settings, monkeypatch
):
    """The others' choices show nothing but "chose": stepping through them would take alice's
    form away, her cards half chosen. Here her page is made two moves behind, as after the
    bots' discards, and fetches the newest table: it comes at once, the form with it."""
    settings.BOT_PAUSE_SECONDS = 2
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 3030)
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=3, bots=["easy", "easy"])
    play_until(game, alice, lambda s: s.phase == "discard" and 0 in engine.to_act(s))
    game.refresh_from_db()
    assert game.moves_made >= 2
    context = logged_in_context(browser, live_server, alice, **DESKTOP)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game .choice-form")).to_have_count(1)
    page.locator("#game .choice-form .card-choice input").first.check()
    page.evaluate(WATCH)
    page.evaluate(
        """(url) => {
            const table = document.getElementById("game");
            table.dataset.moves = String(Number(table.dataset.moves) - 2);
            htmx.ajax("GET", url, {source: "#game", target: "#game", swap: "outerHTML"});
        }""",
        f"/games/{game.pk}/",
    )
    expect(page.locator("#game")).to_have_attribute("data-moves", str(game.moves_made))
    shown = page.evaluate("window.shown")
    assert not any(s["step"] for s in shown), shown
    expect(page.locator("#game .choice-form")).to_have_count(1)
    context.close()


def test_the_player_s_own_card_shows_at_once_then_the_bots_at_the_pause(
    browser, live_server, settings, monkeypatch
):
    """Alice plays within the pause after the last move shown (the page just loaded): her card
    is on the table at once, not the pause later; the bots' cards come the pause apart."""
    settings.BOT_PAUSE_SECONDS = 2
    alice, game = alice_leads(monkeypatch)
    before = game.moves_made
    context = logged_in_context(browser, live_server, alice, **DESKTOP)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
    page.evaluate(WATCH)
    page.evaluate(
        """() => document.addEventListener("click", () => {
            window.clicked = performance.now();
        }, true)"""
    )
    page.locator(".hand .card-button.playable").first.click()
    expect(page.locator("#game")).to_have_attribute("data-moves", str(before + 2))
    shown = page.evaluate("window.shown")
    clicked = page.evaluate("window.clicked")
    own, first_bot = (next(s for s in shown if int(s["moves"]) == before + n) for n in (1, 2))
    # at once: well before the 2 s pause, which the bot's card waits for after it
    assert own["at"] - clicked < 1000, (own, clicked)
    assert first_bot["at"] - own["at"] >= 1900, (own, first_bot)
    context.close()
