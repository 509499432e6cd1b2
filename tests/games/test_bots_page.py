"""Choosing a bot: each level, and how much stronger it is than the one below, with the figures
the arena measured (games.bots.strength), in the player's language."""

import re

from django.urls import reverse

from games.bots import strength


def shown(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_page_states_each_measured_figure_with_its_interval(client):
    answer = client.get(reverse("bots"))
    assert answer.status_code == 200
    text = shown(answer.content.decode())
    for level in ("Easy", "Medium", "Hard", "Expert"):
        assert f" {level} " in text
    measured = strength.measured()
    assert measured
    for figures in measured:
        strong, weak = figures["strong"].title(), figures["weak"].title()
        assert f"{strong} against {weak}" in text
        mean, low, high = figures["facing"]
        assert f"+{mean:.1f} (+{low:.1f} to +{high:.1f})" in text, (strong, weak, figures)
        for level in (figures["strong"], figures["weak"]):
            mean, low, high = (round(100 * v) for v in figures["wins"][level])
            assert f"{mean}%" + (f" ({low} to {high}%)" if low != high else "") in text
    assert "With 3 players Expert plays as Hard does" in text


def test_the_page_speaks_french_with_french_numbers(client):
    answer = client.get(reverse("bots"), headers={"accept-language": "fr"})
    text = shown(answer.content.decode())
    assert '<html lang="fr">' in answer.content.decode()
    mean, low, high = strength.measured()[0]["facing"]
    assert f"+{mean:.1f} (+{low:.1f} à +{high:.1f})".replace(".", ",") in text


def test_the_lobby_and_the_rules_lead_to_it(client, django_user_model):
    bots = reverse("bots")
    assert f'href="{bots}"' in client.get(reverse("lobby")).content.decode()
    assert f'href="{bots}"' in client.get(reverse("rules")).content.decode()
    client.force_login(django_user_model.objects.create_user("alice"))
    lobby = client.get(reverse("lobby")).content.decode()
    assert lobby.count(f'href="{bots}"') == 2, "beside one-click play and the new-game form"
