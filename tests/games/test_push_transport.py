"""Web Push's transport (games/push.py) against a push service that runs in the test: the test is
the browser (its own key pair and authentication secret) and reads what the service received:
a body only its keys decrypt (RFC 8291), a VAPID JWT the site's public key verifies (RFC 8292),
and the headers asked for. What the service answers decides the message's fate; the key pair's
command, the development file and the deployment check come with it.

The test's decryption is the browser's side of RFC 8291, written here from the RFC, and proved
on the RFC's own example; the site's encryption reproduces that example byte for byte."""

from __future__ import annotations

import io
import json
import os
import time

import pytest
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.checks import registry
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command

from accounts.models import PushDevice
from games import checks, clock, push
from games.push import Delivery
from nyet_site.environment import env_vapid_keys
from tests.servers import free_port

from .push_service import (
    SUBJECT,
    Browser,
    b64,
    browser_decrypt,
    jwt_claims,
    point,
    running,
    site_keys,
    unb64,
)

# RFC 8291 section 5 and appendix A.
RFC_PLAINTEXT = b"When I grow up, I want to be a watermelon"
RFC_UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
RFC_UA_PUBLIC = (
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
)
RFC_AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
RFC_AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
RFC_SALT = "DGv6ra1nlYgDCS1FRnbzlw"
RFC_BODY = (
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS"
    "6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qu"
    "lcy4a-fN"
)


def rfc_key(private: str) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(unb64(private), "big"), ec.SECP256R1())


def test_the_tests_decryption_reads_the_rfc_example():
    body = unb64(RFC_BODY)
    assert browser_decrypt(body, rfc_key(RFC_UA_PRIVATE), unb64(RFC_AUTH)) == RFC_PLAINTEXT
    with pytest.raises(InvalidTag):  # any other secret reads nothing
        browser_decrypt(body, rfc_key(RFC_UA_PRIVATE), os.urandom(16))


def test_the_encryption_reproduces_the_rfc_example_byte_for_byte():
    body = push.encrypt(
        RFC_PLAINTEXT,
        unb64(RFC_UA_PUBLIC),
        unb64(RFC_AUTH),
        salt=unb64(RFC_SALT),
        sender=rfc_key(RFC_AS_PRIVATE),
    )
    assert b64(body) == RFC_BODY


# --- a push service, in the test --------------------------------------------------------------


@pytest.fixture
def service():
    with running() as server:
        yield server


@pytest.fixture
def vapid(settings):
    return site_keys(settings)


@pytest.fixture
def browser():
    return Browser()


@pytest.fixture
def device(db, alice, browser, service):
    return browser.subscribe(alice, f"{service.origin}/push/t0k3n-of-alice")


PAYLOAD = {"kind": "your_turn", "game": 12, "title": "À toi de jouer ♠", "url": "/games/12/"}


@pytest.mark.django_db
def test_a_message_reaches_the_push_service_for_the_browser_alone(
    vapid, service, device, browser, settings
):
    assert push.send(device, PAYLOAD, ttl=3600, urgency="high", topic="game-12") is Delivery.SENT

    [(path, headers, body)] = service.requests
    assert path == "/push/t0k3n-of-alice"
    assert json.loads(browser_decrypt(body, browser.key, browser.auth)) == PAYLOAD
    with pytest.raises(InvalidTag):  # another browser's keys read nothing
        other = Browser()
        browser_decrypt(body, other.key, other.auth)

    claims, k = jwt_claims(headers["Authorization"], vapid)
    assert k == settings.VAPID_PUBLIC_KEY
    assert claims["aud"] == service.origin
    assert claims["sub"] == SUBJECT
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert headers["TTL"] == "3600"
    assert headers["Urgency"] == "high"
    assert headers["Topic"] == "game-12"
    assert headers["Content-Encoding"] == "aes128gcm"


@pytest.mark.django_db
def test_the_jwt_is_signed_by_the_sites_key_and_no_other(vapid, service, device):
    push.send(device, PAYLOAD, ttl=60, urgency="normal")
    [(_, headers, _)] = service.requests
    with pytest.raises(InvalidSignature):
        jwt_claims(headers["Authorization"], ec.generate_private_key(ec.SECP256R1()).public_key())


@pytest.mark.django_db
def test_the_jwt_names_the_endpoints_origin_not_its_path(vapid, service, alice, browser):
    # Another push service's audience would be refused there: each JWT is for one origin.
    device = browser.subscribe(alice, f"{service.origin}/wpush/v2/abc?x=1")
    push.send(device, PAYLOAD, ttl=60, urgency="low")
    [(path, headers, _)] = service.requests
    claims, _ = jwt_claims(headers["Authorization"], vapid)
    assert path == "/wpush/v2/abc?x=1" and claims["aud"] == service.origin


