"""The Expert bot on the site (issue 19): offered at correspondence tables only, refused at a live
one (and the refusal changes nothing), given its time budget, and its moves played on their own
queue (``think``), never inside a request nor ahead of a live table's bot reply or a timeout."""

import re
from collections import Counter

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.models import User
from games import engine
from games.actions import ActionError, add_bot, create_game, start_game, submit_move
from games.actions.deadlines import due
from games.actions.moves import play_timeout_move, site_bot
from games.actions.turns import bots_task
from games.bots import Expert
from games.bots.hard import EXPERT_SAMPLES
from games.models import Game, MoveRecord, Seat
from games.tasks import play_timeouts
from tests.servers import broker

from .conftest import DAY, correspondence_game, state_of

pytestmark = pytest.mark.django_db
LIVE = {"time_control": Game.TimeControl.LIVE, "move_seconds": 300}
CORRESPONDENCE = {"time_control": Game.TimeControl.CORRESPONDENCE, "move_seconds": DAY}


def refused(act, action, *args, **kwargs):
    """The action is refused as Expert's at a live table, with a sentence, and changes nothing."""
    before = list(Game.objects.values_list("pk", "version", "status"))
    seats = list(Seat.objects.values_list("pk", "user_id"))
    with pytest.raises(ActionError) as caught:
        act(action, *args, **kwargs)
    assert caught.value.code == "correspondence_only"
    assert "correspondence" in caught.value.message and "Expert" in caught.value.message
    assert list(Game.objects.values_list("pk", "version", "status")) == before
    assert list(Seat.objects.values_list("pk", "user_id")) == seats


def test_a_live_table_refuses_expert_everywhere_a_level_is_chosen(act, alice):
    refused(act, create_game, alice, players=3, bots=["medium", "expert"], **LIVE)
    refused(act, create_game, alice, players=3, bots=[None, "expert"], **LIVE)
    assert not Game.objects.exists()
    table = act(create_game, alice, players=3, bots=[None, None], **LIVE)
    refused(act, add_bot, alice, table.pk, "expert")
    refused(act, start_game, alice, table.pk, "expert")
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN and not table.seats.filter(user__bot_level="expert")


def test_a_correspondence_table_takes_expert(act, alice, settings):
    settings.EXPERT_BOT_SECONDS = 0.01  # the tests run its tasks in-process
    game = act(create_game, alice, players=3, bots=["expert", "medium"], **CORRESPONDENCE)
    assert game.status == Game.Status.ACTIVE
    table = act(create_game, alice, players=4, bots=[None, None, None], **CORRESPONDENCE)
    act(add_bot, alice, table.pk, "expert")
    act(start_game, alice, table.pk, "expert")
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE
    assert [s.user.username for s in table.seats.order_by("position")] == [
        "alice",
        *["bot-expert"] * 3,
    ]
    assert 0 in engine.to_act(state_of(table)), "the Experts played until it was her turn"
    assert User.objects.get(username="bot-expert").bot_level == "expert"


def test_the_site_gives_expert_its_budget(settings):
    settings.EXPERT_BOT_SECONDS = 7.5
    bot = site_bot("expert", "seed")
    assert isinstance(bot, Expert) and bot.seconds == 7.5 and bot.clock is not None
    assert bot.samples == EXPERT_SAMPLES, "as many deals as the arena measures, if time allows"


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', html, re.S)[1]
    return re.findall(r"<option [^>]*>", select)


def test_the_forms_offer_expert_at_correspondence_tables_only(act, client, alice):
    client.force_login(alice)
    lobby = client.get(reverse("lobby")).content.decode()
    (expert,) = [o for o in options(lobby, "seat_1") if 'value="expert"' in o]
    # The form's default time is live: shown by the page's script once a correspondence time is
    # chosen (static/js/table.js).
    assert "data-correspondence-only" in expert and "hidden" in expert and "disabled" in expert
    assert ">Expert bot (Crane), correspondence only<" in lobby
    assert not [o for o in options(lobby, "seat_1") if "hidden" in o and 'value="expert"' not in o]
    live = act(create_game, alice, players=3, bots=[None, None], **LIVE)
    page = client.get(reverse("game", args=[live.pk])).content.decode()
    assert not [o for o in options(page, "level") if 'value="expert"' in o]
    later = act(create_game, alice, players=3, bots=[None, None], **CORRESPONDENCE)
    page = client.get(reverse("game", args=[later.pk])).content.decode()
    assert [o for o in options(page, "level") if 'value="expert"' in o]


