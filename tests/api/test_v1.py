"""The JSON API (/api/v1/): every endpoint, every refusal, the schema, and no hidden card."""

import json
import random
import re
import types
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from api.tokens import revoke_token
from games import engine
from games.actions import create_game
from games.models import Game
from tests.api.helpers import API, Caller, refusal
from tests.games.conftest import state_of

pytestmark = pytest.mark.django_db


def test_account(caller, alice):
    body = caller.get("/account").json()
    assert body["username"] == "alice" and body["is_bot"] is False and body["rated_games"] == 0


def test_a_table_is_created_joined_left_and_started(caller, alice, bob):
    made = caller.post("/games", {"players": 3, "bots": ["easy", None]})
    assert made.status_code == 201
    table = made.json()
    assert table["status"] == "open" and table["my_seat"] == 0
    assert [s["is_bot"] for s in table["seats"]] == [False, True, False] or len(table["seats"]) == 2
    assert table["id"] in [t["id"] for t in caller.get("/tables").json()]
    assert table["id"] in [t["id"] for t in caller.get("/games").json()]
    bobs = Caller(bob)
    joined = bobs.post(f"/games/{table['id']}/join", {})
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    other = caller.post("/games", {"players": 2}).json()
    left = caller.post(f"/games/{other['id']}/leave")
    refusal(left, 404, "no_game")  # the last person left: the table is gone
    third = caller.post("/games", {"players": 4}).json()
    started = caller.post(f"/games/{third['id']}/start", {"level": "easy"})
    assert started.status_code == 200 and started.json()["status"] == "active"


def test_expert_is_for_correspondence_tables_only(caller):
    live = caller.post("/games", {"players": 3, "bots": ["expert", None]})
    assert "correspondence" in refusal(live, 400, "correspondence_only")
    assert Game.objects.count() == 0
    table = caller.post("/games", {"players": 3, "move_seconds": "live:300"}).json()
    refusal(
        caller.post(f"/games/{table['id']}/start", {"level": "expert"}), 400, "correspondence_only"
    )
    assert Game.objects.get().status == "open"
    later = caller.post("/games", {"players": 2, "move_seconds": "correspondence:86400"}).json()
    started = caller.post(f"/games/{later['id']}/start", {"level": "expert"})
    assert started.status_code == 200 and started.json()["status"] == "active"


def test_a_bad_table_is_refused_with_the_lobby_s_message(caller):
    message = refusal(caller.post("/games", {"players": 9}), 400, "invalid")
    assert message == "Nyet! is played by 2 to 5 players."
    assert Game.objects.count() == 0


def test_a_game_as_my_seat_sees_it_and_a_move(caller, act, alice):
    game = act(create_game, alice, players=2, bots=["easy"])
    state = state_of(game)
    body = caller.get(f"/games/{game.pk}").json()
    seat = body["my_seat"]
    assert body["view"] == json.loads(json.dumps(engine.view(state, seat)))
    assert body["version"] == Game.objects.get(pk=game.pk).version
    assert body["view"]["hand"] == list(state.hands[seat])  # my cards, and no one else's
    assert set(body["view"]) == set(engine.view(state, seat))
    rng = random.Random(1)
    while body["legal"] == [] and body["status"] == "active":
        body = caller.get(f"/games/{game.pk}").json()
    version = body["version"]
    moved = caller.post(
        f"/games/{game.pk}/move", {"version": version, "move": rng.choice(body["legal"])}
    )
    assert moved.status_code == 200 and moved.json()["version"] > version


