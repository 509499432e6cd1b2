from django.urls import reverse


def test_home_page_says_what_the_site_is(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert [template.name for template in response.templates] == ["home.html", "base.html"]
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<main id="main">' in page
    assert "<h1>Play Nyet! online</h1>" in page


def test_home_page_speaks_french_to_a_french_browser(client):
    response = client.get(reverse("home"), headers={"accept-language": "fr"})

    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert "<h1>Jouer à Nyet! en ligne</h1>" in page
    assert "Le site est en construction" in page
