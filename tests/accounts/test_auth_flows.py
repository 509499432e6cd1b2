"""The account flows through allauth's real pages and emails: sign up, confirm the email, log
in by username or email, reset a password; and each with the bad input a person meets."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User, bot_user

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db
SIGNUP = {
    "username": "dmitri",
    "email": "dmitri@example.org",
    "password1": PASSWORD,
    "password2": PASSWORD,
}
LINK = re.compile(r"https?://\S+")


def link_in(message) -> str:
    """The one link in an email, as a path the test client can open."""
    (url,) = LINK.findall(message.body)
    return re.sub(r"^https?://[^/]+", "", url)


def page(response) -> str:
    return response.content.decode()


def sign_up(client, **fields):
    return client.post(reverse("account_signup"), {**SIGNUP, **fields}, follow=True)


def log_in(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


# --- sign up and confirm the email address -------------------------------------------------


def test_sign_up_then_confirm_the_email_from_the_link_sent(client):
    response = sign_up(client)

    assert response.status_code == 200
    user = User.objects.get(username="dmitri")
    assert user.email == "dmitri@example.org" and not user.is_site_bot
    (message,) = mail.outbox
    assert message.to == ["dmitri@example.org"]
    address = EmailAddress.objects.get(user=user)
    assert not address.verified

    confirm = link_in(message)
    response = client.get(confirm)
    assert "dmitri@example.org" in page(response)
    response = client.post(confirm, follow=True)

    assert response.status_code == 200
    address.refresh_from_db()
    assert address.verified


def test_sign_up_refuses_a_taken_username_or_email_and_says_so(client, alice):
    response = sign_up(client, username="alice")
    assert "A user with that username already exists." in page(response)

    response = sign_up(client, email="ALICE@example.com")
    assert "A user is already registered with this email address." in page(response)

    response = sign_up(client, password2="something else")
    assert "You must type the same password each time." in page(response)
    assert User.objects.count() == 1 and not mail.outbox


def test_sign_up_refuses_a_name_kept_for_the_bots(client):
    response = sign_up(client, username="bot-expert")

    assert "Names starting with “bot-” are kept for the bots." in page(response)
    assert not User.objects.exists()


def test_a_forged_confirmation_link_is_answered_clearly(client):
    response = client.get(reverse("account_confirm_email", args=["not-a-real-key"]))

    assert "This email confirmation link expired or is invalid." in page(response)


def test_in_production_the_email_must_be_confirmed_before_logging_in(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"

    response = sign_up(client)
    assert "We have sent an email to you for verification." in page(response)
    assert "_auth_user_id" not in client.session
    response = log_in(client, "dmitri")
    assert response.status_code == 302 and response["Location"] == reverse(
        "account_email_verification_sent"
    )
    assert "_auth_user_id" not in client.session

    (message,) = mail.outbox  # sent at sign-up; not again so soon (allauth's rate limit)
    client.post(link_in(message))
    assert log_in(client, "dmitri").status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="dmitri").pk)


def test_in_production_a_taken_email_is_told_to_its_owner_not_the_stranger(client, settings, alice):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"

    response = sign_up(client, email="alice@example.com")

    assert "We have sent an email to you for verification." in page(response)
    assert not User.objects.filter(username="dmitri").exists()
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert "already" in message.body


# --- log in ---------------------------------------------------------------------------------


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@EXAMPLE.COM"])
def test_log_in_by_username_or_by_email(client, alice, login):
    response = log_in(client, login)

    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert "Log out alice" in page(client.get(reverse("lobby")))


def test_a_wrong_password_is_answered_clearly(client, alice):
    response = log_in(client, "alice", "not my password")

    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in page(response)
    assert "_auth_user_id" not in client.session


def test_repeated_failed_logins_are_rate_limited(client, alice):
    for _ in range(5):
        log_in(client, "alice", "guess")

    response = log_in(client, "alice", PASSWORD)  # even the right one, for a while

    assert "Too many failed login attempts. Try again in" in page(response)
    assert "_auth_user_id" not in client.session


def test_log_out_is_a_post(client, alice):
    client.force_login(alice)

    response = client.post(reverse("account_logout"))

    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert "_auth_user_id" not in client.session


def test_the_login_page_looks_like_the_site(client):
    response = client.get(reverse("account_login"))
    html = page(response)

    assert '<a class="site-name"' in html  # our header, from base.html
    assert '<label for="id_login">Username or email:</label>' in html
    assert "Forgot your password?" in html
    assert reverse("account_signup") in html


# --- reset a forgotten password -------------------------------------------------------------


def request_reset(client, email="alice@example.com"):
    response = client.post(reverse("account_reset_password"), {"email": email})
    assert response.status_code == 302
    return response


def test_reset_a_forgotten_password_from_the_link_sent(client, alice):
    request_reset(client)

    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    response = client.get(link_in(message))
    assert response.status_code == 302  # the key moves to the session, off the address bar
    new = "another long passphrase 7"
    response = client.post(response["Location"], {"password1": new, "password2": new})
    assert response.status_code == 302

    assert log_in(client, "alice", new).status_code == 302
    client.logout()
    assert log_in(client, "alice", PASSWORD).status_code == 200  # the old one is gone


def test_a_reset_link_works_once(client, alice):
    request_reset(client)
    link = link_in(mail.outbox[0])
    form = client.get(link)["Location"]
    client.post(
        form, {"password1": "another long passphrase 7", "password2": "another long passphrase 7"}
    )

    response = client.get(link, follow=True)

    assert "The password reset link was invalid" in page(response)


def test_a_forged_reset_link_is_answered_clearly(client, alice):
    response = client.get(
        reverse("account_reset_password_from_key", kwargs={"uidb36": "1", "key": "forged-key"}),
        follow=True,
    )

    assert "The password reset link was invalid" in page(response)
    assert not User.objects.get(pk=alice.pk).check_password("") and User.objects.get(
        pk=alice.pk
    ).check_password(PASSWORD)


def test_an_expired_reset_link_is_answered_clearly(client, alice, settings):
    """A link older than ``PASSWORD_RESET_TIMEOUT`` is refused. Django's token reads its own
    clock, which no public API moves: the timeout is set below the link's age instead (a second
    at most, so -1), and put back, the same link works."""
    request_reset(client)
    link = link_in(mail.outbox[0])
    timeout = settings.PASSWORD_RESET_TIMEOUT
    settings.PASSWORD_RESET_TIMEOUT = -1

    response = client.get(link, follow=True)

    assert "The password reset link was invalid" in page(response)
    settings.PASSWORD_RESET_TIMEOUT = timeout
    response = client.get(link)
    assert response.status_code == 302  # to the form, the key in the session
    assert "The password reset link was invalid" not in page(client.get(response["Location"]))


def test_a_reset_for_an_unknown_address_says_nothing_of_who_has_an_account(client, alice):
    response = request_reset(client, "nobody@example.com")

    assert response["Location"] == reverse("account_reset_password_done")
    (message,) = mail.outbox  # the address's owner learns there is no account
    assert message.to == ["nobody@example.com"]
    assert "/password/reset/key/" not in message.body


def test_password_resets_are_rate_limited(client, alice):
    for _ in range(5):
        request_reset(client)

    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})

    assert response.status_code == 429 or "Too many" in page(response)
    assert len(mail.outbox) == 5


# --- change email and password ----------------------------------------------------------------


def test_change_the_password(client, alice):
    client.force_login(alice)
    new = "another long passphrase 7"

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )

    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).check_password(new)


def test_change_the_password_needs_the_old_one(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("account_change_password"),
        {
            "oldpassword": "wrong",
            "password1": "x long passphrase 9",
            "password2": "x long passphrase 9",
        },
    )

    assert "Please type your current password." in page(response)


def test_change_the_email_address(client, alice):
    EmailAddress.objects.create(user=alice, email=alice.email, primary=True, verified=True)
    client.force_login(alice)

    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@example.net"}
    )

    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["alice@example.net"]
    client.post(link_in(message))
    new = EmailAddress.objects.get(email="alice@example.net")
    assert new.verified
    client.post(reverse("account_email"), {"action_primary": "", "email": "alice@example.net"})
    assert User.objects.get(pk=alice.pk).email == "alice@example.net"


# --- bots -----------------------------------------------------------------------------------


@pytest.fixture
def bot_with_a_password(db):
    """A bot an admin gave a password and an address by mistake: still no way in."""
    bot = bot_user("easy")
    assert not bot.has_usable_password()
    bot.email = "bot@example.com"
    bot.set_password(PASSWORD)
    bot.save()
    return bot


def test_a_bot_cannot_log_in(client, bot_with_a_password):
    for login in ("bot-easy", "bot@example.com"):
        log_in(client, login)
        assert "_auth_user_id" not in client.session
    assert not client.login(username="bot-easy", password=PASSWORD)


def test_a_bot_gets_no_password_reset_link(client, bot_with_a_password):
    request_reset(client, "bot@example.com")

    assert all("/password/reset/key/" not in m.body for m in mail.outbox)


def test_a_bot_is_never_given_a_password_by_allauth(bot_with_a_password):
    from allauth.account.adapter import get_adapter
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        get_adapter().set_password(bot_with_a_password, "anything long enough")
