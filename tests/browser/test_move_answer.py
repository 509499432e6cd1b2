"""A move's answer and the table's own fetch (the poll, or a version the stream announced) in
flight together: the move's answer, the newest table, is the one that stays, and the focus is
on what to act on next.

The fetch is made to come back first with a table from halfway through the bots' replies: the
server is held after the first bot's move (the Easy bots answer within the move's request), the
page asks for its table then, and only once that answer is in is the server let go on. Without
care the halfway table takes the place of the table the move was sent from, and htmx drops the
move's answer, its target being gone: the player was left on a stale table until the next poll
changed it under their hands (in test_table.py, while choosing a discard: the focus check after
the discard then looked at a table that had moved on, and failed now and then)."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import tasks
from games.actions import create_game
from games.models import Game
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import DESKTOP, logged_in_context

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

WHAT_TO_DO = {
    "board": ".board button.box",
    "teams": "form[data-teams] input",
    "discard": ".choice-form input",
    "tricks": ".hand .card-button.playable",
}

# The page asks for its table as the stream's "version N" or the poll would, marked so that the
# test lets this one request through, and says whether it went out (htmx sends it at once, or
# not at all).
ASK = """() => {
    let sent = false;
    const mark = (event) => { event.detail.headers["X-Test-Ask"] = "1"; };
    const seen = () => { sent = true; };
    document.addEventListener("htmx:configRequest", mark);
    document.addEventListener("htmx:beforeSend", seen);
    htmx.trigger(document.getElementById("game"), "nyet:moved");
    document.removeEventListener("htmx:configRequest", mark);
    document.removeEventListener("htmx:beforeSend", seen);
    return sent;
}"""


def test_a_fetch_of_the_table_does_not_overtake_a_moves_answer(browser, live_server, monkeypatch):
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 1004)
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=4, bots=["easy"] * 3)
    play_until(game, alice, lambda s: s.phase == "board" and s.turn == 0)

    # The bots' replies stop after the first, until the test lets them go on.
    real = tasks.play_bot_move
    halfway, go = threading.Event(), threading.Event()

    def first_then_wait(game_id, version, now=None):
        moved = real(game_id, version)
        if not halfway.is_set():
            halfway.set()
            go.wait(timeout=30)
        return moved

    context = logged_in_context(browser, live_server, alice, **DESKTOP)
    page = context.new_page()
    # Only the fetch the test asks for reaches the server: no poll makes up for a lost answer.
    page.route(
        "**/poll/**",
        lambda route: (
            route.continue_() if route.request.headers.get("x-test-ask") else route.abort()
        ),
    )
    page.goto(f"/games/{game.pk}/")
    table = page.locator("#game")
    expect(table).to_have_attribute("data-my-turn", "1")
    expect(page.locator(".board button.box:focus")).to_have_count(1)
    before = table.get_attribute("data-version")

    monkeypatch.setattr(tasks, "play_bot_move", first_then_wait)
    try:
        with page.expect_response(lambda response: response.url.endswith("/move/")) as answer:
            page.locator(".board button.box").first.click()
            assert halfway.wait(timeout=30), "the move never reached the bots"
            if page.evaluate(ASK):
                # Its answer is the table halfway: wait until the page has it.
                expect(table).not_to_have_attribute("data-version", before)
            go.set()
        answer.value.finished()
    finally:
        go.set()

    # The move's answer, the bots' replies all in, is the table shown: it is alice's turn.
    final = str(Game.objects.get(pk=game.pk).version)
    expect(table).to_have_attribute("data-version", final, timeout=15_000)
    expect(table).to_have_attribute("data-my-turn", "1")
    where = WHAT_TO_DO[table.get_attribute("data-phase")]
    expect(page.locator(f"{where}:focus")).to_have_count(1)
    context.close()
