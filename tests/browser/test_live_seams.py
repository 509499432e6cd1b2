"""Where a game's features meet, in Chromium against the site under uvicorn, with the pages of
several people open at once (issue 31, points 2 and 4): a seat taken or left at a waiting table
and a rematch asked for, declined or accepted reach every open page of that game through its
event stream, without a reload. At a laptop's size and a phone's, in English and in French.

- The player who takes a seat through the page's form gets the table chat at once, and the
  count of spectators counts neither them nor the other players.
- A rematch as on lichess: the offer shows on the other player's page with Accept and Decline,
  a decline is said on the asker's page, and an accepted offer moves both players' pages to the
  new game (a spectator's gets a link to it).

Screenshots: `live-*.png` in tests/browser/screenshots (the joiner's page with the chat, the offer
on the other player's page, the asker's waiting state)."""

import random
import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game, join_game
from games.models import Game
from tests.games.conftest import play_out

from .conftest import CHROMIUM, CHROMIUM_MISSING
from .helpers import Site, assert_accessible, people, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]

# The French waits for the catalogue's merge of /tmp/brief/fr-live.po.
WORDS = {
    "en": {
        "take": "Take a seat",
        "chat": "Table chat",
        "message": "Message to the table",
        "leave": "Leave the table",
        "start": "Start now (bots fill the open seats)",
        "one_watching": "1 watching",
        "rematch": "Rematch",
        "offered": "You offered a rematch.",
        "waiting": "Waiting for bob…",
        "offers": "alice offers a rematch.",
        "accept": "Accept",
        "decline": "Decline",
        "cancel": "Cancel the rematch",
        "declined": "bob declined the rematch.",
        "watch": "Watch the rematch (game {number})",
    },
    "fr": {
        "take": "Prendre une place",
        "chat": "Discussion de la table",
        "message": "Message à la table",
        "leave": "Quitter la table",
        "start": "Commencer maintenant (des bots prennent les places libres)",
        "one_watching": "1 spectateur",
        "rematch": "Revanche",
        "offered": "Vous avez proposé une revanche.",
        "waiting": "En attente de bob…",
        "offers": "alice propose une revanche.",
        "accept": "Accepter",
        "decline": "Refuser",
        "cancel": "Annuler la revanche",
        "declined": "bob a refusé la revanche.",
        "watch": "Regarder la revanche (partie {number})",
    },
}
CASES = [
    pytest.param(size, language, id=f"{size}-{language}")
    for language in ("en", "fr")
    for size in ("desktop", "phone")
]


@pytest.fixture
def site(browser, tmp_path):
    opened = Site(browser, tmp_path)
    yield opened
    opened.close()


# The version of the last table htmx swapped in and settled, on this page (its public event).
SETTLED = """document.addEventListener("htmx:afterSettle", () => {
    const table = document.getElementById("game");
    if (table) window.settledVersion = table.dataset.version;
})"""


def photograph(page, name: str) -> None:
    shoot(page, f"live-{name}")


def same_document(*pages) -> None:
    for page in pages:
        assert page.evaluate("window.sameDocument === true"), f"{page.url} was reloaded"


def seat_list(page):
    return page.locator("#game .seat-list")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("size", "language"), CASES)
def test_a_seat_taken_and_left_shows_everywhere_and_the_joiner_gets_the_chat(
    on_postgres, site, size, language
):
    words = WORDS[language]
    alice, bob, carol = people(language, "alice", "bob", "carol")
    game = create_game(alice, players=4, bots=[None, None, "easy"])
    alices, bobs, carols = (site.page_of(user, size) for user in (alice, bob, carol))
    for page in (alices, bobs, carols):
        site.open(page, game)
    expect(bobs.locator("#chat")).to_have_count(0)  # a spectator has no chat

    bobs.get_by_role("button", name=words["take"]).click()
    # bob's own page: the chat at once, with its box
    expect(bobs.locator("#chat")).to_be_visible()
    expect(bobs.get_by_role("heading", name=words["chat"])).to_be_visible()
    expect(bobs.get_by_label(words["message"])).to_be_editable()
    # the others' pages: bob in his seat, pushed
    for page in (alices, carols):
        expect(seat_list(page)).to_contain_text("bob")
    photograph(bobs, f"joiner-chat-{size}-{language}")
    assert_accessible(bobs, "the joiner's page with its chat")

    bobs.get_by_role("button", name=words["leave"]).click()
    expect(bobs.locator("#chat")).to_have_count(0)
    for page in (alices, carols):
        expect(seat_list(page)).not_to_contain_text("bob")

    bobs.get_by_role("button", name=words["take"]).click()
    expect(bobs.locator("#chat")).to_be_visible()
    expect(seat_list(alices)).to_contain_text("bob")
    alices.get_by_role("button", name=words["start"]).click()

    # In play: every page counts one spectator, carol; not bob, whose stream opened while he
    # was one, nor alice.
    for page in (alices, bobs, carols):
        expect(page.locator("#game .watching")).to_have_text(words["one_watching"])
    # and the chat bob was given works both ways
    bobs.get_by_label(words["message"]).fill("hello from bob")
    bobs.get_by_label(words["message"]).press("Enter")
    expect(alices.locator("#chat-lines")).to_contain_text("bob: hello from bob")
    photograph(bobs, f"joiner-in-play-{size}-{language}")
    same_document(alices, bobs, carols)


