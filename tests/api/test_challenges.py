"""The API's challenge flow (issue 33, point 5), as lichess's Board API has it: invite by
username, the invitations to me and from me, accept, decline, cancel; resign and abort; a rematch
offered, accepted or declined. A bot account (a ``bot`` token) accepts invitations and rematches
as a person does. Each refusal has its code and changes nothing."""

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pydantic import TypeAdapter

from api import stream
from api.schemas.events import AccountStreamEvent
from api.stream import Account, _account, account_news
from games.actions import (
    accept_invitation,
    become_bot_account,
    cancel_invitation,
    create_game,
    decline_invitation,
    invite_player,
    join_game,
    lobby,
    rematch,
    seat_bot_account,
    start_game,
)
from games.models import Game, Invitation, RematchOffer, Seat
from tests.api.helpers import Caller, read_exactly, refusal
from tests.games.conftest import play_out, seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(make_person):
    robo = make_person("robo")
    become_bot_account(robo)
    return robo


def counts():
    """What a refused call must leave as it was."""
    return (
        Invitation.objects.count(),
        list(Invitation.objects.order_by("pk").values_list("answer", flat=True)),
        Seat.objects.filter(user__isnull=False).count(),
        list(Game.objects.order_by("pk").values_list("status", "version")),
        RematchOffer.objects.count(),
    )


# --- invitations ----------------------------------------------------------------------------------


def test_an_invitation_by_username_is_listed_both_ways(alice, bob):
    table = create_game(alice, players=3, bots=["easy", None])
    sent = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "BOB"})
    assert sent.status_code == 201, sent.content
    body = sent.json()
    invitation = Invitation.objects.get()
    assert body["id"] == invitation.pk and body["answer"] == "pending"
    assert (body["from"], body["to"]) == ("alice", "bob")
    assert body["game"]["id"] == table.pk and body["game"]["status"] == "open"

    mine = Caller(bob).get("/invitations").json()
    assert [i["id"] for i in mine["incoming"]] == [invitation.pk] and mine["outgoing"] == []
    assert mine["incoming"][0]["from"] == "alice" and mine["incoming"][0]["game"]["my_seat"] is None
    theirs = Caller(alice).get("/invitations").json()
    assert theirs["incoming"] == [] and [i["id"] for i in theirs["outgoing"]] == [invitation.pk]
    assert theirs["outgoing"][0]["game"]["my_seat"] == 0


def test_an_invitation_is_refused_with_a_code_and_changes_nothing(alice, bob, carol):
    table = create_game(alice, players=3, bots=["easy", None])
    private = create_game(carol, players=2, visibility="private")
    started = create_game(alice, players=2, bots=["easy"])
    before = counts()
    url = f"/games/{table.pk}/invite"
    refusal(Caller(alice).post(url, {"username": "nobody"}), 400, "no_user")
    refusal(Caller(alice).post(url, {"username": "bot-easy"}), 400, "no_user")  # our bots
    refusal(Caller(alice).post(url, {"username": "alice"}), 400, "seated")
    refusal(Caller(bob).post(url, {"username": "carol"}), 400, "not_seated")
    refusal(Caller(alice).post(url, {}), 400, "malformed")
    refusal(Caller(alice).post(f"/games/{started.pk}/invite", {"username": "bob"}), 400, "started")
    # a private table that is not mine to see is answered as a missing one
    refusal(Caller(alice).post(f"/games/{private.pk}/invite", {"username": "bob"}), 404, "no_game")
    refusal(Caller(alice).post("/games/999999/invite", {"username": "bob"}), 404, "no_game")
    refusal(Caller(alice, scopes=("read",)).post(url, {"username": "bob"}), 403, "scope")
    refusal(Caller(bob, scopes=("play",)).get("/invitations"), 403, "scope")
    assert counts() == before


def test_the_invitee_accepts_and_sits_even_at_a_private_table(alice, bob):
    table = create_game(alice, players=3, bots=["easy", None], visibility="private")
    invitation = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "bob"}).json()
    before = counts()
    accept = f"/invitations/{invitation['id']}/accept"
    refusal(Caller(alice).post(accept), 400, "not_invitee")  # the inviter cannot accept it
    refusal(Caller(bob, scopes=("read",)).post(accept), 403, "scope")
    assert counts() == before
    invitation_id = invitation["id"]
    answer = Caller(bob).post(f"/invitations/{invitation_id}/accept")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "active", "the last seat was taken: the table started"
    assert answer.json()["my_seat"] == 2
    assert Invitation.objects.get().answer == Invitation.Answer.ACCEPTED
    before = counts()
    refusal(Caller(bob).post(accept), 400, "started")  # the table is no longer open
    assert counts() == before
    assert Caller(bob).get("/invitations").json() == {"incoming": [], "outgoing": []}


