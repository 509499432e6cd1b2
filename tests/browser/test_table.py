"""The game table in Chromium, one whole game per player count (2 to 5), at a laptop's size
(1280×800) and a phone's (375×812), in English at 3 and 5 players and in French at 2 and 4.

Round 1 is played in the browser by clicking and, in the trick phase, with the keyboard only;
the rest of the game is moved on through the site's own actions (the Easy bots answer at once)
and the browser comes back for team choice by clicking seats (with Tab and Enter alone at 5
players), the last round, game over with its ranking and rematch, and the replay. The terms are
checked in view in every phase at both sizes. Each phase is photographed at both sizes into
tests/browser/screenshots/ and audited with axe-core.
"""

from __future__ import annotations

import re
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game
from games.engine.cards import SETUPS
from games.models import Game
from tests.steering import play_until, prefer_boxes

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_in_first_screen,
    assert_no_sideways_scroll,
    assert_readable,
    logged_in_context,
    shoot,
    wait_for_update,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

# players: (language, the discard rule steered for in round 1)
GAMES = {2: ("fr", "pass_left"), 3: ("en", "1"), 4: ("fr", "2"), 5: ("en", "pass_left")}
WORDS = {
    "en": {
        "rematch": "Rematch",
        "teams": "Form these teams",
        "final": "Final ranking",
        "over": "Round 1 is over",
        "discard": "Discard",
        "pass": "Pass this card",
        "step": "Move {step} of {total}",
        "bonus": "holds the bonus card",
        "bot": "bot",
    },
    "fr": {
        "rematch": "Revanche",
        "teams": "Former ces équipes",
        "final": "Classement final",
        "over": "La manche 1 est finie",
        "discard": "Défausser",
        "pass": "Passer cette carte",
        "step": "Coup {step} sur {total}",
        "bonus": "tient la carte bonus",
        "bot": "bot",
    },
}


