""" "Play forced cards for me" on the settings page (issue 32, part 7): off by default, said with
what it does, and saved like the other preferences."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_option_is_off_by_default_and_explained(client, alice):
    client.force_login(alice)

    html = client.get(reverse("settings")).content.decode()

    assert not alice.play_forced_cards
    assert 'name="play_forced_cards"' in html
    assert 'name="play_forced_cards" aria-describedby="id_play_forced_cards_helptext"' in html
    assert '<label for="id_play_forced_cards">Play forced cards for me</label>' in html
    assert 'id="id_play_forced_cards_helptext">When only one card may be played' in html


@pytest.mark.parametrize(("sent", "saved"), [({"play_forced_cards": "on"}, True), ({}, False)])
def test_the_option_is_saved(client, alice, sent, saved):
    alice.play_forced_cards = not saved
    alice.save(update_fields=["play_forced_cards"])
    client.force_login(alice)

    response = client.post(reverse("settings"), {"email_turn": "at_once", **sent})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.play_forced_cards is saved
