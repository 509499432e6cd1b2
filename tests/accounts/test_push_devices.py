"""A player turns notifications on per browser from the settings page (issue 35): the browser's
subscription is stored with a name to tell it apart, listed, and removable; what the site would
send to (the endpoint) is a known push service over HTTPS and nothing else, and a refusal says
what is wrong and stores nothing. The page's script in Chromium: tests/browser/test_install.py."""

from __future__ import annotations

import base64
import os

import pytest
from django.urls import reverse

from accounts.forms import browser_name
from accounts.models import PushDevice

pytestmark = pytest.mark.django_db

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)


def key(size: int, first: bytes = b"") -> str:
    return base64.urlsafe_b64encode(first + os.urandom(size - len(first))).rstrip(b"=").decode()


def subscription(endpoint="https://fcm.googleapis.com/fcm/send/abc:123", **changes) -> dict:
    return {"endpoint": endpoint, "p256dh": key(65, b"\x04"), "auth": key(16), **changes}


def subscribe(client, data: dict, agent: str = ANDROID_CHROME):
    return client.post(reverse("push_device_add"), data, HTTP_USER_AGENT=agent)


def test_a_browser_s_subscription_is_stored_named_and_listed(client, alice):
    client.force_login(alice)
    sent = subscription()
    answer = subscribe(client, sent)
    assert answer.status_code == 204
    device = PushDevice.objects.get()
    assert (device.user, device.endpoint, device.p256dh, device.auth) == (
        alice,
        sent["endpoint"],
        sent["p256dh"],
        sent["auth"],
    )
    assert device.browser == "Chrome · Android"
    page = client.get(reverse("settings")).content.decode()
    assert "Chrome · Android" in page
    assert reverse("push_device_remove", args=[device.pk]) in page


def test_the_same_browser_again_is_one_device_with_its_new_keys_for_the_last_account(
    client, alice, bob
):
    client.force_login(alice)
    subscribe(client, subscription())
    again = subscription()
    client.force_login(bob)
    assert subscribe(client, again).status_code == 204
    device = PushDevice.objects.get()
    assert (device.user, device.p256dh, device.auth) == (bob, again["p256dh"], again["auth"])


@pytest.mark.parametrize(
    "changes",
    [
        {"endpoint": "http://fcm.googleapis.com/fcm/send/abc"},  # not HTTPS
        {"endpoint": "https://10.0.0.5/admin/"},  # an address of the site's own network
        {"endpoint": "https://localhost/"},
        {"endpoint": "https://fcm.googleapis.com.evil.example/x"},
        {"endpoint": "https://evilfcm.googleapis.com.example/x"},
        {"endpoint": "not a url"},
        {"p256dh": key(64)},  # not an uncompressed point
        {"p256dh": key(65, b"\x02")},
        {"p256dh": "!!!"},
        {"auth": key(15)},
        {"auth": ""},
    ],
)
def test_a_subscription_that_is_not_a_browser_s_is_refused_in_words(client, alice, changes):
    client.force_login(alice)
    answer = subscribe(client, subscription(**changes))
    assert answer.status_code == 400
    text = answer.content.decode()
    assert text and "Traceback" not in text
    assert not PushDevice.objects.exists()


def test_every_browser_vendor_s_push_service_is_taken(client, alice):
    client.force_login(alice)
    endpoints = [
        "https://fcm.googleapis.com/fcm/send/a",
        "https://updates.push.services.mozilla.com/wpush/v2/b",
        "https://wns2-par02p.notify.windows.com/w/?token=c",
        "https://web.push.apple.com/d",
    ]
    for endpoint in endpoints:
        assert subscribe(client, subscription(endpoint)).status_code == 204, endpoint
    assert PushDevice.objects.filter(user=alice).count() == len(endpoints)


def test_a_player_keeps_their_latest_browsers_only(client, alice):
    from accounts.actions import MOST_PUSH_DEVICES

    client.force_login(alice)
    for n in range(MOST_PUSH_DEVICES + 3):
        endpoint = f"https://fcm.googleapis.com/fcm/send/{n}"
        assert subscribe(client, subscription(endpoint)).status_code == 204
    kept = sorted(
        int(e.rsplit("/", 1)[1]) for e in alice.push_devices.values_list("endpoint", flat=True)
    )
    assert kept == list(range(3, MOST_PUSH_DEVICES + 3))


def test_a_visitor_cannot_subscribe_and_a_get_changes_nothing(client, alice):
    answer = subscribe(client, subscription())
    assert answer.status_code == 302 and reverse("login") in answer["Location"]
    client.force_login(alice)
    assert client.get(reverse("push_device_add")).status_code == 405
    assert not PushDevice.objects.exists()


def test_a_player_removes_their_own_devices_only(client, alice, bob):
    client.force_login(alice)
    subscribe(client, subscription("https://fcm.googleapis.com/fcm/send/alice"))
    client.force_login(bob)
    subscribe(client, subscription("https://fcm.googleapis.com/fcm/send/bob"))
    alices, bobs = (PushDevice.objects.get(user=u) for u in (alice, bob))
    answer = client.post(reverse("push_device_remove", args=[alices.pk]))
    assert answer.status_code == 302
    assert PushDevice.objects.filter(pk=alices.pk).exists()  # not bob's to remove
    answer = client.post(reverse("push_device_remove", args=[bobs.pk]), follow=True)
    assert not PushDevice.objects.filter(pk=bobs.pk).exists()
    assert "That device gets no more notifications." in answer.content.decode()


def test_the_switch_shows_only_when_the_site_has_a_key(client, alice, settings):
    client.force_login(alice)
    settings.VAPID_PUBLIC_KEY = key(65, b"\x04")
    page = client.get(reverse("settings")).content.decode()
    assert f'data-push-key="{settings.VAPID_PUBLIC_KEY}"' in page
    assert "No device gets your notifications yet." in page
    settings.VAPID_PUBLIC_KEY = ""
    assert "data-push-key" not in client.get(reverse("settings")).content.decode()


@pytest.mark.parametrize(
    "agent, name",
    [
        (ANDROID_CHROME, "Chrome · Android"),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
            "Firefox · Linux",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "Safari · iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge · Windows",
        ),
        ("", ""),
    ],
)
def test_a_device_is_named_by_its_browser_and_system(agent, name):
    assert browser_name(agent) == name