def test_an_answered_invitation_cannot_be_answered_again(alice, bob):
    table = create_game(alice, players=4, bots=["easy", None, None])
    first = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "bob"}).json()["id"]
    assert Caller(bob).post(f"/invitations/{first}/accept").status_code == 200
    before = counts()
    message = refusal(Caller(bob).post(f"/invitations/{first}/decline"), 400, "answered")
    assert "accepted" in message
    assert counts() == before


def test_the_invitee_declines_and_the_invitation_no_longer_gives_a_seat(alice, bob):
    table = create_game(alice, players=3, bots=["easy", None], visibility="private")
    invitation = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "bob"}).json()
    decline = f"/invitations/{invitation['id']}/decline"
    before = counts()
    refusal(Caller(alice).post(decline), 400, "not_invitee")
    assert counts() == before
    invitation_id = invitation["id"]
    answer = Caller(bob).post(f"/invitations/{invitation_id}/decline")
    assert answer.status_code == 200, answer.content
    assert answer.json()["answer"] == "declined" and answer.json()["from"] == "alice"
    assert Caller(bob).get("/invitations").json()["incoming"] == []
    assert Caller(alice).get("/invitations").json()["outgoing"] == []
    before = counts()
    message = refusal(Caller(bob).post(f"/invitations/{invitation['id']}/accept"), 400, "answered")
    assert "declined" in message
    refusal(Caller(bob).post(f"/games/{table.pk}/join"), 400, "private")
    assert counts() == before


def test_the_inviter_cancels_and_the_invitee_can_no_longer_accept(alice, bob, carol):
    table = create_game(alice, players=3, bots=["easy", None], visibility="private")
    invitation = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "bob"}).json()
    cancel = f"/invitations/{invitation['id']}/cancel"
    before = counts()
    refusal(Caller(bob).post(cancel), 400, "not_inviter")
    refusal(Caller(carol).post(cancel), 404, "no_invitation")  # not hers: as a missing one
    refusal(Caller(carol).post(f"/invitations/{invitation['id']}/accept"), 404, "no_invitation")
    refusal(Caller(carol).post("/invitations/999999/decline"), 404, "no_invitation")
    assert counts() == before
    invitation_id = invitation["id"]
    answer = Caller(alice).post(f"/invitations/{invitation_id}/cancel")
    assert answer.status_code == 200 and answer.json()["answer"] == "cancelled"
    before = counts()
    refusal(Caller(bob).post(f"/invitations/{invitation['id']}/accept"), 400, "answered")
    refusal(Caller(bob).post(f"/games/{table.pk}/join"), 404, "no_game")  # no longer his to see
    assert counts() == before


def test_a_cancelled_invitation_no_longer_shows_a_private_table(client, alice, bob, carol):
    table = create_game(alice, players=4, visibility="private")
    invite_player(alice, table.pk, "bob")
    invite_player(alice, table.pk, "carol")
    assert Caller(bob).get(f"/games/{table.pk}").status_code == 200  # an invitee may watch
    cancel_invitation(alice, Invitation.objects.get(invitee=bob).pk)
    decline_invitation(carol, Invitation.objects.get(invitee=carol).pk)
    refusal(Caller(bob).get(f"/games/{table.pk}"), 404, "no_game")  # as if never invited
    client.force_login(bob)
    assert client.get(reverse("game", args=[table.pk])).status_code == 404
    assert Caller(carol).get(f"/games/{table.pk}").status_code == 200  # she was asked


def test_joining_otherwise_answers_the_invitation(alice, bob, robo):
    table = create_game(alice, players=4, bots=["easy", None, None])
    invite_player(alice, table.pk, "bob")
    invite_player(alice, table.pk, "robo")
    join_game(bob, table.pk)  # by the table's Join button
    seat_bot_account(alice, table.pk, "robo")  # seated by the owner
    assert set(Invitation.objects.values_list("answer", flat=True)) == {"accepted"}