class Table:
    """One person at a game, seen in two browsers: a laptop's and a phone's."""

    def __init__(self, browser, live_server, players: int):
        self.players = players
        self.language, self.rule = GAMES[players]
        self.words = WORDS[self.language]
        self.user = User.objects.create_user(
            username="alice", email="alice@example.com", password="pw", language=self.language
        )
        self.game = create_game(self.user, players=players, bots=["easy"] * (players - 1))
        self.seat = 0
        self.desktop = logged_in_context(browser, live_server, self.user, **DESKTOP).new_page()
        self.phone = logged_in_context(browser, live_server, self.user, **PHONE).new_page()
        self.url = f"/games/{self.game.pk}/"
        self.shot = set()
        self.checked = set()

    def close(self):
        self.desktop.context.close()
        self.phone.context.close()

    @property
    def game_el(self):
        return self.desktop.locator("#game")

    def name(self, phase: str) -> str:
        return f"{self.players}p-{phase}"

    def photograph(self, phase: str, audit: bool = True) -> None:
        """The phase at both sizes: no sideways scroll on the phone, and an axe audit."""
        if phase in self.shot:
            return
        self.shot.add(phase)
        shoot(self.desktop, f"{self.name(phase)}-desktop")
        if audit:
            assert_accessible(self.desktop, self.name(phase))
        self.phone.goto(self.desktop.url)
        expect(self.phone.locator("#game, #replay").first).to_be_visible()
        shoot(self.phone, f"{self.name(phase)}-phone")
        assert_no_sideways_scroll(self.phone)

    # --- round 1, by hand ----------------------------------------------------------------------

    def play_round_one(self) -> dict:
        page = self.desktop
        page.goto(self.url)
        seen = {"phases": [], "tricks_finished_by_me": 0, "keyboard_plays": 0}
        game = self.game_el
        for _ in range(120):
            expect(game).to_be_visible()
            if game.get_attribute("data-round") != "1":
                return seen
            phase = game.get_attribute("data-phase")
            if game.get_attribute("data-my-turn") != "1":
                page.wait_for_timeout(200)  # the bots answer within the request: rare
                continue
            version = game.get_attribute("data-version")
            if phase not in seen["phases"]:
                seen["phases"].append(phase)
            if phase == "board":
                self.photograph("board")
                self.place_token()
            elif phase == "teams":
                self.photograph("teams")
                self.terms_in_view("teams")
                self.choose_teams()
            elif phase == "discard":
                self.photograph("discard")
                self.terms_in_view("discard")
                # The others choose meanwhile: the version to wait past is the one it is sent on.
                version = self.discard_or_pass()
            elif phase == "tricks":
                self.photograph("trick")
                self.terms_in_view("tricks")
                self.phone_fits("phone-fit")
                if self.play_by_keyboard():
                    seen["tricks_finished_by_me"] += 1
                seen["keyboard_plays"] += 1
                continue
            wait_for_update(page, version)
            self.assert_focus_on_what_to_do()
        raise AssertionError(f"round 1 did not end: {seen}")

    def assert_focus_on_what_to_do(self):
        """After a move, when it is our turn again, the focus is on the next thing to act on:
        the board's boxes, the teams form, the cards to discard or pass, or the hand."""
        game = self.game_el
        if game.get_attribute("data-my-turn") != "1" or game.get_attribute("data-round") != "1":
            return
        where = {
            "board": ".board button.box",
            "teams": "form[data-teams] input",
            "discard": ".choice-form input",
            "tricks": ".hand .card-button.playable",
        }[game.get_attribute("data-phase")]
        expect(self.desktop.locator(f"{where}:focus")).to_have_count(1)

    def place_token(self):
        buttons = self.game_el.locator(".board button.box")
        for line, box in prefer_boxes(self.seat, self.players, self.rule):
            wanted = buttons.and_(self.desktop.locator(f'[data-box="{line}:{box}"]'))
            if wanted.count():
                wanted.click()
                return
        others = buttons.and_(self.desktop.locator(f':not([data-box="first:{self.seat}"])'))
        (others if others.count() else buttons).first.click()

    def discard_or_pass(self) -> str:
        """Tick the cards and send them; the version of the table they were sent from."""
        form = self.game_el.locator(".choice-form")
        cards = form.locator("label.card-choice")
        if form.locator("input[name=card]").count():
            cards.last.click()
            self.photograph("pass-chosen", audit=False)
            version = self.game_el.get_attribute("data-version")
            form.get_by_role("button", name=self.words["pass"]).click()
            return version
        wanted = int(re.search(r"(\d+)", form.locator("legend").inner_text()).group(1))
        # The highest cards: never a 1 (the rule may forbid it), there are always enough others.
        values = [
            int(c[1:])
            for c in form.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        ]
        order = sorted(range(len(values)), key=lambda i: -values[i])[:wanted]
        for i in order:
            cards.nth(i).click()
        self.photograph("discard-chosen", audit=False)
        version = self.game_el.get_attribute("data-version")
        form.get_by_role("button", name=self.words["discard"], exact=True).click()
        return version

    def choose_teams(self):
        """Pick the seats: a partner, and at 5 players the bonus holder; read the sentence.
        At 5 players with the keyboard alone (Tab to the seat's button, Enter), else by
        clicking the seats."""
        game = self.game_el
        keyboard = self.players == 5
        partner = (self.seat + 2) % self.players
        seat = game.locator(f'.felt .seat[data-seat="{partner}"]')
        pick = seat.locator(".pick-partner")
        if keyboard:
            self.press_on(pick, "Enter")
        else:
            seat.locator(".seat-figures").click()  # the seat itself, not its name's link
        expect(pick).to_have_attribute("aria-pressed", "true")
        expect(game.locator(f"#partner-{partner}")).to_be_checked()
        if self.players == 5:
            bonus = seat.locator(".pick-bonus")
            if keyboard:
                self.press_on(bonus, "Enter")
            else:
                bonus.click()
            expect(bonus).to_have_attribute("aria-pressed", "true")
            expect(game.locator(f"#bonus-{partner}")).to_be_checked()
        sentence = game.locator("#team-sentence")
        partner_name = seat.locator(".seat-name").inner_text()
        expect(sentence).to_contain_text(partner_name)
        if self.players != 4:
            expect(sentence).to_contain_text(self.words["bonus"])
        self.photograph("teams-chosen")
        version = game.get_attribute("data-version")
        confirm = game.get_by_role("button", name=self.words["teams"])
        if keyboard:
            self.press_on(confirm, "Enter")
        else:
            confirm.click()
        wait_for_update(self.desktop, version)
        expect(game.locator(f'.seat[data-seat="{partner}"] .mark-team')).to_be_visible()
        return partner

    def press_on(self, target, key: str) -> None:
        """Tab from where the focus is until ``target`` has it, as a keyboard user would
        (past the page's end Tab comes round to its start), then press ``key``."""
        page = self.desktop
        for _ in range(100):
            if target.evaluate("el => el === document.activeElement"):
                page.keyboard.press(key)
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {target}")

    def terms_in_view(self, phase: str) -> None:
        """The round's five terms are on screen at both sizes while ``phase`` is decided."""
        if phase in self.checked:
            return
        self.checked.add(phase)
        expect(self.game_el.locator(".terms .term")).to_have_count(5)
        expect(self.game_el.locator(".terms")).to_be_visible()
        self.phone.goto(self.desktop.url)
        expect(self.phone.locator("#game")).to_have_attribute("data-phase", phase)
        expect(self.phone.locator("#game .terms")).to_be_visible()

    def phone_fits(self, check: str, also=()):
        """At 375×812 the turn, the trick and the hand (and ``also``) are all in the first
        screen; the other seats show their team as a chip, and the marks that make room for
        it (bot) are still read out."""
        if check in self.shot:
            return
        self.shot.add(check)
        phone = self.phone
        phone.goto(self.desktop.url)
        expect(phone.locator("#game .status.your-turn")).to_be_visible()
        for selector in ("#game .status", "#game .center", "#game .hand", *also):
            assert_in_first_screen(phone, selector)
        assert_no_sideways_scroll(phone)
        others = phone.locator(".felt .seat:not(.me)")
        if self.players > 2:
            expect(others.locator(".mark-team")).to_have_count(self.players - 1)
            for k in range(self.players - 1):
                assert_readable(others.locator(".mark-team").nth(k))
        for k in range(others.locator(".mark-dealer").count()):
            assert_readable(others.locator(".mark-dealer").nth(k))
        bot = re.compile(rf"^\s*{self.words['bot']}\s*$")
        expect(others.get_by_role("listitem").filter(has_text=bot)).to_have_count(self.players - 1)

    def play_by_keyboard(self) -> bool:
        """Play a card with the keyboard alone: the focus is on the hand already; the arrows
        move along it and Enter plays. True when that card finished the trick."""
        page = self.desktop
        game = self.game_el
        focused = page.locator(":focus")
        expect(focused).to_have_class(re.compile(r"\bcard-button\b"))
        expect(focused).to_have_class(re.compile(r"\bplayable\b"))
        in_trick = game.locator('.trick[data-zone="trick"] [data-card]').count()
        last_to_play = in_trick == self.players - 1
        if in_trick:
            winning = game.locator('.trick[data-zone="trick"] .play.winning')
            expect(winning).to_have_count(1)
            expect(winning).to_be_visible()
        at = "[...document.querySelectorAll('.hand .card-button')].indexOf(document.activeElement)"
        first = page.evaluate(at)
        refused = game.locator(".hand .card-button.unplayable")
        if refused.count() and "why" not in self.checked:
            # Why a card may not be played shows when the keyboard reaches it, not before.
            self.checked.add("why")
            expect(refused.locator(".why").first).to_be_hidden()
            steps = 0
            while not page.evaluate("document.activeElement.matches('.unplayable')"):
                page.keyboard.press("ArrowRight")
                steps += 1
                assert steps <= SETUPS[self.players].hand, "the arrows never reached it"
            reason = page.locator(":focus .why")
            expect(reason).to_be_visible()
            expect(reason).not_to_be_empty()
            for _ in range(steps):
                page.keyboard.press("ArrowLeft")
            assert page.evaluate(at) == first
        if game.locator(".hand .card-button").count() > 1:
            page.keyboard.press("ArrowRight")
            assert page.evaluate(at) == first + 1 or page.evaluate(at) == 0
            page.keyboard.press("ArrowLeft")
            assert page.evaluate(at) == first
        card = focused.get_attribute("value")
        version = game.get_attribute("data-version")
        page.keyboard.press("Enter")
        wait_for_update(page, version)
        if last_to_play:
            # The finished trick stays in view, with its winner, mine among its cards (in the
            # round's summary when it was the round's last).
            done = game.locator('[data-zone="last-trick"], [data-zone="round-summary"]')
            expect(done.locator(f'[data-card="{card}"]').first).to_be_attached()
            expect(done.locator(".play.winning")).to_have_count(1)
            self.photograph("trick-finished")
            if (
                game.get_attribute("data-phase") == "tricks"
                and game.get_attribute("data-my-turn") == "1"
            ):
                self.phone_fits("phone-fit-last-trick", also=['[data-zone="last-trick"]'])
        return last_to_play

    # --- the rest of the game --------------------------------------------------------------------

    def move_on(self, until, prefer=()):
        # No page polls meanwhile: one SQLite database, written by this thread.
        self.desktop.goto("about:blank")
        self.phone.goto("about:blank")
        state = play_until(self.game, self.user, until, prefer)
        self.desktop.goto(self.url)
        return state