def test_move_refusals(caller, act, alice, bob):
    game = act(create_game, alice, players=2, bots=["easy"])
    body = caller.get(f"/games/{game.pk}").json()
    legal, version = body["legal"][0], body["version"]
    url = f"/games/{game.pk}/move"
    refusal(caller.post(url, {"version": version + 1, "move": legal}), 409, "stale")
    message = refusal(
        caller.post(url, {"version": version, "move": {"play": "Z9"}}), 400, "no_such_card"
    )
    assert message == "There is no card Z9."
    refusal(caller.post(url, raw="{not json"), 400, "malformed")
    refusal(caller.post(url, {"move": legal}), 400, "malformed")  # no version
    as_form = caller.client.post(API + url, {"version": version}, headers=caller.headers())
    assert "as JSON" in refusal(as_form, 400, "malformed")
    refusal(Caller(bob).post(url, {"version": version, "move": legal}), 400, "not_seated")
    refusal(caller.get("/games/999999"), 404, "no_game")
    assert Game.objects.get(pk=game.pk).version == version  # nothing changed


def test_authentication_refusals(alice, caller):
    refusal(Client().get(API + "/account"), 401, "login")
    bad = Client().get(API + "/account", headers={"Authorization": "Bearer nyet_nope"})
    refusal(bad, 401, "bad_token")
    revoke_token(alice, caller.token.pk)
    refusal(caller.get("/account"), 401, "bad_token")


def test_a_bearer_post_is_judged_by_its_token_before_any_csrf_check(alice, caller):
    """A program's POST with a bad token is 401 ``bad_token`` as its GET is, not the session's
    "CSRF check Failed" 403, even with a session cookie beside it; 403 is for a scope only."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    body = json.dumps({"players": 2})
    for client in (Client(enforce_csrf_checks=True), browser):
        for header in ("Bearer nyet_nope", "Bearer ", "Basic YWxpY2U6cHc=", "nyet_nope"):
            for path in ("/games", "/games/1/move", "/account/bot"):
                answer = client.post(
                    API + path,
                    body,
                    content_type="application/json",
                    headers={"Authorization": header},
                )
                refusal(answer, 401, "bad_token")
    revoke_token(alice, caller.token.pk)
    refusal(caller.post("/games", {"players": 2}), 401, "bad_token")
    assert Game.objects.count() == 0
    reader = Caller(alice, scopes=("read",))
    refusal(reader.post("/games", {"players": 2}), 403, "scope")


def test_a_token_without_the_scope_is_refused(alice):
    reader = Caller(alice, scopes=("read",))
    assert reader.get("/account").status_code == 200
    refusal(reader.post("/games", {"players": 2}), 403, "scope")
    assert Game.objects.count() == 0


def test_a_private_game_is_no_one_else_s(act, alice, bob):
    game = act(create_game, alice, players=2, visibility="private")
    refusal(Caller(bob).get(f"/games/{game.pk}"), 404, "no_game")


def test_joining_reveals_nothing_of_a_private_game(act, alice, bob, carol, make_person):
    """An outsider's join is answered as a missing game's, whether the private table is open
    or in play: not "private" nor "started"."""
    from games.actions import invite_player, join_game

    open_table = act(create_game, alice, players=3, visibility="private")
    in_play = act(create_game, alice, players=2, visibility="private")
    act(join_game, bob, in_play.pk, in_play.invite_code)
    outsider = Caller(make_person("mallory"))
    missing = outsider.post("/games/999999/join")
    refusal(missing, 404, "no_game")
    for game in (open_table, in_play):
        for body in ({}, {"invite": "wrong"}):
            answer = outsider.post(f"/games/{game.pk}/join", body)
            assert (answer.status_code, answer.content) == (404, missing.content)
    assert not Game.objects.filter(seats__user__username="mallory").exists()
    # Whoever the table was meant for still joins: an invited player, and the code's holder.
    act(invite_player, alice, open_table.pk, "carol")
    assert Caller(carol).post(f"/games/{open_table.pk}/join").status_code == 200
    holder = outsider.post(f"/games/{open_table.pk}/join", {"invite": open_table.invite_code})
    assert holder.status_code == 200 and holder.json()["status"] == "active"


def test_an_action_that_finds_no_game_answers_as_a_missing_game(caller, monkeypatch):
    """A game removed between the check of who may see it and the action (someone's leave, at
    the same moment) is a missing game: 404, not the action's 400."""
    missing = caller.get("/games/999999").content
    monkeypatch.setattr("api.v1.visible_game", lambda request, game_id, invite_code="": None)
    for action in ("join", "leave", "start"):
        answer = caller.post(f"/games/999999/{action}")
        assert (answer.status_code, answer.content) == (404, missing)


