"""Motion that helps (issue 32, part 6): after each move the table is swapped whole, and the
page makes the pieces travel from where they were (static/js/table.js, "motion"): the card
played goes from the hand to the trick, the other players' cards come from their seats, a taken
trick gathers to its winner's seat, a token comes down on its box. None of it with
prefers-reduced-motion.

Every call of ``Element.animate`` the page makes is written down (``RECORD``, before the page's
own scripts run), with the piece it moves, and whether the browser then holds it among
``document.getAnimations()``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import engine
from games.actions import create_game
from games.models import Game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import SIZES, assert_accessible, logged_in_context, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


RECORD = """
window.motions = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
    const animation = animate.call(this, frames, options);
    const id = options && options.id;
    if (id && id.startsWith("nyet-")) {
        const box = this.closest("[data-box]");
        const play = this.closest(".play[data-seat]");
        const game = document.getElementById("game");
        const won = game && game.querySelector(".trick.finished .play.winning[data-seat]");
        window.motions.push({
            id,
            card: this.dataset.card || null,
            seat: play ? play.dataset.seat : null,
            inTrick: !!this.closest(".center > .trick"),
            to: this.dataset.to || null,
            winner: won ? won.dataset.seat : null,
            box: box ? box.dataset.box : null,
            running: document.getAnimations().includes(animation),
        });
    }
    return animation;
};
// The cards alice has in the middle of the table, on each table shown.
window.mine = [];
document.addEventListener("htmx:afterSwap", () => {
    const game = document.getElementById("game");
    const mine = '.center > .trick .play[data-seat="0"] [data-card]';
    const cards = game ? game.querySelectorAll(mine) : [];
    window.mine.push(...[...cards].map(card => card.dataset.card));
});
"""


def motions(page, id_: str) -> list[dict]:
    return [m for m in page.evaluate("window.motions") if m["id"] == id_]


def alice_at_the_table(monkeypatch, until) -> tuple[User, Game]:
    """Alice at a 3-player table with two Easy bots (the same deal every run), moved on to
    ``until``. The bots' moves are shown one by one (the ``paced`` fixture), as in production:
    with no pause the page would show the newest table at once."""
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 3030)
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=3, bots=["easy", "easy"])
    play_until(game, alice, until)
    game.refresh_from_db()
    return alice, game


@pytest.fixture(autouse=True)
def paced(settings):
    settings.BOT_PAUSE_SECONDS = 0.3


def open_page(browser, live_server, alice, game, size: str, motion: str = "no-preference"):
    context = logged_in_context(browser, live_server, alice, reduced_motion=motion, **SIZES[size])
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
    return page


def my_turn_in_tricks(s: engine.GameState) -> bool:
    return s.phase == engine.TRICKS and s.turn == 0 and len(s.hands[0]) > 3


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_card_played_travels_to_the_trick_and_a_taken_trick_to_its_winner(
    browser, live_server, monkeypatch, size
):
    alice, game = alice_at_the_table(monkeypatch, my_turn_in_tricks)
    page = open_page(browser, live_server, alice, game, size)
    cards = page.locator("#game .hand .card-button.playable")
    card = cards.first.get_attribute("value")
    cards.first.click()

    # The card got to the trick by travelling from the hand.
    page.wait_for_function(
        "card => window.motions.some(m => m.id === 'nyet-travel' && m.card === card"
        " && m.inTrick && m.seat === '0' && m.running)",
        arg=card,
    )
    # The bots' cards come from their seats.
    page.wait_for_function(
        "() => window.motions.some(m => m.id === 'nyet-arrive' && m.inTrick && m.seat !== '0')"
    )
    # Play on until a taken trick leaves the middle of the table: its cards gather to the seat
    # that took it (the trick the table then shows as the last one).
    for _ in range(8):
        if motions(page, "nyet-gather"):
            break
        expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
        version = page.locator("#game").get_attribute("data-version")
        page.locator("#game .hand .card-button.playable").first.click()
        expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()
    page.wait_for_function("() => window.motions.some(m => m.id === 'nyet-gather')")
    gathered = motions(page, "nyet-gather")
    assert {m["to"] for m in gathered} == {gathered[0]["winner"]} != {None}
    assert all(m["running"] for m in gathered)
    # The flying copies are gone when they land, and took no focus meanwhile.
    expect(page.locator(".motion-layer .card")).to_have_count(0)
    assert page.evaluate("!document.activeElement.closest('.motion-layer')")
    shoot(page, f"motion-tricks-{size}")
    assert_accessible(page, f"the table after the motion ({size})")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_token_drops_on_its_box(browser, live_server, monkeypatch, size):
    alice, game = alice_at_the_table(
        monkeypatch, lambda s: s.phase == engine.BOARD and s.turn == 0 and len(s.tokens) >= 2
    )
    page = open_page(browser, live_server, alice, game, size)
    box = page.locator("#game .board button.box.open").first
    chosen = box.get_attribute("data-box")
    box.click()
    expect(page.locator(f'#game .board [data-box="{chosen}"] .token')).to_be_attached()
    page.wait_for_function(
        "box => window.motions.some(m => m.id === 'nyet-token' && m.box === box && m.running)",
        arg=chosen,
    )


def test_nothing_moves_with_reduced_motion(browser, live_server, monkeypatch):
    alice, game = alice_at_the_table(monkeypatch, my_turn_in_tricks)
    page = open_page(browser, live_server, alice, game, "desktop", motion="reduce")
    for _ in range(4):  # cards played, tricks taken and gathered
        expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
        button = page.locator("#game .hand .card-button.playable").first
        card = button.get_attribute("value")
        version = page.locator("#game").get_attribute("data-version")
        button.click()
        expect(page.locator(f'#game:not([data-version="{version}"])')).to_be_attached()
        # The card's table has been on screen: a motion would have started with it.
        page.wait_for_function("card => window.mine.includes(card)", arg=card)
    expect(page.locator("#game")).to_have_attribute("data-my-turn", "1")
    assert page.evaluate("window.motions") == []
    assert (
        page.evaluate(
            "document.getAnimations().filter(a => String(a.id).startsWith('nyet-')).length"
        )
        == 0
    )
