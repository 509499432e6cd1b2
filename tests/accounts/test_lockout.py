"""Failed logins are limited per (login name, address) and per address: nobody can lock a player
out from elsewhere by failing on their name, and one address cannot try name after name."""

import re
import time
import types

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db
ATTACKER, OWNER, ELSEWHERE = "203.0.113.9", "198.51.100.4", "192.0.2.33"
LOCKED = "Too many failed login attempts. Try again in"


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The limits (allauth's and the site's) count attempts within windows of time, read from
    ``time.time``: stop it, so that no window closes while the test runs, however slow the
    machine (a test moves it on with ``clock.now += seconds``)."""
    fake = types.SimpleNamespace(now=time.time())
    monkeypatch.setattr(time, "time", lambda: fake.now)
    return fake


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


def test_the_lock_says_when_it_ends(alice, clock):
    """5 failures in 5 minutes lock the name from this address: until the first of them is 5
    minutes old, in words and in Retry-After, counted down as time passes."""
    for _ in range(5):
        log_in(OWNER, "alice", "typo")
        clock.now += 10
    client = Client(REMOTE_ADDR=OWNER)
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 429 and response["Retry-After"] == "250"
    assert "Too many failed login attempts. Try again in 5 minutes." in response.content.decode()
    clock.now += 200
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response["Retry-After"] == "50"
    assert "Try again in 50 seconds." in response.content.decode()
    clock.now += 50
    client, _ = log_in(OWNER, "alice", PASSWORD)
    assert logged_in(client)


def test_a_password_reset_ends_the_lock_from_its_address(alice):
    """The owner who locked their name with typos and then reset the password logs in with the
    new one at once, from the same address, as allauth's own limit allowed."""
    for _ in range(5):
        log_in(OWNER, "alice", "typo")
    client = Client(REMOTE_ADDR=OWNER)
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    (url,) = re.findall(r"https?://\S+", mail.outbox[-1].body)
    form = client.get(re.sub(r"^https?://[^/]+", "", url))["Location"]
    new = "another long passphrase 7"
    assert client.post(form, {"password1": new, "password2": new}).status_code == 302
    client, page = log_in(OWNER, "alice", new)
    assert logged_in(client) and LOCKED not in page


def test_guesses_sent_at_once_are_counted_before_their_passwords_are_checked(alice, monkeypatch):
    """Each attempt is counted before its password is checked, so that guesses arriving while
    earlier ones are still being checked are refused once 5 are in flight: here each check
    sends the next attempt from the same address before it ends, the sixth with the right
    password."""
    check = User.check_password
    answers = []  # of the attempts sent during a check, the second to the sixth

    def checking(self, raw):
        if len(answers) < 5:
            k = len(answers)
            answers.append(None)
            answers[k] = log_in(OWNER, "alice", PASSWORD if k == 4 else "guess")
        return check(self, raw)

    monkeypatch.setattr(User, "check_password", checking)
    log_in(OWNER, "alice", "guess")
    client, page = answers[4]
    assert LOCKED in page and not logged_in(client)


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


def test_a_refused_sign_up_says_when_to_try_again(clock):
    """5 a minute, then 30 an hour, from one address: the 429 says which ends first, in words
    and in Retry-After."""

    def sign_up(k: int):
        data = {
            "username": f"newcomer{k}",
            "email": f"newcomer{k}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        return Client(REMOTE_ADDR=ATTACKER).post(reverse("account_signup"), data)

    for k in range(5):
        assert sign_up(k).status_code == 302
        clock.now += 1
    response = sign_up(5)  # the first of the 5 is 5 seconds old
    assert response.status_code == 429 and response["Retry-After"] == "55"
    assert "Try again in 55 seconds." in response.content.decode()
    for k in range(5, 30):  # 5 each minute and a second, up to the hour's 30
        if k % 5 == 0:
            clock.now += 61
        assert sign_up(k).status_code == 302
    clock.now += 61
    response = sign_up(30)  # the first sign-up of the hour was 6 * 61 + 5 seconds ago
    wait = 3600 - (6 * 61 + 5)
    assert response.status_code == 429 and response["Retry-After"] == str(wait)
    assert f"Try again in {-(-wait // 60)} minutes." in response.content.decode()