def test_the_session_works_with_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get(API + "/account").json()["username"] == "alice"
    refused = client.post(
        API + "/games", json.dumps({"players": 2}), content_type="application/json"
    )
    assert refused.status_code in (401, 403)
    assert Game.objects.count() == 0


def test_moves_are_rate_limited_with_retry_after(caller, act, alice, settings, monkeypatch):
    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    game = act(create_game, alice, players=2, bots=["easy"])
    answers = [
        caller.post(f"/games/{game.pk}/move", {"version": 0, "move": {"play": "Y7"}})
        for _ in range(6)
    ]
    over = answers[-1]
    refusal(over, 429, "rate_limited")
    assert int(over["Retry-After"]) >= 1


def test_each_token_has_its_own_limit_on_calls(caller, alice, settings, monkeypatch):
    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    answers = [caller.get("/account") for _ in range(21)]
    assert {a.status_code for a in answers[:20]} == {200}
    over = answers[20]
    refusal(over, 429, "rate_limited")
    assert int(over["Retry-After"]) >= 1 and "requests" in over.json()["message"]
    assert Caller(alice, scopes=["read"]).get("/account").status_code == 200  # another token


def test_a_finished_game_s_record_replays_to_its_state(caller, act, alice):
    from tests.games.conftest import play_out

    game = act(create_game, alice, players=2, bots=["easy"], target=1)
    refusal(caller.get(f"/games/{game.pk}/record"), 409, "not_finished")
    game = play_out(act, game, [alice], random.Random(4))
    record = caller.get(f"/games/{game.pk}/record").json()
    moves = [engine.move_from_json(m) for m in record["moves"]]
    replayed = engine.replay(game.players, game.seed, game.target, moves)
    assert engine.state_to_json(replayed) == game.state
    assert len(record["rounds"]) == len(replayed.results)
    assert all(len(r["deal"]) == game.players for r in record["rounds"])
    assert "seed" not in json.dumps(record)


def test_the_schema_is_valid_openapi_and_every_operation_is_called_here():
    from openapi_spec_validator import validate

    schema = Client().get(API + "/openapi.json").json()
    validate(schema)
    calls = "".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    for path, operations in schema["paths"].items():
        route = re.escape(path.removeprefix(API)).replace(r"\{game_id\}", r"\{[^}]+\}")
        for method in operations:
            assert re.search(rf"\.{method}\(\s*f?\"{route}\"", calls), f"{method} {path}"


def test_the_documentation_page_is_served_from_our_own_files(client):
    page = client.get(API + "/docs")
    assert page.status_code == 200
    assert b"/static/ninja/swagger-ui-bundle.js" in page.content
    assert b"cdn" not in page.content.lower()


def test_tokens_are_made_shown_once_stored_hashed_and_revoked_in_the_settings(client, alice):
    client.force_login(alice)
    page = client.post(reverse("api_tokens"), {"name": "my bot", "scopes": ["read", "play"]})
    html = page.content.decode()
    token = ApiToken.objects.get(user=alice)
    raw = html.split('<code id="new-token">')[1].split("</code>")[0]
    assert raw.startswith("nyet_") and raw not in json.dumps(
        list(ApiToken.objects.values()), default=str
    )
    assert raw not in client.get(reverse("api_tokens")).content.decode()  # shown once
    auth = {"Authorization": f"Bearer {raw}"}
    assert Client().get(API + "/account", headers=auth).status_code == 200
    client.post(reverse("api_tokens"), {"revoke": "1", "token": token.pk})
    assert Client().get(API + "/account", headers=auth).status_code == 401
    refused = client.post(reverse("api_tokens"), {"name": "x", "scopes": []}).content.decode()
    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 0
    assert "error" in refused or "This field is required" in refused or "required" in refused
