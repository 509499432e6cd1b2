"""Taking a seat from the page (issue 31, point 2): the answer is the table with its chat, the
seat's chat comes and goes with the seat, and the spectators' count never counts the players'
own streams, though opened before they sat down."""

import pytest
from django.urls import reverse

from games import live
from games.actions import create_game
from games.live import watcher_token

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def count_here(settings):
    settings.REDIS_URL = ""  # this process's count


def test_the_joiner_gets_the_table_with_its_chat_and_the_leaver_without(client, alice, bob):
    game = create_game(alice, players=4, bots=[None, None, "easy"])
    client.force_login(bob)
    html = client.post(reverse("game_join", args=[game.pk]), headers=HX).content.decode()
    assert html.startswith('<div id="table-and-chat" class="table-and-chat with-chat">')
    assert 'id="chat"' in html and 'id="chat-text"' in html and 'id="game"' in html
    html = client.post(reverse("game_leave", args=[game.pk]), headers=HX).content.decode()
    assert html.startswith('<div id="table-and-chat" class="table-and-chat">')
    assert 'id="chat"' not in html and "Take a seat" in html
    # a refusal comes in the same frame, with its message
    client.force_login(alice)
    html = client.post(reverse("game_join", args=[game.pk]), headers=HX).content.decode()
    assert 'id="table-and-chat"' in html and "You already have a seat at this table." in html


def test_the_count_leaves_out_the_streams_of_the_seated(count_here, client, alice, bob, carol):
    game = create_game(alice, players=3, bots=[None, "easy"])
    bobs, carols, anonymous = (watcher_token(u) for u in (bob.pk, carol.pk, None))
    for token in (watcher_token(alice.pk), bobs, carols, anonymous):
        live.watchers.came(game.pk, token)  # every open page; bob's while he watched
    seated = {alice.pk}
    assert live.watchers.count(game.pk, seated) == 3
    client.force_login(bob)
    client.post(reverse("game_join", args=[game.pk]), headers=HX)  # the table starts
    html = client.get(reverse("game", args=[game.pk]), headers=HX).content.decode()
    assert '<span class="watching">2 watching</span>' in html, "carol and a visitor"
    live.watchers.left(game.pk, carols)
    assert live.watchers.count(game.pk, {alice.pk, bob.pk}) == 1
    assert live.watchers.count(game.pk) == 3, "without the seats: every stream"
