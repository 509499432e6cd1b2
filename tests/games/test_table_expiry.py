"""Tables whose open seats are never filled (issue 17): the sweep aborts them, by nobody, once
they are ``TABLE_EXPIRES_AFTER`` old, and emails each person seated there, once."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.urls import reverse

from games import selectors
from games.actions import ActionError, create_game, join_game
from games.actions.deadlines import due
from games.models import Game, Seat, SentEmail

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
WEEK = timedelta(days=7)
EXPIRED = "This table expired: its open seats were never filled."


def sweep(django_capture_on_commit_callbacks) -> dict:
    """One sweep, with what it queues after commit (the emails) sent."""
    with django_capture_on_commit_callbacks(execute=True):
        return due()


@pytest.fixture
def table(act, alice, bob):
    """A four-seat table: alice, an Easy bot, bob, and one seat nobody takes."""
    game = act(create_game, alice, players=4, bots=["easy", None, None])
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    return game


def open_tables() -> list[int]:
    return [game.pk for game in selectors.lobby(AnonymousUser())["open_games"]]


def test_a_table_left_open_too_long_expires_and_its_people_are_told_once(
    table, clock, django_capture_on_commit_callbacks
):
    assert table.pk in open_tables()
    version = table.version
    mail.outbox.clear()
    clock.advance(days=7, minutes=1)
    assert sweep(django_capture_on_commit_callbacks)["expired"] == 1
    table.refresh_from_db()
    assert table.status == Game.Status.ABORTED and table.aborted_by is None and table.expired
    assert table.finished_at == clock.current and table.version == version + 1
    assert table.pk not in open_tables()
    # one email to each person (alice and bob), none to the bot
    assert sorted(m.to for m in mail.outbox) == [["alice@example.com"], ["bob@example.com"]]
    assert SentEmail.objects.filter(kind="table_expired").count() == 2
    for message in mail.outbox:
        assert f"Game {table.pk}" in message.subject
        assert f"game {table.pk} were never filled" in message.body
        assert reverse("game", args=[table.pk]) in message.body
    # a second sweep finds nothing more to expire and sends nothing more
    clock.advance(minutes=1)
    assert sweep(django_capture_on_commit_callbacks)["expired"] == 0
    assert len(mail.outbox) == 2
    table.refresh_from_db()
    assert table.version == version + 1


def test_a_younger_table_or_a_game_in_play_does_not_expire(act, table, alice, clock):
    in_play = act(create_game, alice, players=2, bots=["easy"])
    assert in_play.status == Game.Status.ACTIVE
    clock.advance(days=7, minutes=-1)
    assert due()["expired"] == 0
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN and table.pk in open_tables()
    clock.advance(days=30)
    assert due()["expired"] == 1  # the table, now old enough; never the game in play
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.ACTIVE


def test_the_setting_sets_the_limit(settings, table, clock):
    settings.TABLE_EXPIRES_AFTER = timedelta(hours=2)
    clock.advance(hours=1, minutes=59)
    assert due()["expired"] == 0
    clock.advance(minutes=2)
    assert due()["expired"] == 1


@pytest.mark.parametrize(("hours", "limit"), [(None, WEEK), ("36", timedelta(hours=36))])
def test_the_limit_comes_from_table_expires_hours(hours, limit):
    environ = {k: v for k, v in os.environ.items() if k != "TABLE_EXPIRES_HOURS"}
    if hours is not None:
        environ["TABLE_EXPIRES_HOURS"] = hours
    code = "from nyet_site import settings; print(settings.TABLE_EXPIRES_AFTER)"
    read = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == str(limit)


def test_people_who_want_no_game_over_email_get_none(
    table, alice, clock, django_capture_on_commit_callbacks
):
    alice.email_game_over = False
    alice.save()
    mail.outbox.clear()
    clock.advance(days=8)
    assert sweep(django_capture_on_commit_callbacks)["expired"] == 1
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_the_expired_table_s_page_says_so_and_joining_it_is_refused(
    act, client, table, alice, make_person, clock
):
    clock.advance(days=8)
    due()
    table.refresh_from_db()
    client.force_login(alice)
    page = client.get(reverse("game", args=[table.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert EXPIRED in html
    assert "None" not in html and "(former player)" not in html
    assert "(open seat)" in html  # the seat nobody took
    assert "Take a seat" not in html and "Leave the table" not in html
    lobby = client.get(reverse("lobby")).content.decode()
    assert "(former player)" not in lobby  # alice's games list it, with its open seat

    carol = make_person("carol")
    seats = list(Seat.objects.filter(game=table).values_list("position", "user_id"))
    with pytest.raises(ActionError) as refused:
        act(join_game, carol, table.pk)
    assert refused.value.code == "expired" and refused.value.message == EXPIRED
    client.force_login(carol)
    answer = client.post(reverse("game_join", args=[table.pk]), headers=HX)
    assert answer.status_code == 200
    assert f'<p class="error" role="alert">{EXPIRED}</p>' in answer.content.decode()
    version = table.version
    table.refresh_from_db()
    assert table.version == version and table.status == Game.Status.ABORTED
    assert list(Seat.objects.filter(game=table).values_list("position", "user_id")) == seats


def test_the_expired_table_and_its_email_in_french(
    table, alice, client, clock, django_capture_on_commit_callbacks
):
    alice.language = "fr"
    alice.save()
    mail.outbox.clear()
    clock.advance(days=8)
    sweep(django_capture_on_commit_callbacks)
    told = next(m for m in mail.outbox if m.to == ["alice@example.com"])
    assert told.subject.endswith(f"La partie {table.pk} a expiré")
    assert "la table a expiré" in told.body
    client.force_login(alice)
    page = client.get(reverse("game", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Cette table a expiré" in page.content.decode()
