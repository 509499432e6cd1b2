"""The API's typed schemas: the view of every phase of whole games, the moves as a union of one
schema per kind, the enums, the seats of a game, the streams in openapi.json, and a discard or
pass that needs no round."""

import json
import random

import pytest
from django.test import Client
from pydantic import TypeAdapter, ValidationError

from accounts.models import User
from api.presenters import game_json
from api.schemas import enums, events
from api.schemas.games import GameOut, RecordOut
from api.schemas.moves import MOVE_KINDS, Move, SeatedMove
from api.schemas.view import View
from games import engine
from games.actions import create_game, join_game, submit_move
from games.actions.lobby import TIME_CONTROLS
from games.bots import make_bot
from games.models import Game, MoveRecord
from tests.api.helpers import API, Caller, read_exactly, refusal
from tests.games.conftest import seat_of, state_of

pytestmark = pytest.mark.django_db
MOVES = TypeAdapter(Move)
SEATED_MOVES = TypeAdapter(SeatedMove)


@pytest.fixture
def caller(alice):
    return Caller(alice)


def as_json(data):
    return json.loads(json.dumps(data))


def test_reading_exactly_refuses_an_unknown_key_and_a_wrong_type():
    view = as_json(engine.view(engine.new_game(3, seed=1), 0))
    read_exactly(View, view)
    with pytest.raises(AssertionError):
        read_exactly(View, {**view, "seed": 1})
    with pytest.raises(AssertionError):
        read_exactly(View, {**view, "board": {**view["board"], "secret": []}})
    with pytest.raises(ValidationError):
        read_exactly(View, {**view, "hand": ["Z9"]})
    with pytest.raises(ValidationError):
        read_exactly(View, {**view, "phase": "lunch"})


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (3, 5)])
def test_the_view_schema_reads_every_view_of_whole_games(players, seed):
    """Every seat's view and the spectator's, after every move of a whole game played by the
    bots, read exactly; every legal move too, seated and not."""
    state = engine.new_game(players, seed, target=None if seed != 5 else 30)
    bots = [make_bot("easy", seed=f"{seed}/{s}") for s in range(players)]
    phases = set()
    while True:
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            read_exactly(View, view)
            for move in view["legal"]:
                read_exactly(SEATED_MOVES, move)
                read_exactly(MOVES, {k: v for k, v in move.items() if k != "seat"})
        phases.add(state.phase)
        if state.phase == engine.OVER:
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, bots[seat].choose(engine.view(state, seat)))
    expected = set(engine.PHASES) - ({engine.TEAMS} if players == 2 else set())
    assert phases >= expected


def test_the_phases_and_the_board_are_the_engine_s():
    assert [p.value for p in enums.Phase] == list(engine.PHASES)
    assert [c.value for c in enums.Line] == list(engine.LINES)
    assert [c.value for c in enums.DiscardRule] == list(engine.BOXES["discard"])
    assert [c.value for c in enums.SuperColor] == list(engine.BOXES["super"])


def test_the_enums_are_the_site_s_own_lists():
    components = Client().get(API + "/openapi.json").json()["components"]["schemas"]
    assert components["BotLevel"]["enum"] == User.BotLevel.values
    assert components["GameStatus"]["enum"] == Game.Status.values
    assert components["Visibility"]["enum"] == Game.Visibility.values
    assert components["TimeControl"]["enum"] == Game.TimeControl.values
    assert components["Pace"]["enum"] == [
        f"{control}:{seconds}" for control, options in TIME_CONTROLS.items() for seconds in options
    ]
    table = components["TableOut"]["properties"]
    assert table["status"] == {"$ref": "#/components/schemas/GameStatus"}
    new = components["NewTable"]["properties"]
    assert new["move_seconds"]["anyOf"][0] == {"$ref": "#/components/schemas/Pace"}
    assert "schemas/BotLevel" in json.dumps(components["StartIn"]["properties"]["level"])
    game = components["GameOut"]["properties"]
    assert game["view"]["anyOf"][0] == {"$ref": "#/components/schemas/View"}
    assert game["legal"]["items"]["oneOf"][0] == {"$ref": "#/components/schemas/TokenMove"}
    assert game["seats"]["items"] == {"$ref": "#/components/schemas/SeatOut"}
    move_in = components["MoveIn"]
    assert move_in["required"] == ["version", "move"]  # no round
    assert "Not needed" in move_in["properties"]["round"]["description"]
    assert len(move_in["properties"]["move"]["oneOf"]) == len(MOVE_KINDS)