def test_a_bot_account_accepts_an_invitation_with_its_bot_token(alice, robo):
    table = create_game(alice, players=2, visibility="private")
    invitation = Caller(alice).post(f"/games/{table.pk}/invite", {"username": "robo"}).json()
    program = Caller(robo, scopes=("bot",))
    assert [i["id"] for i in program.get("/invitations").json()["incoming"]] == [invitation["id"]]
    answer = program.post(f"/invitations/{invitation['id']}/accept")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "active" and answer.json()["my_seat"] == 1
    assert program.get(f"/games/{table.pk}").json()["view"] is not None


# --- resign and abort -----------------------------------------------------------------------------


def test_abort_before_the_first_card_and_resign(act, alice, bob, carol):
    game = act(create_game, alice, players=2, bots=["easy"])
    before = counts()
    refusal(Caller(bob).post(f"/games/{game.pk}/abort"), 400, "not_seated")
    refusal(Caller(alice, scopes=("read",)).post(f"/games/{game.pk}/abort"), 403, "scope")
    assert counts() == before
    aborted = Caller(alice).post(f"/games/{game.pk}/abort")
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"
    before = counts()
    refusal(Caller(alice).post(f"/games/{game.pk}/resign"), 400, "aborted")
    assert counts() == before

    table = act(create_game, alice, players=3, bots=["easy", None])
    refusal(Caller(alice).post(f"/games/{table.pk}/resign"), 400, "not_started")
    act(join_game, bob, table.pk)
    before = counts()
    refusal(Caller(carol).post(f"/games/{table.pk}/resign"), 400, "not_seated")
    assert counts() == before
    resigned = act(Caller(bob).post, f"/games/{table.pk}/resign")
    assert resigned.status_code == 200, resigned.content
    seat = Seat.objects.get(game=table, user=bob)
    assert seat.resigned_at is not None and seat.autopilot
    refusal(Caller(bob).post(f"/games/{table.pk}/resign"), 400, "resigned")


def test_a_private_game_is_answered_as_missing_to_others(act, alice, bob):
    game = act(create_game, alice, players=2, bots=["easy"], visibility="private")
    before = counts()
    for path in ("resign", "abort", "rematch", "rematch/decline", "invite"):
        refusal(Caller(bob).post(f"/games/{game.pk}/{path}", {"username": "bob"}), 404, "no_game")
    refusal(Caller(bob).get(f"/games/{game.pk}/rematch"), 404, "no_game")
    assert counts() == before


# --- rematch --------------------------------------------------------------------------------------


def finished_with(act, alice, other, rng_seed=4):
    """alice and ``other`` (joined, or a bot account seated by alice), played out."""
    game = act(create_game, alice, players=2, target=1)
    if other.bot_account:
        act(seat_bot_account, alice, game.pk, other.username)
    else:
        act(join_game, other, game.pk)
    return play_out(act, Game.objects.get(pk=game.pk), [alice, other], random.Random(rng_seed))


def test_a_rematch_offered_then_accepted_through_the_api(act, alice, bob):
    game = finished_with(act, alice, bob)
    refusal(Caller(alice).get(f"/games/{game.pk}/rematch"), 404, "no_offer")
    before = counts()
    refusal(Caller(bob).post(f"/games/{game.pk}/rematch/decline"), 400, "no_offer")
    refusal(Caller(bob, scopes=("read",)).post(f"/games/{game.pk}/rematch"), 403, "scope")
    assert counts() == before
    offered = act(Caller(alice).post, f"/games/{game.pk}/rematch")
    assert offered.status_code == 200, offered.content
    offer = offered.json()
    assert offer["outcome"] == "open" and offer["asked_by"] == "alice"
    assert offer["accepted"] == ["alice"] and offer["waiting"] == ["bob"]
    assert offer["new_game"] is None
    assert Caller(bob).get(f"/games/{game.pk}/rematch").json() == offer
    accepted = act(Caller(bob).post, f"/games/{game.pk}/rematch")  # asking again is accepting
    assert accepted.status_code == 200, accepted.content
    new_game = accepted.json()["new_game"]
    assert accepted.json()["outcome"] == "accepted" and new_game
    assert Game.objects.get(pk=new_game).status == Game.Status.ACTIVE
    assert seat_of(Game.objects.get(pk=new_game), bob) == seat_of(game, bob)


