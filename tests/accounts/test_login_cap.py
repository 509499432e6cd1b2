"""Failed logins are capped per account, from any addresses (accounts.login_guard): after 20 in
15 minutes, a browser that has never logged in to the account logs in only with a one-time code
emailed to it, while its owner's browsers log in with the password as ever, and the owner is
told once. The per-address limit and the (name, address) lock stay."""

from __future__ import annotations

import re
import time
import types

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import login_guard
from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # the TLS proxy in front of the site, when there is one
NEW_BROWSER = "198.51.100.21"
CODE_NEEDED = "takes a one-time code from a browser that has not logged in to it before"
LOCKED = "Too many failed login attempts. Try again in"
NOTICE = "Many wrong passwords were tried on your account"


@pytest.fixture(autouse=True)
def clock(monkeypatch, settings):
    """One clock, stopped, for the limits, the guard's buckets and the cache's expiries, which
    all read ``time.time`` (a test moves it on with ``clock.now += seconds``)."""
    fake = types.SimpleNamespace(now=time.time())
    monkeypatch.setattr(time, "time", lambda: fake.now)
    return fake


@pytest.fixture(params=["direct", "behind one proxy"])
def browser(request, settings):
    """A new browser at ``address``: its address in REMOTE_ADDR, or behind one trusted proxy
    (TRUSTED_PROXY_COUNT=1) in X-Forwarded-For, as production runs."""
    behind = request.param == "behind one proxy"
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1 if behind else 0

    def make(address: str) -> Client:
        if behind:
            return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.250, {address}")
        return Client(REMOTE_ADDR=address)

    return make


def log_in(client: Client, login: str, password: str):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def notices() -> list:
    return [m for m in mail.outbox if NOTICE in m.subject]


@pytest.fixture
def checks(monkeypatch):
    """How many passwords were checked against an account."""
    counted = types.SimpleNamespace(n=0)
    check = User.check_password

    def counting(self, raw):
        counted.n += 1
        return check(self, raw)

    monkeypatch.setattr(User, "check_password", counting)
    return counted


def attack(browser, login="alice", addresses=20, guesses=5):
    """``addresses`` addresses, ``guesses`` wrong passwords each, at one account."""
    for k in range(addresses):
        client = browser(f"203.0.113.{k + 1}")
        for g in range(guesses):
            log_in(client, login, f"guess {k}-{g}")


def code_from_email(to: str) -> str:
    message = [m for m in mail.outbox if m.to == [to] and "login code" in m.subject][-1]
    return re.search(r"^\s*([A-Z0-9-]{6,})\s*$", message.body, re.M).group(1)


