"""The table as each viewer sees it, measured in Chromium at 1280×800 and 375×812: every card of
the trick lies in front of the panel of the seat that played it (the viewer's own at the
bottom; for a spectator, seat 0's), in the game page and the replay, at 2 to 5 players; the
scorepad fits beside the table during play; names wrap between words and are never cut inside
one. Screenshots go to tests/browser/screenshots/ (seats-*)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Rating, User
from games import engine
from games.actions import create_game, join_game, submit_move
from tests.steering import person_move

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT
from .helpers import DESKTOP, PHONE, assert_no_sideways_scroll, logged_in_context, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

SIZES = {"desktop": DESKTOP, "phone": PHONE}

# Each seat's panel and each card of the trick on the felt, by the name the page gives them.
LAYOUT = """(root) => {
    const felt = document.querySelector(root + " .felt");
    const name = el => el.textContent.replace(/\\s+/g, " ").trim();
    const box = el => {
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    return {
        panels: [...felt.querySelectorAll(".seat[data-seat]")].map(el => ({
            name: name(el.querySelector(".seat-name")), box: box(el),
        })),
        plays: [...felt.querySelectorAll(".center > .trick > .play")].map(el => ({
            name: name(el.querySelector(".play-who").firstChild),
            box: box(el.querySelector(".card")),
        })),
    };
}"""

# Words cut in two: a word drawn over two lines, or cut by its box without an ellipsis.
BROKEN_WORDS = """(selector) => {
    const broken = [];
    for (const label of document.querySelectorAll(selector)) {
        const outer = label.getBoundingClientRect();
        if (outer.width < 3 || outer.height < 3) continue;  // read out only, not drawn
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const rects = [...range.getClientRects()].filter(r => r.width > 0);
                if (!rects.length || rects[0].top >= outer.bottom - 1) continue;  // clamped away
                const lines = new Set(rects.map(r => Math.round(r.top)));
                const said = `"${match[0]}" in "${label.textContent.trim()}"`;
                if (lines.size > 1) broken.push(`${said}: over ${lines.size} lines`);
                const right = Math.max(...rects.map(r => r.right));
                const left = Math.min(...rects.map(r => r.left));
                if (right > outer.right + 1 || left < outer.left - 1) {
                    const holder = node.parentElement;
                    const held = holder.getBoundingClientRect();
                    const style = getComputedStyle(holder);
                    const clean = style.textOverflow === "ellipsis" && style.whiteSpace === "nowrap"
                        && held.right <= outer.right + 1;
                    if (!clean) broken.push(`${said}: cut at the box's edge`);
                }
            }
        }
    }
    return broken;
}"""


def play_out(game, people: dict[int, User], until=lambda state: False) -> engine.GameState:
    """The people at the table move (steered like tests.steering's person), the Easy bots
    answer at once, until ``until`` or the end of the game."""
    for _ in range(5000):
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if until(state) or state.phase == engine.OVER:
            return state
        seat = next(s for s in engine.to_act(state) if s in people)
        submit_move(people[seat], game.pk, game.version, person_move(engine.view(state, seat), ()))
    raise AssertionError("the game did not get there")


def two_people(players: int, target: int | None = 15):
    """alice in seat 0 and bob in seat 2 (seat 1 at 2 players), Easy bots in the others."""
    alice = User.objects.create_user(username="alice", email="alice@example.com", password="pw")
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="pw")
    bob_seat = min(2, players - 1)
    bots = ["easy"] * (players - 1)
    bots[bob_seat - 1] = None
    game = create_game(alice, players=players, bots=bots, target=target)
    join_game(bob, game.pk)
    game.refresh_from_db()
    return game, {0: alice, bob_seat: bob}, bob_seat


def trick_steps(game) -> dict[str, int]:
    """Two moments of round 1: a trick with all but one card played ("playing"), and a trick
    just finished, all its cards still on the table ("taken")."""
    moves = [engine.move_from_json(r.move) for r in game.moves.order_by("number")]
    state = engine.new_game(game.players, game.seed, game.target)
    steps = {}
    for number, move in enumerate(moves, start=1):
        state = engine.apply(state, move)
        if state.round != 1 or state.phase != engine.TRICKS:
            continue
        if len(state.trick) == game.players - 1:
            steps.setdefault("playing", number)
        if not state.trick and state.tricks:
            steps.setdefault("taken", number)
        if len(steps) == 2:
            return steps
    raise AssertionError(f"round 1 never showed both: {steps}")


def edge_distance(point: tuple[float, float], box: dict) -> float:
    x, y = point
    dx = max(box["x"] - x, 0, x - box["x"] - box["width"])
    dy = max(box["y"] - y, 0, y - box["y"] - box["height"])
    return (dx * dx + dy * dy) ** 0.5


def facing(point: tuple[float, float], box: dict) -> bool:
    """The point lies straight across from the box: level with it, or above or below it."""
    x, y = point
    return box["x"] <= x <= box["x"] + box["width"] or box["y"] <= y <= box["y"] + box["height"]


def assert_cards_before_their_seats(page, root: str, where: str, cards: int) -> None:
    """Each card of the trick is in front of its own seat's panel: of the panels it faces
    (level with it, or above or below it), that one is the nearest."""
    layout = page.evaluate(LAYOUT, root)
    assert len(layout["panels"]) == len({p["name"] for p in layout["panels"]}), layout["panels"]
    names = [p["name"] for p in layout["panels"]]
    assert len(layout["plays"]) == cards, f"{where}: {layout['plays']}"
    for play in layout["plays"]:
        assert play["name"] in names, f"{where}: {play['name']} has no panel among {names}"
        box = play["box"]
        card = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        faced = [p for p in layout["panels"] if facing(card, p["box"])] or layout["panels"]
        nearest = min(faced, key=lambda panel: edge_distance(card, panel["box"]))
        assert nearest["name"] == play["name"], (
            f"{where}: {play['name']}'s card at {card[0]:.0f},{card[1]:.0f} lies in front of "
            f"{nearest['name']}'s panel"
        )


@pytest.mark.parametrize("viewer", ["spectator", "player"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_card_of_the_trick_lies_in_front_of_its_seat(browser, live_server, players, viewer):
    game, people, bob_seat = two_people(players)
    play_out(game, people)
    steps = trick_steps(game)
    bottom = 0 if viewer == "spectator" else bob_seat
    with_replay = viewer == "spectator"
    for size, options in SIZES.items():
        if viewer == "player":
            context = logged_in_context(browser, live_server, people[bob_seat], **options)
        else:
            context = browser.new_context(base_url=live_server.url, **options)
            context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        for moment, step in steps.items():
            cards = players - 1 if moment == "playing" else players
            pages = {"game": (f"/games/{game.pk}/?step={step}", "#game")}
            if with_replay:
                pages["replay"] = (f"/games/{game.pk}/replay/?step={step}", "#replay")
            for kind, (url, root) in pages.items():
                page.goto(url)
                where = f"{players}p {viewer} {kind} {moment} {size}"
                expect(page.locator(f"{root} .center > .trick .play")).to_have_count(cards)
                # The seat at the bottom: the viewer's own, or seat 0's for a spectator.
                expect(page.locator(f"{root} .my-area .seat")).to_have_attribute(
                    "data-seat", str(bottom)
                )
                shoot(page, f"seats-{players}p-{viewer}-{kind}-{moment}-{size}")
                assert_cards_before_their_seats(page, root, where, cards)
                if size == "phone":
                    assert_no_sideways_scroll(page)
        context.close()


@pytest.mark.parametrize("players", [4, 5])
def test_the_scorepad_fits_and_names_are_never_cut_inside_a_word(browser, live_server, players):
    """Round 2's board, seen by a seated player (beside the table chat on a laptop): the
    scorepad is whole within the screen, nothing in it scrolls or is cut, and it can be read on
    a phone; the names on the board's first line, the panels and the scorepad wrap between
    words or end in an ellipsis, never inside a word. Every seat shows its rating."""
    game, people, bob_seat = two_people(players, target=None)
    bot_seat = next(seat for seat in game.seats.select_related("user") if seat.user.is_site_bot)
    Rating.objects.create(user=bot_seat.user, mu=27.5, sigma=4.0)  # 1605 ± 168: settled
    Rating.objects.create(user=people[0], mu=25.0, sigma=8.0)  # 1500 ± 336: provisional
    play_out(game, people, until=lambda s: s.round == 2 and s.phase == engine.BOARD)
    for size, options in SIZES.items():
        context = logged_in_context(browser, live_server, people[bob_seat], **options)
        page = context.new_page()
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#game")).to_have_attribute("data-phase", "board")
        pad = page.locator("#game .scorepad")
        expect(pad.locator("tbody tr")).to_have_count(1)
        pad.scroll_into_view_if_needed()
        shoot(page, f"seats-{players}p-scorepad-{size}")
        width = page.viewport_size["width"]
        box = pad.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{size}: scorepad {box}"
        cut = page.evaluate(
            """(pad) => [pad, ...pad.querySelectorAll("*")]
                .filter(el => el.scrollWidth > el.clientWidth + 1
                    && getComputedStyle(el).overflowX !== "visible"
                    && !el.closest(".word, .pad-name"))
                .map(el => el.outerHTML.slice(0, 80))""",
            pad.element_handle(),
        )
        assert not cut, f"{size}: parts of the scorepad scroll or are cut: {cut}"
        table = pad.locator("table").bounding_box()
        assert table["x"] + table["width"] <= box["x"] + box["width"] + 1
        # Readable: every score at a size one can read, inside its column.
        sizes = pad.locator("td").evaluate_all(
            "cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))"
        )
        assert min(sizes) >= 11, sizes
        for selector in (
            "#game .board .line-first .box-label",
            "#game .seat-name",
            "#game .scorepad .pad-name",
        ):
            broken = page.evaluate(BROKEN_WORDS, selector)
            assert not broken, f"{size}: {selector}: {broken}"
        # Every panel, bots' too, shows its player's rating; a provisional one says so.
        panels = page.locator("#game .felt .seat")
        expect(panels).to_have_count(players)
        bot_panel = page.locator(f'#game .seat[data-seat="{bot_seat.position}"]')
        expect(bot_panel.locator(".seat-rating")).to_be_visible()
        expect(bot_panel.locator(".seat-rating")).to_contain_text("1605")
        expect(bot_panel.locator(".seat-rating [title]")).to_have_attribute(
            "title", "Rating: 1605 ± 168"
        )
        alice_rating = page.locator('#game .seat[data-seat="0"] .seat-rating')
        expect(alice_rating).to_contain_text("1500?")
        expect(alice_rating.locator("[title]")).to_have_attribute(
            "title", re.compile(r"^Provisional rating: 1500 ± 336$")
        )
        if size == "phone":
            assert_no_sideways_scroll(page)
        context.close()