def test_a_rematch_declined_and_cancelled_through_the_api(act, alice, bob, carol):
    game = finished_with(act, alice, bob)
    act(Caller(alice).post, f"/games/{game.pk}/rematch")
    before = counts()
    refusal(Caller(carol).post(f"/games/{game.pk}/rematch/decline"), 400, "not_seated")
    assert counts() == before
    declined = act(Caller(bob).post, f"/games/{game.pk}/rematch/decline")
    assert declined.status_code == 200 and declined.json()["outcome"] == "declined"
    act(Caller(bob).post, f"/games/{game.pk}/rematch")  # bob asks in turn, then takes it back
    cancelled = act(Caller(bob).post, f"/games/{game.pk}/rematch/decline")
    assert cancelled.json()["outcome"] == "cancelled" and cancelled.json()["waiting"] == []
    assert not Game.objects.filter(rematch_of=game).exists()


def test_a_bot_account_is_asked_for_a_rematch_and_accepts_it(act, alice, robo, client):
    game = finished_with(act, alice, robo)
    offer = act(Caller(alice).post, f"/games/{game.pk}/rematch").json()
    assert offer["outcome"] == "open" and offer["waiting"] == ["robo"], "the bot account answers"
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Waiting for robo" in page
    program = Caller(robo, scopes=("bot",))
    accepted = act(program.post, f"/games/{game.pk}/rematch")
    assert accepted.status_code == 200, accepted.content
    new_game = Game.objects.get(pk=accepted.json()["new_game"])
    assert new_game.status == Game.Status.ACTIVE and new_game.seats.filter(user=robo).exists()


def test_a_bot_account_may_decline_a_rematch(act, alice, robo):
    game = finished_with(act, alice, robo)
    act(Caller(alice).post, f"/games/{game.pk}/rematch")
    declined = act(Caller(robo, scopes=("bot",)).post, f"/games/{game.pk}/rematch/decline")
    assert declined.status_code == 200 and declined.json()["outcome"] == "declined"


def test_the_routes_are_in_the_openapi_document():
    paths = Client().get("/api/v1/openapi.json").json()["paths"]
    for path in (
        "/api/v1/games/{game_id}/invite",
        "/api/v1/invitations",
        "/api/v1/invitations/{invitation_id}/accept",
        "/api/v1/invitations/{invitation_id}/decline",
        "/api/v1/invitations/{invitation_id}/cancel",
        "/api/v1/games/{game_id}/resign",
        "/api/v1/games/{game_id}/abort",
        "/api/v1/games/{game_id}/rematch",
        "/api/v1/games/{game_id}/rematch/decline",
    ):
        assert path in paths, path
    schemas = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert "from" in schemas["InvitationOut"]["properties"]


# --- the account stream ---------------------------------------------------------------------------


def test_the_news_of_invitations_both_ways_and_of_rematch_offers():
    before = Account(
        games={},
        invitations={7: (2, "bob", "alice"), 8: (3, "alice", "carol")},
        rematches={20: (9, "open", "bob", None, True), 21: (10, "open", "alice", None, False)},
    )
    now = Account(
        games={},
        invitations={8: (3, "alice", "carol"), 11: (4, "alice", "dave")},
        rematches={
            20: (9, "accepted", "bob", 30, False),
            22: (12, "open", "carol", None, True),
            23: (13, "open", "alice", None, False),  # my own offer: nothing to answer
        },
    )
    assert account_news(before, now) == [
        {"type": "invitationGone", "id": 7, "game": 2},
        {"type": "invitation", "id": 11, "game": 4, "from": "alice", "to": "dave"},
        {"type": "rematchGone", "game": 9, "offer": 20, "new_game": 30},
        {"type": "rematchOffer", "game": 12, "offer": 22, "from": "carol"},
        {"type": "rematchGone", "game": 10, "offer": 21, "new_game": None},  # its game went
    ]
    assert account_news(now, now) == []
    assert account_news(None, now) == [
        {"type": "invitation", "id": 8, "game": 3, "from": "alice", "to": "carol"},
        {"type": "invitation", "id": 11, "game": 4, "from": "alice", "to": "dave"},
        {"type": "rematchOffer", "game": 12, "offer": 22, "from": "carol"},
    ]


