"""Staff see what they need in the admin, and not the secrets of games in play: no discard or
pass of a game in play, no hand, and no filter that would tell them by a count."""

import random
from html import unescape

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.actions import create_game, join_game
from games.models import Game, MoveRecord

from .conftest import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_person):
    """A staff account that may view games and their move log (not a superuser)."""
    staff = make_person("staff")
    staff.is_staff = True
    staff.save()
    staff.user_permissions.set(
        Permission.objects.filter(codename__in=["view_game", "view_moverecord"])
    )
    client.force_login(staff)
    return client


def game_with_a_discard(act, alice, bob, make_person):
    carol = make_person("carol")
    game = act(create_game, alice, players=3)
    act(join_game, bob, game.pk)
    act(join_game, carol, game.pk)
    people = [alice, bob, carol]
    for seed in range(50):
        play_out(act, game, people, random.Random(seed), until=lambda s: s.phase == "tricks")
        secret = MoveRecord.objects.filter(game=game, move__has_any_keys=["discard", "pass"])
        if secret.exists():
            return game, list(secret), people
        play_out(act, game, people, random.Random(seed), until=lambda s: s.phase == "board")
    raise AssertionError("no discard or pass")


def cards_of(record: MoveRecord) -> list[str]:
    return record.move.get("discard") or [record.move["pass"]]


def test_the_move_log_keeps_discards_and_passes_secret_while_the_game_is_on(
    act, staff_client, alice, bob, make_person
):
    game, secret, people = game_with_a_discard(act, alice, bob, make_person)
    listing = staff_client.get(reverse("admin:games_moverecord_changelist")).content.decode()
    assert "secret until the game is over" in listing
    assert not any(f'"{card}"' in unescape(listing) for r in secret for card in cards_of(r))
    for record in secret:
        page = staff_client.get(reverse("admin:games_moverecord_change", args=[record.pk]))
        html = unescape(page.content.decode())
        assert page.status_code == 200 and "secret until the game is over" in html
        for card in cards_of(record):
            assert f'"{card}"' not in html
    plays = MoveRecord.objects.filter(game=game, move__has_key="play").first()
    if plays:
        html = staff_client.get(reverse("admin:games_moverecord_change", args=[plays.pk]))
        assert f'"{plays.move["play"]}"' in unescape(html.content.decode())
    # Over: the whole log is history.
    play_out(act, game, people, random.Random(1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    html = staff_client.get(reverse("admin:games_moverecord_change", args=[secret[0].pk]))
    assert all(f'"{card}"' in unescape(html.content.decode()) for card in cards_of(secret[0]))


def test_no_filter_on_a_secret_field(act, staff_client, alice, bob, make_person):
    game, secret, _people = game_with_a_discard(act, alice, bob, make_person)
    card = cards_of(secret[0])[0]
    probes = [
        (reverse("admin:games_moverecord_changelist"), {"move__discard__contains": card}),
        (reverse("admin:games_moverecord_changelist"), {"move__pass": card}),
        (reverse("admin:games_game_changelist"), {"state__hands__0__contains": card}),
        (reverse("admin:games_game_changelist"), {"seed": game.seed}),
    ]
    for path, query in probes:
        assert staff_client.get(path, query).status_code == 400, query  # a refused lookup
