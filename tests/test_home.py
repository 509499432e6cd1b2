from django.urls import reverse


def test_home_page_is_the_lobby_and_says_what_the_site_is(client, db):
    response = client.get(reverse("lobby"))

    assert response.status_code == 200
    assert [template.name for template in response.templates][:2] == [
        "games/lobby.html",
        "base.html",
    ]
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<main id="main"' in page
    assert "<h1>Play Nyet! online</h1>" in page
    assert "/static/django_htmx/htmx" in page  # served from the package, not a CDN


def test_home_page_speaks_french_to_a_french_browser(client, db):
    response = client.get(reverse("lobby"), headers={"accept-language": "fr"})

    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert "<h1>Jouer à Nyet! en ligne</h1>" in page


def test_rules_page_shows_the_rulings(client):
    page = client.get(reverse("rules")).content.decode()
    assert "How to play Nyet!" in page
    assert "a player whose hand holds only 1s discards one of them" in page