def test_an_account_is_read_in_three_queries_however_much_it_has(
    act, alice, bob, carol, robo, django_assert_num_queries
):
    finished = [finished_with(act, alice, robo, seed) for seed in (1, 2)]
    for game in finished:
        act(rematch, alice, game.pk)
    tables = [act(create_game, alice, players=3, bots=["easy", None]) for _ in range(3)]
    for table in tables:
        invite_player(alice, table.pk, "robo")
        invite_player(alice, table.pk, "bob")
    theirs = act(create_game, carol, players=3, bots=["easy", None])
    invite_player(carol, theirs.pk, "robo")
    with django_assert_num_queries(3):
        robos = _account(robo.pk, None)
    with django_assert_num_queries(3):
        again = _account(robo.pk, robos)
    assert robos == again
    news = account_news(None, robos)
    assert [(e["type"], e["game"]) for e in news] == [
        *[("invitation", t.pk) for t in tables],
        ("invitation", theirs.pk),
        *[("rematchOffer", g.pk) for g in finished],
    ]
    assert {e["from"] for e in news} == {"alice", "carol"}
    # the inviter hears of the invitations she sent; not of her own offers, which wait for robo
    alices = account_news(None, _account(alice.pk, None))
    sent = [(e["game"], e["to"]) for e in alices if e["type"] == "invitation"]
    assert sent == [(t.pk, name) for t in tables for name in ("robo", "bob")]
    assert "rematchOffer" not in {e["type"] for e in alices}


def test_the_new_events_are_read_exactly_by_the_account_stream_s_schema(act, alice, bob, robo):
    game = finished_with(act, alice, robo)
    table = create_game(alice, players=3, bots=["easy", None])
    invite_player(alice, table.pk, "robo")
    act(rematch, alice, game.pk)
    before = _account(robo.pk, None)
    act(rematch, robo, game.pk)
    accept_invitation(robo, Invitation.objects.get().pk)
    events = account_news(None, before) + account_news(before, _account(robo.pk, before))
    kinds = {e["type"] for e in events}
    assert {"invitation", "invitationGone", "rematchOffer", "rematchGone"} <= kinds
    read = TypeAdapter(AccountStreamEvent)
    for event in events:
        read_exactly(read, event)
    union = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert set(union["AccountStreamEvent"]["discriminator"]["mapping"]) >= kinds


@pytest.mark.django_db(transaction=True)
def test_the_stream_tells_invitations_and_rematches_as_they_come_and_go(
    alice, bob, robo, settings, monkeypatch
):
    settings.REDIS_URL = ""  # the hub reads the versions from the database
    monkeypatch.setattr(stream, "ACCOUNT_CHECK", 0.2)
    old = create_game(alice, players=2, target=1)
    seat_bot_account(alice, old.pk, "robo")
    old = play_out(lambda f, *a, **k: f(*a, **k), old, [alice, robo], random.Random(5))
    table = create_game(bob, players=2, visibility="private")

    said = []

    async def read(lines):
        try:
            async for chunk in lines:
                for line in chunk.splitlines():
                    said.append(json.loads(line))
                    if said[-1]["type"] == "rematchGone":
                        return said
        finally:
            await lines.aclose()
            await sync_to_async(connections.close_all)()

    async def after(kind, change, *args):
        """Once the stream has told ``kind``, the next change."""
        while not any(e["type"] == kind for e in said):
            await asyncio.sleep(0.05)
        return await sync_to_async(change)(*args)

    async def scenario():
        reading = asyncio.ensure_future(asyncio.wait_for(read(stream.account_lines(robo.pk)), 60))
        await after("keep-alive", invite_player, bob, table.pk, "robo")
        first = await sync_to_async(Invitation.objects.get)(game=table)
        await after("invitation", cancel_invitation, bob, first.pk)
        await after("invitationGone", invite_player, bob, table.pk, "robo")
        second = await sync_to_async(Invitation.objects.latest)("pk")
        while sum(e["type"] == "invitation" for e in said) < 2:
            await asyncio.sleep(0.05)
        await sync_to_async(accept_invitation)(robo, second.pk)  # the table is full: it starts
        offer = await after("gameStart", rematch, alice, old.pk)
        await after("rematchOffer", rematch, robo, old.pk)  # robo accepts: the rematch starts
        return await reading, first, second, offer

    events, first, second, offer = asyncio.run(scenario())
    news = [e for e in events if e["type"] not in ("keep-alive", "yourTurn")]
    offer.refresh_from_db()
    assert news == [
        {"type": "invitation", "id": first.pk, "game": table.pk, "from": "bob", "to": "robo"},
        {"type": "invitationGone", "id": first.pk, "game": table.pk},
        {"type": "invitation", "id": second.pk, "game": table.pk, "from": "bob", "to": "robo"},
        {"type": "gameStart", "game": table.pk},
        {"type": "invitationGone", "id": second.pk, "game": table.pk},
        {"type": "rematchOffer", "game": old.pk, "offer": offer.pk, "from": "alice"},
        {"type": "gameStart", "game": offer.new_game_id},
        {"type": "rematchGone", "game": old.pk, "offer": offer.pk, "new_game": offer.new_game_id},
    ]