@pytest.mark.django_db
def test_no_topic_header_unless_asked(vapid, service, device):
    push.send(device, PAYLOAD, ttl=0, urgency="very-low")
    [(_, headers, _)] = service.requests
    assert "Topic" not in headers and headers["TTL"] == "0" and headers["Urgency"] == "very-low"


@pytest.mark.django_db
@pytest.mark.parametrize("status", [201, 202])
def test_taken_the_device_stays_and_says_when_it_was_last_used(vapid, service, device, status):
    service.status = status
    before = clock.now()
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.SENT
    stored = PushDevice.objects.get(pk=device.pk)
    assert stored.last_used_at is not None and before <= stored.last_used_at <= clock.now()
    assert device.last_used_at == stored.last_used_at


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_a_dropped_subscription_is_deleted(vapid, service, device, alice, browser, status):
    kept = browser.subscribe(alice, f"{service.origin}/push/another-browser")
    service.status = status
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.GONE
    assert list(PushDevice.objects.all()) == [kept]


@pytest.mark.django_db
@pytest.mark.parametrize("status", [500, 503, 429, 400, 403, 413])
def test_refused_not_sent_and_the_device_stays(vapid, service, device, status):
    service.status = status
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.NOT_SENT
    assert len(service.requests) == 1
    assert PushDevice.objects.get(pk=device.pk).last_used_at is None


@pytest.mark.django_db
def test_a_service_that_refuses_the_connection_gets_nothing(vapid, alice, browser):
    device = browser.subscribe(alice, f"http://127.0.0.1:{free_port()}/push/nobody-listens")
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.NOT_SENT
    assert PushDevice.objects.filter(pk=device.pk, last_used_at=None).exists()


@pytest.mark.django_db
def test_no_answer_after_the_hand_over_is_a_fate_unknown(vapid, service, device, settings):
    service.status = None
    started = time.monotonic()
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.UNKNOWN
    assert service.received.is_set(), "the service had the whole message"
    assert time.monotonic() - started < settings.PUSH_TIMEOUT + 5, "gave up after its timeout"
    assert PushDevice.objects.filter(pk=device.pk, last_used_at=None).exists()


@pytest.mark.django_db
def test_a_connection_closed_after_the_hand_over_is_a_fate_unknown(vapid, service, device):
    service.status = "hang up"
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.UNKNOWN
    assert len(service.requests) == 1
    assert PushDevice.objects.filter(pk=device.pk).exists()


@pytest.mark.django_db
def test_keys_no_browser_could_give_delete_the_device_unsent(vapid, service, device):
    PushDevice.objects.filter(pk=device.pk).update(p256dh=b64(b"\x04" + bytes(64)))
    device.refresh_from_db()
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.GONE
    assert not service.requests and not PushDevice.objects.exists()


@pytest.mark.django_db
def test_without_the_sites_keys_nothing_is_sent(vapid, service, device, settings):
    settings.VAPID_PRIVATE_KEY = ""
    assert push.send(device, PAYLOAD, ttl=60, urgency="normal") is Delivery.NOT_SENT
    assert not service.requests and PushDevice.objects.filter(pk=device.pk).exists()


@pytest.mark.django_db
def test_what_no_push_service_takes_is_refused_before_sending(vapid, service, device):
    with pytest.raises(ValueError):
        push.send(device, PAYLOAD, ttl=60, urgency="urgent")
    with pytest.raises(ValueError):
        push.send(device, {"text": "x" * push.MAX_PAYLOAD}, ttl=60, urgency="normal")
    with pytest.raises(ValueError):
        push.send(device, PAYLOAD, ttl=60, urgency="normal", topic="game 12")
    with pytest.raises(ValueError):
        push.send(device, PAYLOAD, ttl=60, urgency="normal", topic="g" * 33)
    assert not service.requests


# --- the key pair -------------------------------------------------------------------------------


def printed_pair(output: str) -> tuple[str, str]:
    lines = dict(line.split("=", 1) for line in output.strip().splitlines())
    assert set(lines) == {"VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"}
    return lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"]


def assert_a_pair(public: str, private: str) -> None:
    raw_public, raw_private = unb64(public), unb64(private)
    assert len(raw_public) == 65 and raw_public[0] == 0x04, "an uncompressed P-256 point"
    assert len(raw_private) == 32
    key = ec.derive_private_key(int.from_bytes(raw_private, "big"), ec.SECP256R1())
    assert point(key) == raw_public, "the public key is the private key's"


