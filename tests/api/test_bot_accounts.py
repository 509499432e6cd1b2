"""Bot accounts (issue 18, as lichess does it): a new account turned into a bot for good, which
plays through the API only, shows the bot mark, is rated with the bots, is seated by a table's
owner, and times out like a person. Every refusal changes nothing and is never a 500."""

import random

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

import accounts.selectors
from accounts.models import Rating, RatingChange, User
from games.actions import (
    ActionError,
    become_bot_account,
    create_game,
    join_game,
    leave_game,
    post_chat,
    report_chat,
    seat_bot_account,
)
from games.actions.deadlines import due
from games.models import ChatMessage, ChatReport, Game, MoveRecord, Seat
from tests.api.helpers import Caller, refusal
from tests.games.conftest import DAY, play_person_move, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(make_person):
    return make_person("robo")


@pytest.fixture
def bot_account(robo):
    become_bot_account(robo)
    return robo


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- becoming a bot account ---------------------------------------------------------------------


def test_a_new_account_becomes_a_bot_account_with_a_bot_token(robo):
    answer = Caller(robo, scopes=("bot",)).post("/account/bot")
    assert answer.status_code == 200, answer.content
    assert answer.json()["is_bot"] is True and answer.json()["username"] == "robo"
    robo.refresh_from_db()
    assert robo.bot_account and robo.plays_as_bot and not robo.is_site_bot
    # for good: a second time is refused, and it stays a bot account
    refusal(Caller(robo, scopes=("bot",)).post("/account/bot"), 400, "bot_account")
    robo.refresh_from_db()
    assert robo.bot_account


def test_becoming_a_bot_needs_the_bot_scope(robo, client):
    refusal(Caller(robo, scopes=("read", "play")).post("/account/bot"), 403, "scope")
    client.force_login(robo)  # the site's own session is not a bot token either
    answer = client.post("/api/v1/account/bot", "{}", content_type="application/json")
    assert answer.status_code == 403 and answer.json()["code"] == "scope"
    robo.refresh_from_db()
    assert not robo.bot_account


def test_an_account_that_has_sat_at_a_table_cannot_become_a_bot(act, robo, client):
    act(create_game, robo, players=2, bots=["easy"])
    message = refusal(Caller(robo, scopes=("bot",)).post("/account/bot"), 400, "played")
    assert "new account" in message
    robo.refresh_from_db()
    assert not robo.bot_account
    client.force_login(robo)
    page = client.get(reverse("api_tokens")).content.decode()
    assert "Only a new account" in page and 'name="bot_account"' not in page
    answer = client.post(reverse("api_tokens"), {"bot_account": "1", "confirm": "yes"})
    assert answer.status_code == 200 and any("new account" in m for m in messages_of(answer))
    robo.refresh_from_db()
    assert not robo.bot_account


def test_the_tokens_page_turns_a_new_account_into_a_bot_after_a_confirmation(robo, client):
    client.force_login(robo)
    page = client.get(reverse("api_tokens")).content.decode()
    assert "Turn this account into a bot account" in page and "cannot be undone" in page
    answer = client.post(reverse("api_tokens"), {"bot_account": "1"})  # no "Yes"
    assert answer.status_code == 200 and any("confirm" in m for m in messages_of(answer))
    robo.refresh_from_db()
    assert not robo.bot_account
    answer = client.post(reverse("api_tokens"), {"bot_account": "1", "confirm": "yes"})
    assert answer.status_code == 302
    robo.refresh_from_db()
    assert robo.bot_account
    page = client.get(reverse("api_tokens")).content.decode()
    assert "This is a bot account" in page and 'name="bot_account"' not in page


# --- seated by a table's owner ------------------------------------------------------------------


