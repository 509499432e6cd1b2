"""Every form of the site's pages that changes something has the same guard
(``games.views.answers.person_post``): POST only, a logged-in person, not a bot account, and
only then counted against its limit, the right one."""

import pytest
from django.urls import reverse

from games import limits
from games.actions import create_game
from games.actions.errors import RateLimited

pytestmark = pytest.mark.django_db

# URL name: the limit its POSTs count against.
GUARDED = {
    "tutorial_start": "create",
    "game_create": "create",
    "game_move": "play",
    "game_join": "play",
    "game_leave": "play",
    "game_add_bot": "play",
    "game_seat_bot_account": "play",
    "game_remove_bot": "play",
    "game_start": "play",
    "game_invite_player": "invite",
    "game_come_back": "play",
    "game_resign": "play",
    "game_abort": "play",
    "game_rematch": "create",
    "game_rematch_accept": "play",
    "game_rematch_decline": "play",
}


@pytest.fixture
def counted(monkeypatch):
    """The limit groups counted, in order; each count answers "over the limit", so that the
    view itself never runs and the test sees the guard alone."""
    groups = []

    def hit(request, group):
        groups.append(group)
        raise RateLimited("over", retry_after=1)

    monkeypatch.setattr(limits, "hit", hit)
    return groups


@pytest.fixture
def url_of(alice):
    game = create_game(alice, players=3)

    def url(name):
        if name in ("tutorial_start", "game_create"):
            return reverse(name)
        return reverse(name, args=[game.pk])

    return url


@pytest.mark.parametrize("name", GUARDED)
def test_only_a_person_s_post_is_counted_and_against_its_own_limit(
    client, alice, bob, counted, url_of, name
):
    url = url_of(name)
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    client.force_login(bob)
    assert client.get(url).status_code == 405
    bob.bot_account = True
    bob.save(update_fields=["bot_account"])
    refused = client.post(url, follow=True)
    assert "A bot account plays through the API only" in refused.content.decode()
    assert counted == []
    client.force_login(alice)
    over = client.post(url)
    assert over.status_code == 429
    assert counted == [GUARDED[name]]