def test_the_command_prints_a_fresh_pair_for_production():
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        call_command("vapid_keys", stdout=out)
        outputs.append(printed_pair(out.getvalue()))
    for public, private in outputs:
        assert_a_pair(public, private)
    assert outputs[0] != outputs[1]


def test_the_development_file_is_written_once_and_never_replaced(settings, tmp_path):
    settings.VAPID_DEV_FILE = path = tmp_path / "vapid-keys.json"
    call_command("vapid_keys", "--write-dev-file", stdout=io.StringIO())
    written = path.read_text()
    keys = json.loads(written)
    assert_a_pair(keys["VAPID_PUBLIC_KEY"], keys["VAPID_PRIVATE_KEY"])
    assert path.stat().st_mode & 0o077 == 0, "a private key: its owner's alone"

    call_command("vapid_keys", "--write-dev-file", stdout=io.StringIO())
    assert path.read_text() == written
    path.write_text("not even keys")
    call_command("vapid_keys", "--write-dev-file", stdout=io.StringIO())
    assert path.read_text() == "not even keys"


def test_production_writes_no_development_file(settings, tmp_path):
    settings.VAPID_DEV_FILE = path = tmp_path / "vapid-keys.json"
    settings.PRODUCTION = True
    with pytest.raises(CommandError):
        call_command("vapid_keys", "--write-dev-file", stdout=io.StringIO())
    assert not path.exists()


@pytest.fixture
def dev_file(tmp_path, monkeypatch):
    monkeypatch.delenv("VAPID_PUBLIC_KEY", raising=False)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    path = tmp_path / "vapid-keys.json"
    path.write_text(json.dumps({"VAPID_PUBLIC_KEY": "dev-public", "VAPID_PRIVATE_KEY": "dev-key"}))
    return path


def test_development_reads_the_file_when_the_variables_are_unset(dev_file):
    assert env_vapid_keys(dev_file, production=False) == ("dev-public", "dev-key")
    assert env_vapid_keys(dev_file.with_name("none.json"), production=False) == ("", "")


def test_production_never_reads_the_development_file(dev_file):
    assert env_vapid_keys(dev_file, production=True) == ("", "")


def test_the_variables_win_over_the_development_file(dev_file, monkeypatch):
    monkeypatch.setenv("VAPID_PUBLIC_KEY", "real-public")
    monkeypatch.setenv("VAPID_PRIVATE_KEY", "real-key")
    assert env_vapid_keys(dev_file, production=False) == ("real-public", "real-key")


def test_a_development_file_that_is_no_pair_is_refused_by_name(dev_file):
    dev_file.write_text('{"VAPID_PUBLIC_KEY": "half a pair"}')
    with pytest.raises(ImproperlyConfigured, match="vapid-keys.json"):
        env_vapid_keys(dev_file, production=False)


# --- the deployment check -----------------------------------------------------------------------


def ids() -> list[str]:
    return [message.id for message in checks.vapid_keys()]


def test_the_check_runs_with_the_deployment_checks_only():
    assert checks.vapid_keys in registry.registry.get_checks(include_deployment_checks=True)
    assert checks.vapid_keys not in registry.registry.get_checks()


def test_production_without_keys_is_warned(settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_SUBJECT = SUBJECT
    settings.PRODUCTION = True
    assert ids() == ["games.W001"]
    settings.PRODUCTION = False
    assert ids() == [], "development may go without push"


def test_a_pair_that_does_not_match_is_warned(settings, vapid):
    assert ids() == []
    settings.VAPID_PUBLIC_KEY = push.generate_keys()[0]
    assert ids() == ["games.W002"]
    settings.VAPID_PRIVATE_KEY = "not-a-key"
    assert ids() == ["games.W002"]


def test_a_subject_no_push_service_can_write_to_is_warned(settings, vapid):
    settings.VAPID_SUBJECT = "ops@nyet.example.org"
    assert ids() == ["games.W003"]


def test_the_pair_made_by_the_code_passes_the_check(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.generate_keys()
    settings.VAPID_SUBJECT = SUBJECT
    settings.PRODUCTION = True
    assert ids() == []
    assert_a_pair(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY)


# --- the admin ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_admin_shows_a_device_but_not_what_would_let_anyone_send_to_it(
    client, admin_user, device
):
    client.force_login(admin_user)
    listing = client.get("/admin/accounts/pushdevice/").content.decode()
    page = client.get(f"/admin/accounts/pushdevice/{device.pk}/change/").content.decode()
    for shown in (listing, page):
        assert "Firefox on Linux" in shown and "127.0.0.1:" in shown
        assert "t0k3n-of-alice" not in shown
        assert device.p256dh not in shown and device.auth not in shown
    assert client.get("/admin/accounts/pushdevice/add/").status_code == 403