def test_the_owner_seats_a_bot_account_by_its_name_through_the_api(act, alice, bob, bot_account):
    game = act(create_game, alice, players=3, bots=[None, None])
    owner = Caller(alice)
    url = f"/games/{game.pk}/seat-bot"
    refusal(Caller(bob).post(url, {"username": "robo"}), 400, "owner")
    refusal(owner.post(url, {"username": "nobody"}), 400, "no_bot_account")
    refusal(owner.post(url, {"username": "bob"}), 400, "no_bot_account")  # a person
    refusal(owner.post(url, {"username": "bot-easy"}), 400, "no_bot_account")  # our levels
    refusal(owner.post(url, {}), 400, "malformed")
    assert not Seat.objects.filter(game=game, user__isnull=False).exclude(user=alice).exists()
    seated = owner.post(f"/games/{game.pk}/seat-bot", {"username": "ROBO"})
    assert seated.status_code == 200, seated.content
    robo_seat = next(s for s in seated.json()["seats"] if s["username"] == "robo")
    assert robo_seat["is_bot"] is True and seated.json()["status"] == "open"
    version = Game.objects.get(pk=game.pk).version
    refusal(owner.post(url, {"username": "robo"}), 400, "seated")
    assert Game.objects.get(pk=game.pk).version == version
    # the owner may take it off again, like one of our bots
    position = robo_seat["position"]
    client = Client()
    client.force_login(alice)
    client.post(reverse("game_remove_bot", args=[game.pk]), {"position": position})
    assert not Seat.objects.filter(game=game, user=bot_account).exists()


def test_the_table_page_seats_a_bot_account_and_shows_its_mark(act, client, alice, bot_account):
    game = act(create_game, alice, players=2, bots=[None])
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'name="username"' in page and "Seat this bot account" in page
    assert 'for="bot-account"' in page  # the field has its label
    answer = client.post(reverse("game_seat_bot_account", args=[game.pk]), {"username": "nobody"})
    assert answer.status_code == 302
    assert any("no bot account" in m for m in messages_of(answer))
    answer = act(
        client.post, reverse("game_seat_bot_account", args=[game.pk]), {"username": "robo"}
    )
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE, "the table was full: it started at once"
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    panel = page.split('id="seat-1-name"')[1].split("</ul>")[0]
    assert "robo" in panel and '<li class="mark">bot</li>' in panel
    in_play = client.get(reverse("games_in_play")).content.decode()
    assert 'robo <span class="tag">bot</span>' in in_play


def test_a_table_left_with_only_a_bot_account_is_removed(act, alice, bot_account):
    game = act(create_game, alice, players=3, bots=[None, None])
    act(seat_bot_account, alice, game.pk, "robo")
    assert act(leave_game, alice, game.pk) is None
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_bot_accounts_own_table_stays_when_a_person_leaves_it(act, bob, bot_account):
    game = act(create_game, bot_account, players=3, bots=[None, None])
    act(join_game, bob, game.pk)
    assert act(leave_game, bob, game.pk) is not None
    game.refresh_from_db()
    assert game.created_by == bot_account and game.status == Game.Status.OPEN


# --- the site's pages refuse a bot account; the API plays ---------------------------------------


def test_a_bot_account_cannot_play_through_the_pages(act, client, alice, bot_account):
    open_table = act(create_game, alice, players=3, bots=["easy", None])
    game = act(create_game, alice, players=3, bots=["easy", None])
    act(seat_bot_account, alice, game.pk, "robo")
    game.refresh_from_db()
    version, games, seats = game.version, Game.objects.count(), Seat.objects.count()
    client.force_login(bot_account)
    answer = client.post(reverse("game_create"), {"players": 2, "seat_1": "easy"})
    assert answer.status_code == 302 and answer.url == reverse("lobby")
    assert any("API only" in m for m in messages_of(answer))
    for name, pk, data in [
        ("game_join", open_table.pk, {}),
        ("game_move", game.pk, {"kind": "play", "card": "Y7", "version": version}),
        ("game_resign", game.pk, {"confirm": "yes"}),
        ("game_rematch", game.pk, {}),
    ]:
        answer = client.post(reverse(name, args=[pk]), data)
        assert answer.status_code == 302, name
        assert any("API only" in m for m in messages_of(answer)), name
    fragment = client.post(
        reverse("game_move", args=[game.pk]), {"kind": "play"}, headers={"HX-Request": "true"}
    )
    assert fragment.status_code == 200 and "API only" in fragment.content.decode()
    game.refresh_from_db()
    assert (game.version, Game.objects.count(), Seat.objects.count()) == (version, games, seats)
    robo_seat = game.seats.get(user=bot_account).position
    assert not MoveRecord.objects.filter(game=game, seat=robo_seat).exists()
    assert client.get(reverse("game", args=[game.pk])).status_code == 200  # it may still watch
    lobby = client.get(reverse("lobby")).content.decode()
    assert "This is a bot account" in lobby and 'action="/games/new/"' not in lobby


