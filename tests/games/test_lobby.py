"""Tables before play: create, join, leave, bots, start; every refusal changes nothing."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import engine
from games.actions import (
    ActionError,
    add_bot,
    create_game,
    join_game,
    leave_game,
    release_seats,
    remove_bot,
    start_game,
)
from games.actions.lobby import TIME_CONTROLS
from games.forms.new_game import CreateGameForm
from games.models import CHARACTERS, Game, Round

pytestmark = pytest.mark.django_db
DAY = 24 * 3600
CORRESPONDENCE = {"time_control": Game.TimeControl.CORRESPONDENCE, "move_seconds": DAY}


def refused(act, code, action, *args, **kwargs):
    versions = dict(Game.objects.values_list("pk", "version"))
    with pytest.raises(ActionError) as caught:
        act(action, *args, **kwargs)
    assert caught.value.code == code and caught.value.message
    assert dict(Game.objects.values_list("pk", "version")) == versions


def test_a_full_table_of_bots_starts_at_once_and_bots_play_until_a_person_must_act(act, alice):
    game = act(create_game, alice, players=3, bots=["easy", "medium"])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at
    assert Round.objects.get(game=game).number == 1
    state = engine.state_from_json(game.state)
    assert 0 in engine.to_act(state), "bots moved until it was the person's turn"
    assert [s.user.username for s in game.seats.all()] == ["alice", "bot-easy", "bot-medium"]
    assert all(s.user.is_site_bot for s in game.seats.all()[1:])


def test_a_table_with_open_seats_waits_then_starts_when_full(act, alice, bob, make_person):
    game = act(create_game, alice, players=3, bots=[None, "easy"])
    assert game.status == Game.Status.OPEN and game.state is None
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    refused(act, "started", join_game, make_person("carol"), game.pk)


def test_join_refusals(act, alice, bob):
    game = act(create_game, alice, players=2, visibility="private")
    refused(act, "private", join_game, bob, game.pk)
    refused(act, "private", join_game, bob, game.pk, invite_code="wrong")
    refused(act, "seated", join_game, alice, game.pk, invite_code=game.invite_code)
    refused(act, "no_game", join_game, bob, 999999)
    act(join_game, bob, game.pk, invite_code=game.invite_code)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_create_refusals(act, alice):
    refused(act, "players", create_game, alice, players=6)
    refused(act, "target", create_game, alice, players=3, target=0)
    refused(act, "time_control", create_game, alice, players=3, move_seconds=17)
    refused(act, "visibility", create_game, alice, players=3, visibility="secret")
    refused(act, "level", create_game, alice, players=3, bots=["godlike"])
    refused(act, "bots", create_game, alice, players=2, bots=["easy", "easy"])
    bot = User.objects.create(username="botty", bot_level="easy")
    refused(act, "bot", create_game, bot, players=2)
    assert not Game.objects.exists()


def test_only_the_creator_seats_and_unseats_bots_and_starts(act, alice, bob):
    game = act(create_game, alice, players=4)
    act(join_game, bob, game.pk)
    refused(act, "owner", add_bot, bob, game.pk, "easy")
    refused(act, "owner", start_game, bob, game.pk)
    refused(act, "level", add_bot, alice, game.pk, "godlike")
    act(add_bot, alice, game.pk, "hard")
    hard_seat = game.seats.get(user__bot_level="hard").position
    refused(act, "no_bot", remove_bot, alice, game.pk, 1)  # bob is no bot
    act(remove_bot, alice, game.pk, hard_seat)
    assert not game.seats.filter(user__bot_level="hard").exists()
    act(start_game, alice, game.pk, "easy")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(user__bot_level="easy").count() == 2


def test_leaving(act, alice, bob):
    game = act(create_game, alice, players=3)
    act(join_game, bob, game.pk)
    refused(act, "not_seated", leave_game, User.objects.create_user("carol"), game.pk)
    act(leave_game, alice, game.pk)
    game.refresh_from_db()
    assert game.created_by == bob, "the table passes to the next person at it"
    assert act(leave_game, bob, game.pk) is None
    assert not Game.objects.filter(pk=game.pk).exists(), "an empty table is removed"


def test_anonymous_users_are_asked_to_log_in(act):
    from django.contrib.auth.models import AnonymousUser

    refused(act, "login", create_game, AnonymousUser(), players=3)


def test_released_seats_go_to_the_stand_in_bot_and_open_tables_are_left(act, alice, bob):
    playing = act(create_game, alice, players=2)
    act(join_game, bob, playing.pk)
    waiting = act(create_game, alice, players=3)
    act(join_game, bob, waiting.pk)
    act(release_seats, alice)
    playing.refresh_from_db()
    waiting.refresh_from_db()
    assert playing.seats.get(position=0).user.bot_level == "medium"
    assert not waiting.seats.filter(user=alice).exists()
    assert waiting.created_by == bob
    # the stand-in plays on: the game is never left waiting for a player who is gone
    state = engine.state_from_json(playing.state)
    assert engine.to_act(state) != (0,) or playing.moves.filter(seat=0, by_bot=True).exists()


def test_the_admin_shows_games_read_only(act, admin_client, alice):
    from django.urls import reverse

    game = act(create_game, alice, players=2, bots=["easy"])
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and str(game.seed) not in html
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403


def test_tables_say_their_time_control(act, client, alice, bob):
    slow = act(create_game, alice, players=3, time_control="correspondence", move_seconds=2 * DAY)
    quick = act(create_game, alice, players=2, move_seconds=60)
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()
    assert "3 players, correspondence, 2 days a move" in lobby
    assert "2 players, live, 1 minute a move" in lobby
    page = client.get(reverse("game", args=[slow.pk])).content.decode()
    assert "correspondence, 2 days a move" in page
    assert quick.pace == "live, 1 minute a move"


def _options(html: str, name: str) -> list[tuple[str, bool]]:
    """The (value, selected) of each option of the select named ``name``."""
    select = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', html, re.S).group(1)
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="([^"]*)"( selected)?', select)
    ]


def test_the_new_game_form_offers_what_the_code_accepts(client, alice):
    """The times per move, bot levels, seats and visibilities come from the code that checks
    them: every one offered is accepted, and nothing accepted is missing from the form."""
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    times = _options(html, "move_seconds")
    accepted = [f"{c}:{s}" for c, options in TIME_CONTROLS.items() for s in options]
    assert [value for value, _ in times] == accepted
    assert [value for value, selected in times if selected] == ["live:300"]
    seat = _options(html, "seat_1")
    assert [value for value, _ in seat] == ["", *User.BotLevel.values]
    assert [value for value, selected in seat if selected] == [User.DEFAULT_BOT_LEVEL]
    assert [int(value) for value, _ in _options(html, "players")] == list(engine.PLAYER_COUNTS)
    assert ">7 days<" in html and ">1 minute<" in html and ">Medium bot (Crane)<" in html
    for value in accepted:
        form = CreateGameForm({"players": "2", "move_seconds": value})
        assert form.is_valid(), value
    # A menu for each seat but the maker's at the largest table, and one only.
    seats = [f"seat_{p}" for p in range(1, max(engine.PLAYER_COUNTS))]
    assert re.findall(r'<select id="(seat_\d+)"', html) == seats
    assert [name for name in CreateGameForm().fields if name.startswith("seat_")] == seats
    visibilities = _options(html, "visibility")
    assert [value for value, _ in visibilities] == Game.Visibility.values
    assert ">Anyone (listed in the lobby)<" in html
    for value in Game.Visibility.values:
        assert CreateGameForm({"players": "2", "visibility": value}).is_valid(), value


def test_the_add_bot_form_offers_every_level_the_table_takes(act, client, alice):
    """Every level at a correspondence table; all but Expert at a live one."""
    game = act(create_game, alice, players=3, bots=[None, None])
    later = act(create_game, alice, players=3, bots=[None, None], **CORRESPONDENCE)
    client.force_login(alice)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    levels = _options(html, "level")
    assert [value for value, _ in levels] == [v for v in User.BotLevel.values if v != "expert"]
    assert [value for value, selected in levels if selected] == [User.DEFAULT_BOT_LEVEL]
    html = client.get(reverse("game", args=[later.pk])).content.decode()
    assert [value for value, _ in _options(html, "level")] == User.BotLevel.values


def _labels(html: str) -> dict[str, str]:
    """The text of each label of the new-game form, by the id of its field."""
    return dict(re.findall(r'<label [^>]*for="([^"]+)"[^>]*>([^<]*)</label>', html))


def _option_labels(html: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', html, re.S).group(1)
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select))


@pytest.mark.parametrize(
    ("language", "medium", "open_seat"),
    [("en", "Medium bot", "Open for a person"), ("fr", "Bot Moyen", "Libre pour une personne")],
)
def test_the_form_names_each_seat_and_its_bots_as_the_table_will(
    act, client, alice, language, medium, open_seat
):
    """Each other seat by its character, and each bot in its menu by the name the table gives
    it (``Seat.name``): at 5 players the two Medium bots read apart before the game as in it."""
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    labels = _labels(html)
    characters = [str(c) for c in _translated(CHARACTERS, language)]
    assert [labels[f"seat_{p}"] for p in range(1, 5)] == characters[1:]
    menus = [_option_labels(html, f"seat_{p}") for p in range(1, 5)]
    assert [menu["medium"] for menu in menus] == [f"{medium} ({c})" for c in characters[1:]]
    assert all(menu[""] == open_seat for menu in menus)
    # Made with those seats, the table names its bots as the menus did.
    answer = client.post(
        reverse("game_create"), {"players": "5", **{f"seat_{p}": "medium" for p in range(1, 5)}}
    )
    game = Game.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("game", args=[game.pk])
    with translation.override(language):
        names = [str(seat.name) for seat in game.seats.select_related("game", "user")[1:]]
    assert names == [menu["medium"] for menu in menus]
    page = client.get(answer.url).content.decode()
    assert all(name in page for name in names)


def _translated(words, language):
    with translation.override(language):
        return [str(word) for word in words]


def test_seats_beyond_the_number_of_players_are_ignored_and_said_so_only_without_script(
    client, alice
):
    """A page without its script sends every seat: those beyond the number of players are
    neither used nor refused, and only such a page says so (the script hides them)."""
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    hint = "Seats beyond the number of players are ignored."
    assert f'<p class="hint" data-without-script>{hint}</p>' in html  # hidden by lobby.js
    assert html.count(hint) == 1
    answer = client.post(
        reverse("game_create"),
        {"players": "2", "seat_1": "easy", "seat_2": "no such level", "seat_3": "expert"},
    )
    game = Game.objects.get()
    assert answer.url == reverse("game", args=[game.pk])
    assert [s.user.username for s in game.seats.order_by("position")] == ["alice", "bot-easy"]


BAD_INPUT = [
    ({"players": "6"}, "Nyet! is played by 2 to 5 players."),
    ({"players": "two"}, "Choose the number of players and the rounds from the form."),
    ({"players": "3", "seat_2": "godlike"}, "Tiger: choose a bot level or an open seat."),
    ({"players": "3", "seat_1": "expert"}, "The Expert bot plays only correspondence games"),
    ({"players": "3", "target": "0"}, "The point target must be between 1 and"),
]


def test_bad_input_to_the_form_says_what_is_wrong_and_makes_nothing(client, alice):
    """Each refusal in a sentence, naming the seat at fault; a bad seat beyond the number of
    players is not what is refused."""
    client.force_login(alice)
    for data, message in BAD_INPUT:
        for sent in (data, {**data, "seat_4": "godlike"}):
            page = client.post(reverse("game_create"), sent, follow=True).content.decode()
            assert 'class="message-error"' in page and message in page, sent
            assert not Game.objects.exists()