def test_the_pages_refuse_expert_at_a_live_table_with_a_sentence(act, client, alice):
    client.force_login(alice)
    answer = client.post(
        reverse("game_create"), {"players": "2", "seat_1": "expert", "move_seconds": "live:300"}
    )
    assert answer.status_code == 302 and answer["Location"] == reverse("lobby")
    (message,) = [str(m) for m in get_messages(answer.wsgi_request)]
    assert message == (
        "The Expert bot plays only correspondence games: it thinks for seconds over each move."
    )
    assert not Game.objects.exists()
    table = act(create_game, alice, players=3, bots=[None, None], **LIVE)
    answer = client.post(reverse("game_add_bot", args=[table.pk]), {"level": "expert"}, follow=True)
    assert "plays only correspondence games" in answer.content.decode()
    assert not table.seats.filter(user__isnull=False).exclude(user=alice).exists()


# --- its own queue ----------------------------------------------------------------------------


@pytest.fixture
def published():
    """The (task, queue) of every task published to a real broker (kombu's in-memory one), where
    none runs."""
    from celery.signals import before_task_publish

    sent = []

    def record(sender, routing_key, **kwargs):
        sent.append((sender.rsplit(".", 1)[1], routing_key))

    before_task_publish.connect(record)
    try:
        with broker("memory://"):
            yield sent
    finally:
        before_task_publish.disconnect(record)


def expert_game(act, alice):
    """A correspondence game of alice against an Expert and an Easy bot, at her turn."""
    for _ in range(50):
        game = correspondence_game(act, alice, bots=["expert", "easy"])
        if engine.to_act(state_of(game)) == (0,):
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no deal with alice to act first")


def her_move(game) -> dict:
    move = engine.view(state_of(game), 0)["legal"][0]
    del move["seat"]
    return move


def test_a_persons_move_queues_the_experts_turn_on_think_and_plays_nothing_inline(
    act, alice, clock, settings, published, django_capture_on_commit_callbacks
):
    settings.EXPERT_BOT_SECONDS = 0.01
    with broker(None):  # made and started in-process, as before
        game = expert_game(act, alice)
    published.clear()
    game.refresh_from_db()
    bot_moves = MoveRecord.objects.filter(game=game, by_bot=True).count()
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(alice, game.pk, game.version, her_move(game))
    assert Counter(published) == {("think", "think"): 1}
    assert MoveRecord.objects.filter(game=game, by_bot=True).count() == bot_moves, "queued only"
    clock.advance(minutes=1)  # its task was lost: the sweep queues it again, on think
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert due()["stalled"] == 1
    assert Counter(published) == {("think", "think"): 1}


def test_after_a_timeout_the_experts_turn_goes_to_think(
    act, alice, clock, settings, django_capture_on_commit_callbacks, monkeypatch
):
    """The stand-in's move is the catch-up queue's; the Expert's that follows is not."""
    settings.EXPERT_BOT_SECONDS = 0.01
    game = expert_game(act, alice)
    game.refresh_from_db()
    sent = []
    monkeypatch.setattr("games.queue.publish", lambda *args, **kwargs: sent.append((args, kwargs)))
    played = []
    monkeypatch.setattr(
        "games.tasks.play_bot_move", lambda *args: played.append(args) and None, raising=True
    )
    clock.advance(days=1, minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert play_timeouts(game.pk, game.version) == 1
    game.refresh_from_db()
    assert played == [], "no bot move in the catch-up task"
    bots = [task for task in sent if task[0][0] != "games.tasks.send_email"]  # "a bot moved"
    assert bots == [(("games.tasks.think", game.pk, game.version), {"queue": "think"})]
    assert MoveRecord.objects.filter(game=game, timeout=True).count() == 1
    assert play_timeout_move(game.pk, game.version) is None, "nothing more is due"


def test_the_tables_without_expert_keep_their_queues():
    assert bots_task(["easy", "medium", "hard"]) == ("games.tasks.play_bots", "play")
    assert bots_task(["medium", "expert"]) == ("games.tasks.think", "think")
    assert bots_task([]) == ("games.tasks.play_bots", "play")


def test_the_expert_chooses_before_it_locks_the_game(act, alice, monkeypatch):
    """A person's request at the table (a discard chosen at the same time) never waits for its
    search: the Expert chooses outside the transaction that locks the game and makes the move."""
    from django.db import connection

    game = expert_game(act, alice)
    depths = []
    choose = Expert.choose

    def recorded(bot, seen):
        depths.append(len(connection.atomic_blocks))
        return choose(bot, seen)

    monkeypatch.setattr(Expert, "choose", recorded)
    outside = len(connection.atomic_blocks)
    game.refresh_from_db()
    act(submit_move, alice, game.pk, game.version, her_move(game))
    assert depths and set(depths) == {outside}, "never inside the move's transaction"
    assert MoveRecord.objects.filter(game=game, by_bot=True, seat=1).exists()