def test_a_seated_bot_account_has_no_chat(act, client, alice, bot_account):
    game = act(create_game, alice, players=3, bots=["easy", None])
    act(seat_bot_account, alice, game.pk, "robo")
    hello = act(post_chat, alice, game.pk, "hello robo")
    with pytest.raises(ActionError) as refused:
        act(post_chat, bot_account, game.pk, "beep")
    assert refused.value.code == "bot" and "Bots do not chat" in refused.value.message
    with pytest.raises(ActionError):
        act(report_chat, bot_account, game.pk, hello.pk)
    client.force_login(bot_account)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="chat"' not in page and "hello robo" not in page
    answer = client.post(reverse("game_chat", args=[game.pk]), {"text": "beep via the page"})
    assert answer.status_code == 302 and any("API only" in m for m in messages_of(answer))
    client.post(reverse("game_chat", args=[game.pk]), {"text": "beep"}, headers={"HX-Request": "1"})
    client.post(reverse("game_chat_report", args=[game.pk]), {"message": hello.pk})
    read = client.get(reverse("game_chat", args=[game.pk]), headers={"HX-Request": "1"})
    assert "hello robo" not in read.content.decode()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hello robo"]
    assert not ChatReport.objects.exists()
    # nor through the API: the game as its seat sees it carries no chat, and there is no chat call
    program = Caller(bot_account, scopes=("bot",))
    body = program.get(f"/games/{game.pk}")
    assert body.status_code == 200 and "hello robo" not in body.content.decode()
    assert "chat" not in body.json()
    assert program.post(f"/games/{game.pk}/chat", {"text": "beep"}).status_code == 404
    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize("scopes", [("bot",), ("read", "play")])
def test_a_bot_account_plays_through_the_api(act, bot_account, scopes):
    program = Caller(bot_account, scopes=scopes)
    made = act(program.post, "/games", {"players": 2, "bots": ["easy"]})  # the bot answers
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    rng = random.Random(3)
    body = program.get(f"/games/{game_id}").json()
    assert body["status"] == "active" and body["legal"], "the bot account's turn"
    moved = program.post(
        f"/games/{game_id}/move", {"version": body["version"], "move": rng.choice(body["legal"])}
    )
    assert moved.status_code == 200, moved.content
    assert MoveRecord.objects.filter(game_id=game_id, by_bot=False).exists()


def test_the_actions_refuse_our_own_bots_and_anonymous_users(alice):
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import bot_user

    for who in (AnonymousUser(), bot_user("easy")):
        with pytest.raises(ActionError):
            become_bot_account(who)
    assert not User.objects.filter(bot_account=True).exists()


# --- the clock, and the bot pool ------------------------------------------------------------------


def test_a_bot_account_that_never_moves_times_out_and_is_rated_with_the_bots(
    act, client, alice, bot_account, clock, django_capture_on_commit_callbacks, monkeypatch
):
    """Seated by alice in a correspondence game, the bot account never moves: each missed
    deadline is a stand-in move, three in a row put it on autopilot, as for a person; alice
    plays on, so the game is rated, and the bot account is ranked with the bots."""
    game = act(
        create_game,
        alice,
        players=3,
        bots=["easy", None],
        time_control=Game.TimeControl.CORRESPONDENCE,
        move_seconds=DAY,
    )
    act(seat_bot_account, alice, game.pk, "robo")
    rng = random.Random(7)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        if not play_person_move(act, game, alice, rng):
            clock.advance(hours=25)
            for _ in range(2):
                with django_capture_on_commit_callbacks(execute=True):
                    due()
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(user=bot_account)
    timeouts = MoveRecord.objects.filter(game=game, seat=seat.position, timeout=True)
    assert timeouts.count() == 3 and seat.autopilot
    assert state_of(game).phase == "over"
    assert RatingChange.objects.filter(game=game, user=bot_account).exists()
    rating = Rating.objects.get(user=bot_account)
    assert rating.games == 1
    monkeypatch.setattr(accounts.selectors, "LEADERBOARD_MIN_GAMES", 1)
    board = client.get(reverse("leaderboard")).content.decode()
    assert 'robo</a> <span class="tag tag-muted">bot</span>' in board
    assert 'alice</a> <span class="tag">' not in board
    profile = client.get(reverse("profile", args=["robo"])).content.decode()
    assert '<h1>robo <span class="tag">bot</span></h1>' in profile
