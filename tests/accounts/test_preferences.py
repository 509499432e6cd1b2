"""The settings page, and each request in the player's language and time zone."""

from datetime import UTC, datetime

import pytest
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject

from accounts.middleware import PreferencesMiddleware
from accounts.models import User
from games.actions import create_game

pytestmark = pytest.mark.django_db

CHOICES = {
    "display_name": "  Anna   K. ",
    "language": "fr",
    "time_zone": "Asia/Tokyo",
    "email_turn": "daily",
    "email_reminders": "",  # unticked boxes are not sent at all
    "email_game_over": "on",
}


def test_settings_need_a_login(client):
    response = client.get(reverse("settings"))

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_settings_page_shows_every_preference(client, alice):
    client.force_login(alice)

    html = client.get(reverse("settings")).content.decode()

    for name in CHOICES:
        assert f'name="{name}"' in html
    assert 'name="email_invitations"' in html
    assert 'value="Europe/Paris"' in html
    assert reverse("account_email") in html and reverse("account_change_password") in html
    assert reverse("account_delete") in html


def test_save_the_settings(client, alice):
    client.force_login(alice)
    data = {k: v for k, v in CHOICES.items() if v}

    response = client.post(reverse("settings"), data)

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Anna K."
    assert alice.name == "Anna K."
    assert (alice.language, alice.time_zone, alice.email_turn) == ("fr", "Asia/Tokyo", "daily")
    assert not alice.email_reminders and not alice.email_invitations and alice.email_game_over


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("display_name", "Hard Bot", "Only the bots are called bots."),
        ("time_zone", "Mars/Olympus", "Select a valid choice."),
        ("language", "xx", "Select a valid choice."),
        ("email_turn", "hourly", "Select a valid choice."),
    ],
)
def test_bad_settings_are_refused_clearly(client, alice, field, value, error):
    client.force_login(alice)

    response = client.post(reverse("settings"), {**CHOICES, field: value})

    assert response.status_code == 200
    assert error in response.content.decode()
    alice.refresh_from_db()
    assert alice.time_zone == "" and alice.display_name == ""


def test_pages_speak_the_players_language(client, alice):
    client.force_login(alice)
    english = client.get(reverse("lobby"), headers={"accept-language": "en"})
    assert english["Content-Language"] == "en"
    assert "Skip to main content" in english.content.decode()

    User.objects.filter(pk=alice.pk).update(language="fr")
    french = client.get(reverse("lobby"), headers={"accept-language": "en"})

    assert french["Content-Language"] == "fr"
    assert "Aller au contenu principal" in french.content.decode()
    # allauth's pages too, with its own French.
    page = client.get(reverse("account_change_password")).content.decode()
    assert "Mot de passe actuel" in page


def test_no_language_chosen_means_the_browsers(client, alice):
    client.force_login(alice)

    response = client.get(reverse("lobby"), headers={"accept-language": "fr"})

    assert response["Content-Language"] == "fr"


def test_times_are_shown_in_the_players_time_zone(act, client, alice):
    # Started at 23:30 UTC on 1 January: already 2 January, 08:30, in Tokyo.
    act(
        create_game,
        alice,
        players=2,
        bots=["easy"],
        now=datetime(2026, 1, 1, 23, 30, tzinfo=UTC),
    )
    profile = reverse("profile", args=["alice"])
    client.force_login(alice)
    assert "01/01/2026 11:30 p.m." in client.get(profile).content.decode()

    User.objects.filter(pk=alice.pk).update(time_zone="Asia/Tokyo")
    assert "01/02/2026 8:30 a.m." in client.get(profile).content.decode()
    # The next request on this thread starts from UTC again.
    assert timezone.get_current_timezone_name() == "UTC"


def fake_request(rf, user_pk):
    request = rf.get("/")
    # As AuthenticationMiddleware leaves it: the user is loaded on first use.
    request.user = SimpleLazyObject(lambda: User.objects.get(pk=user_pk))
    return request


def test_cheap_views_load_the_player_only_if_they_use_them(rf, alice, django_assert_num_queries):
    User.objects.filter(pk=alice.pk).update(language="fr", time_zone="Asia/Tokyo")

    def poll(request):
        return HttpResponse()

    poll.stays_cheap = True
    middleware = PreferencesMiddleware(poll)
    request = fake_request(rf, alice.pk)
    try:
        with django_assert_num_queries(0):
            middleware.process_view(request, poll, (), {})
            assert translation.get_language() != "fr"
        with django_assert_num_queries(1):
            assert request.user.username == "alice"
        assert translation.get_language() == "fr"
        assert timezone.get_current_timezone_name() == "Asia/Tokyo"
    finally:
        translation.activate("en")
        timezone.deactivate()


def test_an_unknown_time_zone_falls_back_to_utc(rf, alice):
    User.objects.filter(pk=alice.pk).update(time_zone="Nowhere/Special")

    def view(request):
        return HttpResponse(timezone.get_current_timezone_name())

    request = fake_request(rf, alice.pk)
    middleware = PreferencesMiddleware(view)
    middleware.process_view(request, view, (), {})
    assert middleware(request).content == b"UTC"


@pytest.mark.parametrize(
    "reported", ["Mars/Olympus", "../../etc/passwd", "Asia/Tokyo" * 100, "asia/tokyo", ""]
)
def test_a_browser_zone_we_do_not_know_changes_nothing(client, alice, reported):
    next_digest = datetime(2026, 11, 24, 7, 0, tzinfo=UTC)
    User.objects.filter(pk=alice.pk).update(
        browser_time_zone="Europe/Paris", next_digest_at=next_digest
    )
    client.force_login(alice)
    client.cookies["nyet_zone"] = reported

    assert client.get(reverse("lobby")).status_code == 200
    alice.refresh_from_db()
    assert (alice.browser_time_zone, alice.next_digest_at) == ("Europe/Paris", next_digest)


def test_the_browser_zone_of_a_player_who_chose_a_zone_moves_no_digest(client, alice):
    next_digest = datetime(2026, 11, 24, 7, 0, tzinfo=UTC)
    User.objects.filter(pk=alice.pk).update(time_zone="UTC", next_digest_at=next_digest)
    client.force_login(alice)
    client.cookies["nyet_zone"] = "Asia/Tokyo"

    assert client.get(reverse("lobby")).status_code == 200
    alice.refresh_from_db()
    assert (alice.browser_time_zone, alice.next_digest_at) == ("Asia/Tokyo", next_digest)
