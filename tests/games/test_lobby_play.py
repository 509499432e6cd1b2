"""The lobby's one-click play ("Play against bots: 2, 3, 4, 5 players", live or correspondence,
issue 32): one POST makes a started table with the player in seat 0 and bots of the default
level in the others, through ``actions.play_against_bots`` (``create_game``'s checks), behind the
new-game form's limits and refusals; the lobby offers the last choice first; a visitor who is
not logged in is sent to log in and comes back to the same choice. Open tables as cards with
their seats and a Join button."""

import re
import types
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse
from django.utils.http import urlencode

from accounts.models import User
from games import engine, limits, presence
from games.actions import ActionError, create_game, join_game, play_against_bots
from games.actions.lobby import PLAY_AGAINST_BOTS_SECONDS
from games.models import Game

pytestmark = pytest.mark.django_db
PLAY = reverse("game_play_bots")
SEAT = (
    r'<li class="(taken|empty)"><span class="seat-character">(\w+)</span> '
    r'<span class="seat-who">([^<]+)</span></li>'
)


def seats_of(game: Game) -> list[str]:
    return [s.user.username if s.user else None for s in game.seats.order_by("position")]


def last_choice(html: str) -> tuple[str, str]:
    """The players button the lobby offers first, and the pace ticked."""
    button = re.search(r'<button [^>]*value="(\d)"[^>]*data-last-choice', html)
    pace = re.search(r'<input type="radio" name="pace" value="(\w+)" checked>', html)
    return button.group(1), pace.group(1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_one_post_makes_a_started_game_against_bots_and_goes_to_it(client, alice, players):
    client.force_login(alice)
    answer = client.post(PLAY, {"players": str(players), "pace": "live"})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("game", args=[game.pk])
    assert game.status == Game.Status.ACTIVE and game.players == players
    assert seats_of(game) == ["alice"] + [f"bot-{User.DEFAULT_BOT_LEVEL}"] * (players - 1)
    assert (game.time_control, game.move_seconds) == ("live", 5 * 60)
    assert game.visibility == Game.Visibility.PUBLIC and game.created_by == alice
    # The table is the player's, with their hand.
    page = client.get(answer.url).content.decode()
    assert 'aria-label="Your hand"' in page


def test_correspondence_is_days_a_move(client, alice):
    client.force_login(alice)
    client.post(PLAY, {"players": "3", "pace": "correspondence"})
    game = Game.objects.get()
    assert (game.time_control, game.move_seconds) == ("correspondence", 3 * 24 * 3600)
    assert game.pace == "correspondence, 3 days a move"


def test_the_action_checks_as_create_game_does(act, alice):
    game = act(play_against_bots, alice, players=2, time_control="correspondence")
    assert game.move_seconds == PLAY_AGAINST_BOTS_SECONDS["correspondence"]
    bot = User.objects.create(username="botty", bot_level="easy")
    for user, options, code in [
        (alice, {"players": 6, "time_control": "live"}, "players"),
        (alice, {"players": 1, "time_control": "live"}, "players"),
        (alice, {"players": 3, "time_control": "blitz"}, "time_control"),
        (bot, {"players": 3, "time_control": "live"}, "bot"),
    ]:
        with pytest.raises(ActionError) as refused:
            act(play_against_bots, user, **options)
        assert refused.value.code == code and refused.value.message
    assert Game.objects.count() == 1


BAD_INPUT = [
    ({"players": "6"}, "Nyet! is played by 2 to 5 players."),
    ({"players": "1"}, "Nyet! is played by 2 to 5 players."),
    ({"players": "three"}, "Nyet! is played by 2 to 5 players."),
    ({}, "Nyet! is played by 2 to 5 players."),
    ({"players": "3", "pace": "blitz"}, "Choose live or correspondence."),
    ({"players": "3", "pace": "x" * 200}, "Choose live or correspondence."),
]


@pytest.mark.parametrize(("data", "message"), BAD_INPUT)
def test_bad_input_says_what_is_wrong_and_makes_nothing(client, alice, data, message):
    client.force_login(alice)
    page = client.post(PLAY, data, follow=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="message-error"' in html and message in html
    assert not Game.objects.exists()
    # The same by GET (the way back from logging in): a message, nothing made.
    page = client.get(PLAY, data, follow=True)
    assert page.status_code == 200 and message in page.content.decode()
    assert not Game.objects.exists()


def test_the_new_game_forms_rate_limit_counts_one_click_play_too(
    client, alice, settings, monkeypatch
):
    """Tables made by the form and by one click count together ("create"); over the limit the
    answer is 429 with when to try again, and nothing is made."""
    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0  # django-ratelimit's clock stopped: no window ends mid-test
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    client.force_login(alice)
    per_minute = int(limits.RATES["create"]["user"][0].split("/")[0])
    for n in range(per_minute - 1):
        assert client.post(PLAY, {"players": "2"}).status_code == 302, n
    form = {"players": "2", "seat_1": "easy"}
    assert client.post(reverse("game_create"), form).status_code == 302
    assert Game.objects.count() == per_minute
    for over in (client.post(PLAY, {"players": "2"}), client.post(reverse("game_create"), form)):
        assert over.status_code == 429 and int(over["Retry-After"]) > 0
        assert "You have created many tables just now." in over.content.decode()
    assert Game.objects.count() == per_minute


def test_a_bot_account_is_refused_as_by_the_form(client, alice):
    alice.bot_account = True
    alice.save(update_fields=["bot_account"])
    client.force_login(alice)
    page = client.post(PLAY, {"players": "3"}, follow=True).content.decode()
    assert "A bot account plays through the API only" in page
    assert not Game.objects.exists()
    assert 'action="/games/play/"' not in client.get("/").content.decode()


def test_a_get_changes_nothing(client, alice):
    """The page a logged-in GET shows: the choice in words and the one button that makes it."""
    client.force_login(alice)
    page = client.get(PLAY, {"players": "4", "pace": "correspondence"})
    html = page.content.decode()
    assert page.status_code == 200 and not Game.objects.exists()
    assert "4 players, correspondence, 3 days a move." in html
    assert '<input type="hidden" name="players" value="4">' in html
    assert '<input type="hidden" name="pace" value="correspondence">' in html
    assert re.search(r'<form method="post" action="/games/play/">', html)


def test_a_visitor_is_sent_to_log_in_and_comes_back_to_the_same_choice(client, alice):
    lobby = client.get("/").content.decode()
    # Logged out, the buttons are the same, sent by GET (nothing is made by a GET).
    assert re.search(r'<form method="get" action="/games/play/"', lobby)
    assert len(re.findall(r'<button type="submit" name="players" value="\d"', lobby)) == 4
    query = urlencode({"pace": "correspondence", "players": "3"})
    answer = client.get(f"{PLAY}?{query}")
    login = reverse("account_login")
    assert answer.status_code == 302
    where = urlsplit(answer.url)
    assert where.path == login and parse_qs(where.query) == {"next": [f"{PLAY}?{query}"]}
    # The login page passes the way back on to its sign-up link.
    login_page = client.get(answer.url).content.decode()
    signups = re.findall(r'href="/accounts/signup/\?([^"]*)"', login_page)
    assert {"next": [f"{PLAY}?{query}"]} in [parse_qs(q.replace("&amp;", "&")) for q in signups]
    answer = client.post(
        answer.url,
        {"login": "alice", "password": "a long passphrase 42", "next": f"{PLAY}?{query}"},
    )
    assert answer.status_code == 302 and answer.url == f"{PLAY}?{query}"
    assert "3 players, correspondence, 3 days a move." in client.get(answer.url).content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("made", "offered"),
    [
        (None, ("4", "live")),  # nothing yet: the new-game form's default count, live
        ({"players": 5, "time_control": "correspondence"}, ("5", "correspondence")),
        ({"players": 2, "time_control": "live"}, ("2", "live")),
    ],
)
def test_the_lobby_offers_the_last_choice_first(act, client, alice, made, offered):
    if made:
        act(play_against_bots, alice, **made)
    client.force_login(alice)
    assert last_choice(client.get("/").content.decode()) == offered


def test_the_last_choice_is_the_latest_game_against_bots_only(act, client, alice, bob, clock):
    """A game with a person in it, or made by someone else, is not a choice of one-click play;
    a game made by the full form against bots is."""
    act(play_against_bots, alice, players=3, time_control="correspondence")
    clock.advance(seconds=5)
    with_bob = act(create_game, alice, players=4, bots=["easy", "easy"])
    act(join_game, bob, with_bob.pk)
    clock.advance(seconds=5)
    act(create_game, bob, players=5, bots=["easy", "easy", "easy", None])  # bob's table
    client.force_login(alice)
    assert last_choice(client.get("/").content.decode()) == ("3", "correspondence")
    clock.advance(seconds=5)
    act(create_game, alice, players=2, bots=["hard"])
    assert last_choice(client.get("/").content.decode()) == ("2", "live")


def test_a_logged_out_visitor_is_offered_the_default_with_no_last_choice_said(client):
    html = client.get("/").content.decode()
    assert last_choice(html) == ("4", "live")
    assert 'aria-describedby="play-last"' not in html


def test_open_tables_are_cards_with_their_seats_and_a_join_button(act, client, alice, bob):
    game = act(create_game, bob, players=4, bots=["easy", None, None])
    client.force_login(alice)
    html = client.get("/").content.decode()
    card = html[html.index('id="open-title"') :]
    assert "4 players, live, 5 minutes a move" in card
    seats = re.findall(SEAT, card)
    assert seats == [
        ("taken", "Wolf", "bob"),
        ("taken", "Crane", "Easy bot (Crane)"),
        ("empty", "Tiger", "(open seat)"),
        ("empty", "Bear", "(open seat)"),
    ]
    join = reverse("game_join", args=[game.pk])
    assert f'<form method="post" action="{join}">' in card
    assert f"Join game {game.pk}" in card
    # The Join button joins.
    answer = client.post(join)
    assert answer.status_code == 302 and game.seats.filter(user=alice, position=2).exists()
    # At a table of their own a player is offered no Join, and a visitor is asked to log in.
    html = client.get("/").content.decode()
    assert f"Join game {game.pk}" not in html and "Your table" in html
    client.logout()
    html = client.get("/").content.decode()
    assert f'href="{reverse("account_login")}?next={reverse("game", args=[game.pk])}"' in html


def test_the_lobby_says_who_is_online(client, alice, bob, make_person):
    presence.seen(bob.pk)
    client.force_login(alice)
    html = client.get("/").content.decode()
    online = html[html.index('id="online-title"') :]
    assert f'href="{reverse("profile", args=["bob"])}"' in online


def test_one_click_play_keeps_the_engine_rules(act, alice):
    """The bots have played up to the player's first turn: the player acts in the game."""
    game = act(play_against_bots, alice, players=3, time_control="live")
    game.refresh_from_db()
    assert 0 in engine.to_act(engine.state_from_json(game.state))
