"""Presence after logging in (issue 11, defect 2): the login itself and the first request after
it record that the player is on the site, so that "your turn" emails start again afterwards."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from games import engine
from games.actions.deadlines import due
from tests.conftest import PASSWORD

from .conftest import correspondence_game, state_of

pytestmark = pytest.mark.django_db


def log_in(client):
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302


def test_logging_in_and_the_first_page_after_record_presence(client, alice, clock):
    assert client.get(reverse("account_login")).status_code == 200  # anonymous: no presence
    clock.advance(seconds=5)
    log_in(client)
    alice.refresh_from_db()
    assert alice.last_seen == clock.current
    clock.advance(seconds=5)
    client.get(reverse("lobby"))
    alice.refresh_from_db()
    assert alice.last_seen == clock.current, "the first request after logging in counts"
    clock.advance(seconds=5)
    client.get(reverse("lobby"))
    alice.refresh_from_db()
    assert alice.last_seen == clock.current - timedelta(seconds=5), "then once a minute"


def test_a_player_back_from_an_email_link_gets_the_next_your_turn_email(
    act, client, alice, clock, django_capture_on_commit_callbacks
):
    def sweep():
        with django_capture_on_commit_callbacks(execute=True):
            due()

    alice.email_reminders = False
    alice.save()
    game = correspondence_game(act, alice, bots=("easy",))
    clock.advance(minutes=10)
    sweep()
    assert [m.subject for m in mail.outbox] == [f"Your turn in game {game.pk}"]
    clock.advance(hours=1)  # she follows the link, logs in, moves and leaves
    client.get(reverse("game", args=[game.pk]))
    log_in(client)
    client.get(reverse("game", args=[game.pk]))
    game.refresh_from_db()
    move = engine.view(state_of(game), 0)["legal"][0]
    del move["seat"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("game_move", args=[game.pk]),
            {"version": game.version, "kind": next(iter(move)), **form_fields(move)},
        )
    assert game.moves.filter(seat=0, by_bot=False).count() == 1
    assert 0 in engine.to_act(state_of(game)), "her turn again, once the bot has answered"
    clock.advance(minutes=10)
    sweep()
    assert len(mail.outbox) == 2 and mail.outbox[1].subject == f"Your turn in game {game.pk}"


def form_fields(move: dict) -> dict:
    kind, arg = next(iter(move.items()))
    if kind == "token":
        return {"box": ":".join(arg)}
    if kind == "discard":
        return {"cards": arg}
    return {"card": arg}  # pass or play (no team choice at 2 players)