def test_a_bad_level_or_pace_is_refused_as_malformed_and_makes_nothing(caller):
    for body in (
        {"players": 3, "bots": ["grandmaster"]},
        {"players": 3, "move_seconds": "live:7"},
        {"players": 3, "visibility": "secret"},
    ):
        message = refusal(caller.post("/games", body), 400, "malformed")
        assert "body" in message
    assert Game.objects.count() == 0
    made = caller.post("/games", {"players": 3, "bots": ["hard", None], "visibility": "private"})
    assert made.status_code == 201, made.content
    assert made.json()["visibility"] == "private"
    refusal(
        caller.post(f"/games/{made.json()['id']}/start", {"level": "godlike"}), 400, "malformed"
    )


def test_a_game_is_read_exactly_by_its_schema_with_its_seats(caller, act, alice, bob, client):
    game = act(create_game, alice, players=3, bots=["easy", "medium"])
    body = caller.get(f"/games/{game.pk}").json()
    read_exactly(GameOut, body)
    assert body["view"] == as_json(engine.view(state_of(game), body["my_seat"]))
    assert [(s["position"], s["is_bot"]) for s in body["seats"]] == [
        (0, False),
        (1, True),
        (2, True),
    ]
    assert body["seats"][0]["username"] == "alice" and body["seats"][0]["name"]
    client.force_login(bob)  # a spectator: the same, with a spectator's view
    watched = client.get(f"{API}/games/{game.pk}").json()
    read_exactly(GameOut, watched)
    assert watched["my_seat"] is None and watched["view"]["hand"] == []
    assert watched["seats"] == body["seats"]
    table = act(create_game, alice, players=2)  # before it starts: no view, still its seats
    waiting = caller.get(f"/games/{table.pk}").json()
    read_exactly(GameOut, waiting)
    assert waiting["view"] is None and waiting["seats"][0]["username"] == "alice"


def test_a_finished_game_s_record_is_read_exactly(caller, act, alice):
    from tests.games.conftest import play_out

    game = act(create_game, alice, players=2, bots=["easy"], target=1)
    play_out(act, game, [alice], random.Random(4))
    read_exactly(RecordOut, caller.get(f"/games/{game.pk}/record").json())


def two_people_at_a_turn(act, alice, bob):
    """A game of alice and bob (no bot) at a turn of bob's in the board phase."""
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    state = state_of(game)
    if engine.to_act(state) != (seat_of(game, bob),):
        move = engine.view(state, seat_of(game, alice))["legal"][0]
        del move["seat"]
        act(submit_move, alice, game.pk, game.version, move)
    return game


@pytest.mark.parametrize(
    ("move", "says"),
    [
        ({}, "one key of token, teams, discard, pass, play"),
        ({"x": 1}, "one key of"),
        ({"play": "Y7", "pass": "B1"}, "one key of"),
        ([], "one key of"),
        ({"token": "first"}, "move.token"),
        ({"play": 7}, "move.play"),
        ({"teams": {"team": [0]}}, "bonus"),
        ({"discard": "B1"}, "move.discard"),
    ],
)
def test_a_move_that_is_no_move_is_malformed_and_changes_nothing(
    caller, act, alice, bob, move, says
):
    game = two_people_at_a_turn(act, alice, bob)
    version = Game.objects.get(pk=game.pk).version
    message = refusal(
        caller.post(f"/games/{game.pk}/move", {"version": version, "move": move}), 400, "malformed"
    )
    assert says in message
    assert Game.objects.get(pk=game.pk).version == version


def test_a_move_cannot_name_another_seat(caller, act, alice, bob):
    """A move sent is made for the caller's seat: one that names a seat (bob's, whose turn it
    is) is refused, through the API and the action alike."""
    game = two_people_at_a_turn(act, alice, bob)
    game.refresh_from_db()
    bobs = engine.view(state_of(game), seat_of(game, bob))["legal"][0]
    moves = MoveRecord.objects.count()
    message = refusal(
        caller.post(f"/games/{game.pk}/move", {"version": game.version, "move": bobs}),
        400,
        "malformed",
    )
    assert "seat" in message
    with pytest.raises(Exception, match="not understood"):
        submit_move(alice, game.pk, game.version, bobs)
    assert MoveRecord.objects.count() == moves


def test_a_well_formed_move_of_no_card_keeps_the_engine_s_message(caller, act, alice, bob):
    game = two_people_at_a_turn(act, alice, bob)
    game.refresh_from_db()
    url = f"/games/{game.pk}/move"
    message = refusal(
        caller.post(url, {"version": game.version, "move": {"play": "Z9"}}), 400, "no_such_card"
    )
    assert message == "There is no card Z9."
    refusal(
        caller.post(url, {"version": game.version, "move": {"token": ["first", "9"]}}),
        400,
        "no_such_box",
    )


