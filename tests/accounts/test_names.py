"""No name reads like another: display names and usernames are compared case- and
confusable-insensitively (UTS #39 skeletons) with every player's username and display name, and
with the bots' names. (The skeleton itself: test_names_skeleton.py.)"""

import pytest
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from accounts.names import clashes, name_key, reads_as_bot

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db
# As a page shows it (the apostrophe escaped).
CLASH = escape("This name reads like another player's name: choose one that stands apart.")
CYRILLIC_O = "\u043e"
GREEK_BETA = "\u0392"  # a capital, which looks like a Latin B; its small form β does not


def sign_up(client, username):
    data = {
        "username": username,
        "email": f"{len(username)}x@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("account_signup"), data, follow=True).content.decode()


def save_display_name(client, user, name) -> str:
    client.force_login(user)
    data = {"display_name": name, "time_zone": "UTC", "email_turn": "at_once"}
    response = client.post(reverse("settings"), data, follow=True)
    return response.content.decode()


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("demo", f"dem{CYRILLIC_O}"),  # a Cyrillic о
        ("Alice", "aLiCe"),
        ("Medium bot", "Medium b0t"),
        ("Medium bot", "Mediumbot"),
        ("Medium bot", "medium-BOT"),
        ("paypal", "pаypal"),  # a Cyrillic а
        ("rn", "m"),
        ("l1", "ll"),  # a one for a small L
        ("alice", "aIice"),  # a capital i for a small L
        ("ALICE", "alice"),
        ("Ivan", "ivan"),
        ("Ali", "All"),  # the price of the two above: i and l are one letter
        ("alice", "al\u200bice"),  # a zero width space
        ("alice", "alice\ufe0f"),  # a variation selector
        ("Bob", "\uff22ob"),  # a fullwidth B
    ],
)
def test_names_that_read_alike_have_one_key(one, other):
    assert one != other and name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Alice", "Alicia"), ("Zoe", "Zoë"), ("ab", "ba")])
def test_names_that_read_differently_have_their_own_keys(one, other):
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize(
    "name",
    [
        "Medium b0t",
        "Easy Bot",
        "Hard-bot",
        "Mediumbot",
        "bot-easy",
        "b0t-x",
        "Bot Facile",
        "B0T",
        "Easy \u0392\u039f\u03a4",  # Greek capitals
        "Expert bot\u200b",
    ],
)
def test_these_read_as_bots(name):
    assert reads_as_bot(name)


@pytest.mark.parametrize("name", ["Robot Wars", "Abbott", "Botticelli", "Anna K."])
def test_these_do_not(name):
    assert not reads_as_bot(name)


def test_a_cyrillic_twin_of_a_username_cannot_sign_up(client, make_person):
    make_person("demo")
    page = sign_up(client, f"dem{CYRILLIC_O}")
    assert CLASH in page
    assert not User.objects.filter(username=f"dem{CYRILLIC_O}").exists()
    assert CLASH in sign_up(client, f"DEM{CYRILLIC_O.upper()}")
    assert User.objects.count() == 1


def test_a_capital_i_for_a_small_l_cannot_sign_up_beside_it(client, make_person):
    make_person("alice")
    assert CLASH in sign_up(client, "aIice")
    assert CLASH in sign_up(client, "AIice")
    assert not User.objects.filter(username__in=["aIice", "AIice"]).exists()


def test_nor_the_other_way_round(client, make_person):
    make_person("aIice")
    assert CLASH in sign_up(client, "alice")
    assert not User.objects.filter(username="alice").exists()


def test_a_greek_capital_twin_cannot_sign_up_beside_the_latin_name(client, make_person):
    make_person("Bob")
    assert CLASH in sign_up(client, f"{GREEK_BETA}ob")
    assert not User.objects.filter(username=f"{GREEK_BETA}ob").exists()


def test_a_greek_capital_twin_that_came_first_keeps_only_its_own_key(client, make_person):
    """Its key is that of its small form ("βob", Greek): a later "Bob" is not stopped by it (the
    name as written is compared only for the name being taken)."""
    make_person(f"{GREEK_BETA}ob")
    assert CLASH not in sign_up(client, "Bob")
    assert User.objects.filter(username="Bob").exists()


def test_a_username_cannot_read_like_someone_s_display_name(client, make_person):
    make_person("anna", display_name="Queen Bee")
    assert CLASH in sign_up(client, "QueenBee")
    assert CLASH in sign_up(client, "queen_bee")
    assert CLASH not in sign_up(client, "queenbea")


def test_a_username_cannot_read_as_a_bot(client):
    assert "Only the bots are called bots." in sign_up(client, "mediumb0t")
    assert not User.objects.exists()


def test_a_display_name_cannot_be_another_player_s_username(client, alice, bob):
    page = save_display_name(client, bob, "Alice")
    assert CLASH in page
    bob.refresh_from_db()
    assert bob.display_name == ""
    assert CLASH in save_display_name(client, bob, "A1ice".replace("1", "l"))


def test_a_display_name_cannot_be_another_s_display_name(client, make_person, bob):
    make_person("carla", display_name="The Wolf")
    assert CLASH in save_display_name(client, bob, "the wolf")
    assert CLASH in save_display_name(client, bob, "THE W0LF".replace("0", CYRILLIC_O.upper()))


def test_a_display_name_cannot_read_as_a_bot(client, alice):
    for name in ("Medium b0t", "Mediumbot", "Easy-Bot"):
        assert "Only the bots are called bots." in save_display_name(client, alice, name)
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_one_s_own_username_is_a_fine_display_name(client, alice):
    page = save_display_name(client, alice, "ALICE")
    assert "Your settings are saved." in page
    alice.refresh_from_db()
    assert alice.display_name == "ALICE" and alice.name == "ALICE"


def test_a_display_name_needs_a_letter(client, alice):
    assert "A name needs a letter or a digit." in save_display_name(client, alice, "...")


def test_an_old_clash_stays_but_cannot_be_saved_again(client, make_person):
    """Names taken before this check are left as they are; their owner can only move away."""
    make_person("ivan")
    twin = make_person("other", display_name="Ivan")
    assert clashes("Ivan", exclude_user_id=twin.pk)
    assert CLASH in save_display_name(client, twin, "Ivan")
    twin.refresh_from_db()
    assert twin.display_name == "Ivan"  # left as it was
    assert "Your settings are saved." in save_display_name(client, twin, "Ivan the Second")


def test_keys_follow_the_names(make_person):
    user = make_person("demo")
    assert user.username_key == name_key("demo") and user.display_name_key == ""
    user.display_name = "The Wolf"
    user.save(update_fields=["display_name"])
    user.refresh_from_db()
    assert user.display_name_key == name_key("the wolf")