# --- a fixed number of queries -------------------------------------------------------------------


class Counted:
    """A program with a token whose calls' queries are counted (their on-commit work, e.g. the
    bots' turns, runs after the count)."""

    def __init__(self, user, capture, scopes=("read", "play")):
        self.caller, self.capture = Caller(user, scopes=scopes), capture
        self.caller.get("/account")  # the token's first use notes it: not counted

    def __getattr__(self, method):
        def call(*args):
            with self.capture(execute=True), CaptureQueriesContext(connection) as queries:
                response = getattr(self.caller, method)(*args)
            assert response.status_code < 300, response.content
            return len(queries), response.json()

        return call


def challenge_counts(act, capture, alice, guest, robo, players: int) -> dict[str, int]:
    """Each challenge route's queries at a table of ``players``."""
    mine, theirs = Counted(alice, capture), Counted(guest, capture)
    program = Counted(robo, capture, scopes=("bot",))
    table = act(create_game, alice, players=players).pk
    counts = {}
    counts["invite"], sent = mine.post(f"/games/{table}/invite", {"username": guest.username})
    counts["invitations"] = theirs.get("/invitations")[0]
    counts["decline"] = theirs.post(f"/invitations/{sent['id']}/decline")[0]
    sent = mine.post(f"/games/{table}/invite", {"username": guest.username})[1]
    counts["cancel"] = mine.post(f"/invitations/{sent['id']}/cancel")[0]
    sent = mine.post(f"/games/{table}/invite", {"username": "robo"})[1]
    counts["accept"] = program.post(f"/invitations/{sent['id']}/accept")[0]
    act(start_game, alice, table, "easy")
    counts["resign"] = program.post(f"/games/{table}/resign")[0]
    started = act(create_game, alice, players=players, bots=["easy"] * (players - 1)).pk
    counts["abort"] = mine.post(f"/games/{started}/abort")[0]
    finished = act(create_game, alice, players=players, target=1, bots=["easy"] * (players - 2))
    act(seat_bot_account, alice, finished.pk, "robo")
    finished = play_out(act, Game.objects.get(pk=finished.pk), [alice, robo], random.Random(1))
    counts["offer"] = mine.post(f"/games/{finished.pk}/rematch")[0]
    counts["decline rematch"] = program.post(f"/games/{finished.pk}/rematch/decline")[0]
    mine.post(f"/games/{finished.pk}/rematch")
    counts["read rematch"] = program.get(f"/games/{finished.pk}/rematch")[0]
    counts["accept rematch"] = program.post(f"/games/{finished.pk}/rematch")[0]
    return counts


def test_each_challenge_route_reads_a_fixed_number_of_queries(
    act, alice, make_person, robo, django_capture_on_commit_callbacks, monkeypatch
):
    """The same for a table of 3 as for one of 5."""
    capture = django_capture_on_commit_callbacks
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 2026)  # the same deals each run
    sizes = [
        challenge_counts(act, capture, alice, make_person(f"guest{n}"), robo, n) for n in (3, 5)
    ]
    # A resignation and an accepted rematch read a little more when a bot's turn follows (as
    # POST /games/{id}/start and /move): whose turn it is, not how many seats there are.
    turns = [(size.pop("resign"), size.pop("accept rematch")) for size in sizes]
    assert sizes[0] == sizes[1], sizes
    assert max(sizes[0].values()) <= 14, sizes[0]
    assert all(resign <= 17 and start <= 27 for resign, start in turns), turns


def test_the_list_of_invitations_costs_the_same_for_one_as_for_six(
    act, make_person, robo, django_capture_on_commit_callbacks
):
    reader = Counted(robo, django_capture_on_commit_callbacks)
    listed = []
    for n in range(6):
        table = act(create_game, make_person(f"host{n}"), players=3).pk
        invite_player(Game.objects.get(pk=table).created_by, table, "robo")
        count, answer = reader.get("/invitations")
        assert len(answer["incoming"]) == n + 1
        listed.append(count)
    assert len(set(listed)) == 1, listed