def play_until(act, people, game, until) -> engine.GameState:
    """Random legal moves of ``people`` (the game's only players) until ``until(state)``."""
    for _ in range(3000):
        state = state_of(game)
        if until(state):
            return state
        seat = engine.to_act(state)[0]
        person = next(p for p in people if seat_of(game, p) == seat)
        act(submit_move, person, game.pk, game.version, choice(game, person))
    raise AssertionError("never came")


CHOOSE = random.Random(0)


def choice(game, person):
    move = CHOOSE.choice(engine.view(state_of(game), seat_of(game, person))["legal"])
    del move["seat"]
    return move


def everyone_to_choose(state) -> bool:
    return state.phase == engine.DISCARD and len(engine.to_act(state)) == state.players


def test_a_discard_needs_no_round_and_one_of_an_earlier_round_is_stale(act, alice, bob, carol):
    """alice's program sends her discard (or pass) without a round, at the version it read:
    taken when only others' choices came since; refused as stale when read in an earlier
    round, or before a move that was no choice."""
    people = [alice, bob, carol]
    game = act(create_game, alice, players=3)
    for person in people[1:]:
        act(join_game, person, game.pk)
    caller = Caller(alice)
    url = f"/games/{game.pk}/move"
    first = play_until(act, people, game, everyone_to_choose)
    read = caller.get(f"/games/{game.pk}").json()
    for person in (bob, carol):
        act(
            submit_move, person, game.pk, Game.objects.get(pk=game.pk).version, choice(game, person)
        )
    assert Game.objects.get(pk=game.pk).version == read["version"] + 2
    taken = caller.post(url, {"version": read["version"], "move": read["legal"][0]})
    assert taken.status_code == 200, taken.content
    assert state_of(game).phase != engine.DISCARD
    # a later round's discard phase, and alice's discard read in the first one
    play_until(act, people, game, lambda s: s.round > first.round and everyone_to_choose(s))
    version = Game.objects.get(pk=game.pk).version
    mine = choice(game, alice)
    refusal(caller.post(url, {"version": read["version"], "move": mine}), 409, "stale")
    assert Game.objects.get(pk=game.pk).version == version
    # one read before the phase's last move that was no choice: stale too, though only bob
    # and carol chose since (it is three versions behind, with two choices made)
    for person in (bob, carol):
        act(
            submit_move, person, game.pk, Game.objects.get(pk=game.pk).version, choice(game, person)
        )
    refusal(caller.post(url, {"version": version - 1, "move": mine}), 409, "stale")
    assert state_of(game).choices[seat_of(game, alice)] is None
    assert caller.post(url, {"version": version, "move": mine}).status_code == 200


# --- the streams --------------------------------------------------------------------------------


def test_both_streams_are_in_the_openapi_document_with_each_event_s_schema(caller, act, alice):
    schema = Client().get(API + "/openapi.json").json()
    components = schema["components"]["schemas"]
    for path, union, types in (
        (
            "/stream",
            "AccountStreamEvent",
            {"gameStart", "yourTurn", "gameOver", "invitation", "keep-alive"},
        ),
        ("/games/{game_id}/stream", "GameStreamEvent", {"game", "keep-alive"}),
    ):
        answer = schema["paths"][API + path]["get"]["responses"]["200"]["content"]
        assert answer["application/x-ndjson"]["schema"] == {"$ref": f"#/components/schemas/{union}"}
        events = components[union]
        assert events["discriminator"]["propertyName"] == "type"
        assert set(events["discriminator"]["mapping"]) >= types
        assert len(events["oneOf"]) == len(events["discriminator"]["mapping"])
    game = act(create_game, alice, players=2, bots=["easy"])
    # each stream answers (204 under this server, without ASGI: the stream tests play them)
    assert caller.get("/stream").status_code == 204
    assert caller.get(f"/games/{game.pk}/stream").status_code == 204


def test_real_events_are_read_exactly_by_their_stream_s_schema(act, alice):
    game = act(create_game, alice, players=2, bots=["easy"])
    game_events = TypeAdapter(events.GameStreamEvent)
    read_exactly(game_events, {"type": "game", **game_json(game, alice)})
    read_exactly(game_events, {"type": "keep-alive"})
    account_events = TypeAdapter(events.AccountStreamEvent)
    for event in (
        {"type": "gameStart", "game": game.pk},
        {"type": "yourTurn", "game": game.pk, "version": game.version},
        {"type": "gameOver", "game": game.pk, "status": "finished"},
        {"type": "keep-alive"},
    ):
        read_exactly(account_events, event)
    with pytest.raises(ValidationError):
        account_events.validate_python({"type": "game", **game_json(game, alice)})