def test_many_addresses_guessing_get_20_checks_then_a_new_browser_needs_a_code(
    alice, browser, checks
):
    attack(browser)
    assert checks.n == 20  # not 100: after 20 failures no password is checked from a new browser
    client = browser(NEW_BROWSER)
    response = log_in(client, "alice", PASSWORD)
    page = response.content.decode()
    assert response.status_code == 200 and CODE_NEEDED in page and not logged_in(client)
    assert 'id="login-code"' in page and checks.n == 20
    # The code, emailed to the account's address, logs this browser in.
    response = client.post(reverse("account_request_login_code"), {"email": "alice@example.com"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "account_confirm_login_code"
    )
    code = code_from_email("alice@example.com")
    response = client.post(reverse("account_confirm_login_code"), {"code": code})
    assert response.status_code == 302 and logged_in(client)
    assert client.session["_auth_user_id"] == str(alice.pk)
    # From then on this browser is the owner's: the password alone logs it in.
    client.post(reverse("account_logout"))
    assert not logged_in(client)
    log_in(client, "alice", PASSWORD)
    assert logged_in(client)


def test_a_right_and_a_wrong_password_are_refused_alike(alice, browser):
    """The refusal tells the guessing nothing, and sends no code by itself."""
    attack(browser)
    sent = len(mail.outbox)
    pages = []
    for password in (PASSWORD, "not the password"):
        client = browser(NEW_BROWSER)
        response = log_in(client, "alice", password)
        page = re.sub(r"[A-Za-z0-9]{64}", "", response.content.decode())  # the CSRF tokens
        pages.append((response.status_code, page))
        assert not logged_in(client)
    assert pages[0] == pages[1]
    assert len(mail.outbox) == sent


def test_the_owner_s_browser_logs_in_with_the_password_during_the_attack(alice, browser):
    owner = browser("198.51.100.4")
    log_in(owner, "alice", PASSWORD)
    assert logged_in(owner) and owner.cookies[login_guard.KNOWN_COOKIE].value
    owner.post(reverse("account_logout"))
    attack(browser)
    log_in(owner, "alice", PASSWORD)
    assert logged_in(owner)
    # ...whatever its address: the browser is known, not the address.
    elsewhere = browser("192.0.2.77")
    elsewhere.cookies = owner.cookies
    elsewhere.post(reverse("account_logout"))
    log_in(elsewhere, "ALICE@example.com", PASSWORD)
    assert logged_in(elsewhere)


def test_a_browser_known_to_another_account_or_a_forged_cookie_needs_the_code(alice, bob, browser):
    bobs = browser("198.51.100.5")
    log_in(bobs, "bob", PASSWORD)
    bobs.post(reverse("account_logout"))
    attack(browser)
    log_in(bobs, "alice", PASSWORD)
    assert not logged_in(bobs)
    forged = browser(NEW_BROWSER)
    forged.cookies[login_guard.KNOWN_COOKIE] = str(alice.pk)
    response = log_in(forged, "alice", PASSWORD)
    assert CODE_NEEDED in response.content.decode() and not logged_in(forged)


def test_the_owner_is_told_once_per_attack(alice, browser, clock):
    attack(browser)
    for k in range(10):  # the attack goes on, for half an hour, with right and wrong passwords
        log_in(browser(f"203.0.114.{k}"), "alice", PASSWORD if k % 2 else "guess")
        clock.now += 180
    (notice,) = notices()
    assert notice.to == ["alice@example.com"] and notice.subject.startswith("[Nyet!] ")
    assert "20 wrong passwords" in notice.body and "15 minutes" in notice.body
    assert reverse("account_request_login_code") in notice.body
    # An hour after its last attempt, the attack is over: a new browser logs in with the password.
    clock.now += login_guard.HOLD + 1
    client = browser(NEW_BROWSER)
    log_in(client, "alice", PASSWORD)
    assert logged_in(client)
    # A new attack, a new notice.
    attack(browser, addresses=20, guesses=1)
    attack(browser, addresses=20, guesses=1)
    assert len(notices()) == 2


def test_fewer_failures_or_older_ones_change_nothing(alice, browser, clock):
    attack(browser, addresses=19, guesses=1)
    clock.now += 15 * 60  # those 19 leave the 15 minutes' window
    attack(browser, addresses=19, guesses=1)
    client = browser(NEW_BROWSER)
    log_in(client, "alice", PASSWORD)
    assert logged_in(client) and not notices()


def test_failures_by_username_and_by_email_count_together(alice, browser):
    attack(browser, login="alice", addresses=2, guesses=5)
    attack(browser, login="Alice@Example.com", addresses=2, guesses=5)
    client = browser(NEW_BROWSER)
    response = log_in(client, "alice", PASSWORD)
    assert CODE_NEEDED in response.content.decode() and not logged_in(client)
    assert len(notices()) == 1


def test_a_name_with_no_account_is_answered_alike(browser):
    """Guessing at a name with no account ends in the same refusal: it tells no name apart."""
    attack(browser, login="nobody@example.com")
    response = log_in(browser(NEW_BROWSER), "nobody@example.com", PASSWORD)
    assert CODE_NEEDED in response.content.decode()
    assert not notices()


def test_the_per_address_limit_and_the_name_address_lock_stay(alice, bob, browser):
    attacker = browser("203.0.113.99")
    for _ in range(5):
        log_in(attacker, "bob", "guess")
    response = log_in(attacker, "bob", PASSWORD)  # the (name, address) lock
    assert response.status_code == 429 and LOCKED in response.content.decode()
    for k in range(10):
        log_in(browser("203.0.113.98"), f"someone{k}", "guess")
    response = log_in(browser("203.0.113.98"), "alice", PASSWORD)  # the per-address limit
    assert LOCKED in response.content.decode()
    owner = browser("198.51.100.4")  # and nobody is locked out from elsewhere
    log_in(owner, "bob", PASSWORD)
    assert logged_in(owner)


def test_the_login_page_offers_a_code(client):
    page = client.get(reverse("account_login")).content.decode()
    assert reverse("account_request_login_code") in page
    page = client.get(reverse("account_request_login_code")).content.decode()
    assert "Log in with a code" in page


def test_nobody_can_stop_the_owner_getting_a_code(alice, browser):
    """Login codes are limited per address, not per email address: requests for the owner's
    address from elsewhere (allauth's default allowed 3 a minute in all) do not hold up theirs."""

    def ask(client: Client):
        return client.post(reverse("account_request_login_code"), {"email": "alice@example.com"})

    for k in range(4):
        for _ in range(3):
            assert ask(browser(f"203.0.113.{k + 1}")).status_code == 302
    assert ask(browser("203.0.113.1")).status_code == 302
    assert ask(browser("203.0.113.1")).status_code == 302
    sent = len(mail.outbox)
    response = ask(browser("203.0.113.1"))  # 5 a minute from one address
    assert "Too many failed login attempts" in response.content.decode()
    assert len(mail.outbox) == sent
    owner = browser(NEW_BROWSER)
    assert ask(owner).status_code == 302
    response = owner.post(
        reverse("account_confirm_login_code"), {"code": code_from_email("alice@example.com")}
    )
    assert response.status_code == 302 and logged_in(owner)
