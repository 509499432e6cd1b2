"""A second click on the table while a move is on its way sends nothing (``hx-sync`` on the
felt, games/_play.html): the move forms share one request at a time.

Without it htmx queues the second click's request and sends it once the first is answered. The
first answer usually takes the form away, and the queued request with it; but when bots have
replied meanwhile, live.js holds that answer back to show their moves one by one, the old form
stays on screen, and the queued request goes out: a second move with a stale version, which the
server refuses, its refusal then shown in place of the table the player was following. The server
is held on the first move until the second click is made, so the two always overlap."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import actions
from games.actions import create_game
from games.models import Game, MoveRecord
from tests.steering import play_until

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import DESKTOP, logged_in_context

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


def test_a_second_click_while_the_move_is_on_its_way_sends_nothing(
    browser, live_server, monkeypatch, settings
):
    # The bots' replies are shown one by one, so the answer is held and the form stays.
    settings.BOT_PAUSE_SECONDS = 0.3
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 1004)
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    game = create_game(alice, players=4, bots=["easy"] * 3)
    play_until(game, alice, lambda s: s.phase == "board" and s.turn == 0)
    alices = MoveRecord.objects.filter(game=game, seat=game.seats.get(user=alice).position)
    alices_before = alices.count()

    real = actions.submit_move
    arrived, go = threading.Event(), threading.Event()

    def held(*args, **kwargs):
        arrived.set()
        go.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(actions, "submit_move", held)

    context = logged_in_context(browser, live_server, alice, **DESKTOP)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    table = page.locator("#game")
    expect(table).to_have_attribute("data-my-turn", "1")
    posts = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.post_data)
            if request.method == "POST" and request.url.endswith("/move/")
            else None
        ),
    )
    boxes = page.locator(".board button.box")
    try:
        with page.expect_response(lambda response: response.url.endswith("/move/")) as answer:
            boxes.nth(0).click()
            assert arrived.wait(timeout=30), "the move never reached the server"
            boxes.nth(1).click()  # on the same form, still on screen
            go.set()
        answer.value.finished()
    finally:
        go.set()

    # The bots' replies are all shown: it is alice's turn again, on the newest table.
    final = str(Game.objects.get(pk=game.pk).version)
    expect(table).to_have_attribute("data-version", final)
    expect(table).to_have_attribute("data-my-turn", "1")
    expect(table.locator(".error")).to_have_count(0)
    assert len(posts) == 1, posts
    assert alices.count() == alices_before + 1
    context.close()
