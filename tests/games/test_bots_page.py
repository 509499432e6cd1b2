"""Choosing a bot: each level, and how much stronger it is than the one below, with the figures
the arena measured (games.bots.strength), in the player's language."""

import math
import re

import pytest
from django.urls import reverse

from games.bots import strength
from games.views.lobby import _spread


def shown(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def points(value: float) -> str:
    tenths = math.floor(value * 10 + 0.5)
    return ("+" if tenths > 0 else "") + f"{tenths / 10:.1f}"


def percent(value: float) -> str:
    return str(math.floor(100 * value + 0.5))


def test_the_page_states_each_published_figure_with_its_interval(client):
    answer = client.get(reverse("bots"))
    assert answer.status_code == 200
    text = shown(answer.content.decode())
    for level in ("Easy", "Medium", "Hard", "Expert"):
        assert f" {level} " in text
    published = strength.published()
    assert len(published) >= 3, "Medium against Easy at 3, 4 and 5 players at least"
    for figures in published:
        strong, weak = figures["strong"].title(), figures["weak"].title()
        assert f"{strong} against {weak}" in text
        for measure in ("margin", "facing"):
            mean, low, high = figures[measure]
            assert f"{points(mean)} ({points(low)} to {points(high)})" in text, figures
        for level in (figures["strong"], figures["weak"]):
            mean, low, high = figures["wins"][level]
            exact = "" if low == high else f" ({percent(low)} to {percent(high)}%)"
            assert f"{percent(mean)}%{exact}" in text
    assert "With 2, 3 or 4 players Expert plays as Hard does" in text
    assert "With 5 players, before it places a token on the board it tries out" in text


def test_a_matchup_with_few_games_or_a_level_the_site_has_not_is_left_out(client, monkeypatch):
    figures = {
        "players": 4,
        "games": strength.PUBLISHED_GAMES,
        "facing": [4.04, 1.0, 7.0],
        "margin": [1.0, 0.5, 1.5],
        "rounds": 320,
        "facing_rounds": 100,
    }
    measured = (
        {
            **figures,
            "strong": "hard",
            "weak": "medium",
            "wins": {"hard": [0.4, 0.3, 0.5], "medium": [0.2, 0.1, 0.3]},
        },
        {
            **figures,
            "strong": "expert",
            "weak": "hard",
            "games": strength.PUBLISHED_GAMES - 2,
            "wins": {"expert": [0.3, 0.2, 0.4], "hard": [0.3, 0.2, 0.4]},
        },
        {
            **figures,
            "strong": "easy",
            "weak": "random",
            "wins": {"easy": [0.6, 0.5, 0.7], "random": [0.1, 0.0, 0.2]},
        },
    )
    monkeypatch.setattr(strength, "measured", lambda: measured)
    text = shown(client.get(reverse("bots")).content.decode())
    assert "Hard against Medium" in text and "+4.0 (+1.0 to +7.0)" in text
    assert "Expert against Hard" not in text and "against Random" not in text
    monkeypatch.setattr(strength, "measured", lambda: ())
    assert "No level has been measured yet." in shown(client.get(reverse("bots")).content.decode())


@pytest.mark.parametrize(
    ("figures", "as_points", "words"),
    [
        ([-0.04, -0.06, 0.05], True, ("0.0", "-0.1", "+0.1")),
        ([0.125, 0.0, 0.25], False, ("13", "0", "25")),
        ([28.2489, 26.5476, 29.9501], True, ("+28.2", "+26.5", "+30.0")),
    ],
)
def test_a_figure_is_rounded_as_a_reader_would(figures, as_points, words):
    spread = _spread(figures, points=as_points)
    assert (spread["mean"], spread["low"], spread["high"]) == words and not spread["exact"]
    assert _spread([0.75, 0.75, 0.75])["exact"] and _spread(None) is None


def test_the_page_speaks_french_with_french_numbers(client):
    answer = client.get(reverse("bots"), headers={"accept-language": "fr"})
    text = shown(answer.content.decode())
    assert '<html lang="fr">' in answer.content.decode()
    assert "Moyen contre Facile" in text
    mean, low, high = strength.published()[0]["facing"]
    assert f"{points(mean)} ({points(low)} à {points(high)})".replace(".", ",") in text


def test_the_lobby_and_the_rules_lead_to_it(client, django_user_model):
    bots = reverse("bots")
    assert f'href="{bots}"' in client.get(reverse("lobby")).content.decode()
    assert f'href="{bots}"' in client.get(reverse("rules")).content.decode()
    client.force_login(django_user_model.objects.create_user("alice"))
    lobby = client.get(reverse("lobby")).content.decode()
    assert lobby.count(f'href="{bots}"') == 2, "beside one-click play and the new-game form"