@pytest.fixture
def table(request, browser, live_server, monkeypatch):
    # The same deals and the same bot moves on every run: a failure can be replayed.
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: 1000 + request.param)
    table = Table(browser, live_server, request.param)
    yield table
    table.close()


@pytest.mark.parametrize("table", [2, 3, 4, 5], indirect=True, ids=lambda n: f"{n}p")
def test_a_whole_game_at_the_table(table):
    started = time.monotonic()
    n = table.players
    page = table.desktop
    game = table.game_el
    words = table.words

    # Round 1 in the browser.
    seen = table.play_round_one()
    print(f"{n} players: round 1 after {time.monotonic() - started:.1f}s")
    assert {"board", "tricks"} <= set(seen["phases"]), seen
    assert seen["keyboard_plays"] >= SETUPS[n].hand - 2
    # The round summary opens round 2: terms, teams, points spelled out, the last trick.
    summary = game.locator(".round-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("h2")).to_contain_text(words["over"])
    expect(summary.locator(".formula").first).to_contain_text("×")
    expect(summary.locator('[data-zone="round-summary"] [data-card]')).to_have_count(n)
    table.photograph("summary")

    if not seen["tricks_finished_by_me"]:
        # Round 1 never had us play a trick's last card: find a trick where we do.
        table.move_on(
            lambda s: s.phase == "tricks" and s.turn == table.seat and len(s.trick) == n - 1
        )
        assert table.play_by_keyboard()

    # Team choice by clicking seats, if round 1 did not give it to us.
    if n > 2 and "teams" not in seen["phases"]:
        me = str(table.seat)
        table.move_on(
            lambda s: s.phase == "teams" and s.turn == table.seat,
            prefer=prefer_boxes(table.seat, n, table.rule),
        )
        expect(game).to_have_attribute("data-phase", "teams")
        expect(game.locator(f'.seat[data-seat="{me}"] .mark-first')).to_be_visible()
        table.photograph("teams")
        table.terms_in_view("teams")
        table.choose_teams()

    # A discard or pass round, if round 1 had none: the terms stay in view while choosing.
    if "discard" not in seen["phases"]:
        table.move_on(
            lambda s: s.phase == "discard" and s.choices[table.seat] is None,
            prefer=prefer_boxes(table.seat, n, table.rule),
        )
        expect(game).to_have_attribute("data-phase", "discard")
        table.photograph("discard")
        table.terms_in_view("discard")

    # The last round: the terms stay in view in the trick phase.
    last = SETUPS[n].rounds
    table.move_on(lambda s: s.round == last and s.phase == "tricks" and s.turn == table.seat)
    expect(game.locator(".round-number")).to_contain_text(str(last))
    table.photograph("last-round")
    table.checked.discard("tricks")
    table.terms_in_view("tricks")
    # No check was steered round: the terms in every phase, a card's refusal on the keyboard,
    # the phone's first screen beside a finished trick.
    phases = {"discard", "tricks"} | ({"teams"} if n > 2 else set())
    assert phases | {"why"} <= table.checked, table.checked
    assert "phone-fit-last-trick" in table.shot

    # Game over: ranked, the rating moved, a rematch with the same seats.
    table.move_on(lambda s: False)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    over = game.locator(".game-over")
    expect(over.get_by_role("heading", name=words["final"])).to_be_visible()
    expect(over.locator(".ranking li")).to_have_count(n)
    totals = [
        int(re.search(r"-?\d+", t).group()) for t in over.locator(".rank-total").all_inner_texts()
    ]
    assert totals == sorted(totals, reverse=True)
    expect(over.locator(".rank-rating")).to_have_count(n)  # every seat's, the bots' too
    expect(over.locator(".rank-rating").first).to_contain_text("→")
    expect(game.locator('[data-zone="round-summary"] [data-card]')).to_have_count(n)
    table.photograph("game-over")

    print(f"{n} players: game over after {time.monotonic() - started:.1f}s")
    # The replay, every move of the game, stepped through with the keyboard.
    replay(table)
    print(f"{n} players: replayed after {time.monotonic() - started:.1f}s")

    page.goto(table.url)
    with translation.override(table.language):
        bots = [str(seat.name) for seat in table.game.seats.select_related("game", "user")[1:]]
    game.get_by_role("button", name=words["rematch"]).click()
    expect(page).not_to_have_url(re.compile(rf"/games/{table.game.pk}/$"))
    rematch = Game.objects.get(rematch_of=table.game)
    assert page.url.endswith(f"/games/{rematch.pk}/")
    assert rematch.status == Game.Status.ACTIVE  # bots only: it starts at once
    for s, name in enumerate(bots, start=1):
        expect(game.locator(f'.seat[data-seat="{s}"] .seat-name')).to_have_text(name)
    print(f"{n} players: {time.monotonic() - started:.1f}s, round 1: {seen}")


KEYS_TO_STEP = """async ([first, last]) => {
    for (let step = first; step <= last; step++) {
        document.body.dispatchEvent(
            new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
        const asked = performance.now();
        await new Promise((done, fail) => {
            const shown = () => document.querySelector(`#replay[data-step="${step}"]`)
                ? done()
                : performance.now() - asked > 30000
                ? fail(new Error(`the replay never showed move ${step}`))
                : requestAnimationFrame(shown);
            shown();
        });
    }
}"""


def replay(table):
    """The replay from the deal, every hand shown: through the first board move by move with the
    → key, then round by round, End and Home. (Every step's table is checked against the engine
    without a browser: tests/games/test_table_pages.py.)"""
    n = table.players
    page = table.desktop
    total = table.game.moves.count()
    page.goto(f"/games/{table.game.pk}/replay/")
    replay = page.locator("#replay")
    words = table.words["step"]
    expect(replay.locator(".replay-step")).to_have_text(words.format(step=0, total=total))
    hands = replay.locator('[data-zone="replay-hands"]')
    expect(hands).to_have_count(table.players)
    for k in range(table.players):
        expect(hands.nth(k).locator("[data-card]")).to_have_count(SETUPS[table.players].hand)
    table.photograph("replay-deal")

    def step_to(number):
        page.wait_for_function(
            f"() => document.querySelector('#replay[data-step=\"{number}\"]') !== null",
            polling="raf",
        )

    # The first board's moves with the → key, then round by round. The first ten are real key
    # presses; the rest the same key events sent inside the page (two round trips fewer each).
    last = n + 14
    began = time.monotonic()
    for number in range(1, min(last, 10) + 1):
        page.keyboard.press("ArrowRight")
        step_to(number)
    middle = max(10, last // 2)
    for start, end in ((11, middle), (middle + 1, last)):
        if start <= end:
            page.evaluate(KEYS_TO_STEP, [start, end])
            step_to(end)
        if end == middle:
            table.photograph("replay-middle")
    print(f"replay: {last} steps in {time.monotonic() - began:.1f}s")
    rounds = replay.locator(".replay-rounds a")
    for k in range(1, rounds.count()):
        rounds.nth(k).click()
        expect(rounds.nth(k)).to_have_attribute("aria-current", "step")
    page.keyboard.press("End")
    step_to(total)
    expect(replay.locator(".replay-step")).to_have_text(words.format(step=total, total=total))
    expect(replay.locator('[data-zone="round-summary"] [data-card]')).to_have_count(table.players)
    page.keyboard.press("Home")
    step_to(0)
