"""The table chat in Chromium against the site under uvicorn (as `make run` and production serve
it): a message one player sends appears on the other player's open page through the event
stream, without a reload and without the poll."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from accounts.models import User
from games.actions import create_game, join_game
from tests.servers import serve, stop

from .conftest import CHROMIUM, CHROMIUM_MISSING, TIMEOUT
from .helpers import PHONE, shoot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=CHROMIUM_MISSING),
]


def page_of(browser, port: int, user, **options):
    client = Client()
    client.force_login(user)
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(base_url=base, **options)
    context.set_default_timeout(TIMEOUT)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context, context.new_page()


@pytest.mark.django_db(transaction=True)
def test_a_message_appears_on_the_other_players_page(on_postgres, browser, tmp_path):
    from django.db import connection

    alice, bob = (
        User.objects.create_user(username=name, email=f"{name}@example.com", password="pw")
        for name in ("alice", "bob")
    )
    game = create_game(alice, players=3, bots=["easy"])
    join_game(bob, game.pk)
    server, port = serve(connection.settings_dict["NAME"], "", tmp_path)
    contexts = []
    try:
        alices, alice_page = page_of(browser, port, alice)
        bobs, bob_page = page_of(browser, port, bob, **PHONE)
        contexts = [alices, bobs]
        for page in (alice_page, bob_page):
            page.goto(f"/games/{game.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "stream")
        alice_page.get_by_label("Message to the table").fill("<b>good luck</b> all")
        alice_page.get_by_label("Message to the table").press("Enter")
        expect(alice_page.get_by_label("Message to the table")).to_have_value("")
        expect(alice_page.get_by_label("Message to the table")).to_be_focused()
        expect(bob_page.locator("#chat-lines")).to_contain_text("alice: <b>good luck</b> all")
        assert bob_page.locator("#chat-lines b").count() == 0  # text, not markup
        assert bob_page.evaluate("document.documentElement.dataset.live") == "stream"
        shoot(alice_page, "chat-desktop")
        shoot(bob_page, "chat-phone")
    finally:
        for context in contexts:
            context.close()
        stop(server, connection)
