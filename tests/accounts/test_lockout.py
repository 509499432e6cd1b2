"""Failed logins are limited per (login name, address) and per address: nobody can lock a player
out from elsewhere by failing on their name, and one address cannot try name after name."""

import time
import types

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db
ATTACKER, OWNER, ELSEWHERE = "203.0.113.9", "198.51.100.4", "192.0.2.33"
LOCKED = "Too many failed login attempts. Try again later."


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch):
    """allauth's limits count attempts within windows of time: stop their clock, so that no
    window closes while the test runs, however slow the machine."""
    now = time.time()
    fake = types.SimpleNamespace(time=lambda: now, monotonic=time.monotonic, sleep=time.sleep)
    monkeypatch.setattr("allauth.core.internal.ratelimit.time", fake)


def log_in(address: str, login: str, password: str) -> tuple[Client, str]:
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("account_login"), {"login": login, "password": password})
    return client, response.content.decode()


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_failures_from_one_address_do_not_lock_the_owner_out_from_another(alice):
    for _ in range(8):
        log_in(ATTACKER, "alice", "guess")
    attacker, page = log_in(ATTACKER, "alice", PASSWORD)
    assert LOCKED in page and not logged_in(attacker)  # the attacker's address is locked out
    owner, page = log_in(OWNER, "alice", PASSWORD)
    assert logged_in(owner) and LOCKED not in page
    owner, _ = log_in(OWNER, "ALICE@example.com", PASSWORD)  # by email too
    assert logged_in(owner)


def test_the_owner_s_own_failures_lock_only_their_address(alice):
    for _ in range(5):
        log_in(OWNER, "alice", "typo")
    client, page = log_in(OWNER, "alice", PASSWORD)
    assert LOCKED in page and not logged_in(client)
    client, _ = log_in(ELSEWHERE, "alice", PASSWORD)
    assert logged_in(client)


def test_one_address_cannot_try_name_after_name(alice, bob):
    for k in range(10):
        log_in(ATTACKER, f"someone{k}", "guess")
    client, page = log_in(ATTACKER, "bob", PASSWORD)
    assert LOCKED in page and not logged_in(client)
    client, _ = log_in(OWNER, "bob", PASSWORD)
    assert logged_in(client)


def test_sign_ups_are_limited_per_address():
    def sign_up(k: int, address: str = ATTACKER):
        data = {
            "username": f"newcomer{k}",
            "email": f"newcomer{k}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        return Client(REMOTE_ADDR=address).post(reverse("account_signup"), data)

    assert [sign_up(k).status_code for k in range(5)] == [302] * 5
    response = sign_up(5)
    assert response.status_code == 429
    assert "Too many requests" in response.content.decode()
    assert sign_up(6, address=ELSEWHERE).status_code == 302
    assert not User.objects.filter(username="newcomer5").exists()