def finished_duel(language: str) -> tuple[Game, User, User, User]:
    """alice and bob with an Easy bot, played out by random moves; carol watches."""
    alice, bob, carol = people(language, "alice", "bob", "carol")
    game = create_game(alice, players=3, bots=[None, "easy"], target=10)
    join_game(bob, game.pk)
    game = play_out(lambda action, *a, **k: action(*a, **k), game, [alice, bob], random.Random(7))
    assert game.status == Game.Status.FINISHED
    return game, alice, bob, carol


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("size", "language"), CASES)
def test_a_rematch_offer_reaches_the_other_pages_and_starts_the_game_for_both(
    on_postgres, site, size, language
):
    words = WORDS[language]
    game, alice, bob, carol = finished_duel(language)
    alices, bobs = site.page_of(alice, size), site.page_of(bob, size)
    carols = site.page_of(carol, "desktop")
    for page in (alices, bobs, carols):
        site.open(page, game)

    alices.get_by_role("button", name=words["rematch"], exact=True).click()
    expect(alices.locator("#rematch")).to_contain_text(words["offered"])
    expect(alices.locator("#rematch")).to_contain_text(words["waiting"])
    expect(alices.get_by_role("button", name=words["cancel"])).to_be_visible()
    # bob's open page: the offer, with its two answers
    offer = bobs.locator("#rematch")
    expect(offer).to_contain_text(words["offers"])
    expect(offer.get_by_role("button", name=words["accept"])).to_be_visible()
    expect(offer.get_by_role("button", name=words["decline"])).to_be_visible()
    expect(carols.locator("#rematch")).to_contain_text(words["waiting"])
    offer.scroll_into_view_if_needed()
    photograph(bobs, f"rematch-offer-{size}-{language}")
    photograph(alices, f"rematch-waiting-{size}-{language}")
    assert_accessible(bobs, "the rematch offer")
    assert_accessible(alices, "the asker's waiting state")

    offer.get_by_role("button", name=words["decline"]).click()
    for page in (alices, bobs, carols):
        expect(page.locator("#rematch")).to_contain_text(words["declined"])
    photograph(alices, f"rematch-declined-{size}-{language}")

    # asked again, accepted from the keyboard: both players' pages go to the new game
    bobs.evaluate(SETTLED)
    alices.get_by_role("button", name=words["rematch"], exact=True).click()
    accept = bobs.locator("#rematch").get_by_role("button", name=words["accept"])
    expect(accept).to_be_visible()
    # Pressed once the table that shows it has settled: htmx readies a swapped table's forms
    # as it settles, and a key pressed before went nowhere (a flaky failure, twice in CI).
    version = bobs.locator("#game").get_attribute("data-version")
    bobs.wait_for_function("version => window.settledVersion === version", arg=version)
    accept.focus()
    expect(accept).to_be_focused()
    bobs.keyboard.press("Enter")
    expect(bobs).to_have_url(re.compile(rf"/games/(?!{game.pk}/)\d+/$"))
    new = Game.objects.get(rematch_of=game)
    assert new.status == Game.Status.ACTIVE
    assert {s.position: s.user_id for s in new.seats.all()} == {
        s.position: s.user_id for s in game.seats.all()
    }
    for page in (alices, bobs):
        expect(page).to_have_url(re.compile(rf"/games/{new.pk}/$"))
        expect(page.locator("#game")).to_have_attribute("data-game", str(new.pk))
    expect(carols.get_by_role("link", name=words["watch"].format(number=new.pk))).to_be_visible()
    same_document(carols)
