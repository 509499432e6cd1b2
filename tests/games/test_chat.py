"""Table chat (issue 17): the seated people of a game write to each other; spectators have no
chat; text stays text; limits, hiding, reports and bars; and chat never reaches an email."""

import random
import types

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import live
from games.actions import ActionError, create_game, join_game, post_chat, report_chat
from games.actions.notify import queue_emails
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatReport, Game

from .conftest import play_out

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def table(act, alice, bob):
    """alice and bob against an Easy bot, started."""
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    return game


def chat_url(game) -> str:
    return reverse("game_chat", args=[game.pk])


def test_a_player_writes_and_the_other_reads_it_on_the_game_page(act, client, table, bob):
    client.force_login(bob)
    answer = client.post(chat_url(table), {"text": "  good   luck  "}, headers=HX)
    assert answer.status_code == 200 and answer["HX-Trigger"] == "nyet:chat-sent"
    assert ChatMessage.objects.get().text == "good luck"  # one line, spaces tidied
    client.force_login(table.seats.get(position=0).user)
    page = client.get(reverse("game", args=[table.pk])).content.decode()
    assert 'id="chat"' in page and "good luck" in page


def test_text_is_escaped_and_links_are_not_made_clickable(act, client, table, alice, bob):
    act(post_chat, bob, table.pk, "<script>alert(1)</script> see https://example.com/x")
    client.force_login(alice)
    page = client.get(reverse("game", args=[table.pk])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="https://example.com/x"' not in page


def test_empty_and_long_messages_are_refused_with_a_clear_message(act, client, table, alice):
    client.force_login(alice)
    empty = client.post(chat_url(table), {"text": " \n\t "}, headers=HX).content.decode()
    assert "Write something first." in empty
    long = client.post(chat_url(table), {"text": "x" * (CHAT_MAX_LENGTH + 1)}, headers=HX)
    assert "A message has at most 500 characters." in long.content.decode()
    assert "HX-Trigger" not in long  # the box keeps what was typed
    act(post_chat, alice, table.pk, "x" * CHAT_MAX_LENGTH)  # exactly the limit is fine
    assert ChatMessage.objects.count() == 1


def test_control_characters_become_spaces(act, table, alice):
    message = act(post_chat, alice, table.pk, "a\r\nb\x00c\x1bd")
    assert message.text == "a b c d"


def test_writing_is_rate_limited_per_player(act, client, table, alice, bob, settings, monkeypatch):
    settings.RATELIMIT_ENABLE = True
    now = 1_800_000_000.0  # django-ratelimit's clock stopped: no window ends mid-test
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    client.force_login(alice)
    for n in range(5):
        client.post(chat_url(table), {"text": f"line {n}"}, headers=HX)
    over = client.post(chat_url(table), {"text": "one more"}, headers=HX)
    assert over.status_code == 429 and 0 < int(over["Retry-After"]) <= 60
    assert "That is a lot of messages at once." in over.content.decode()
    assert "Try again in" in over.content.decode() and 'id="chat' in over.content.decode()
    assert "HX-Trigger" not in over  # the box keeps what was typed
    page = client.post(chat_url(table), {"text": "without htmx"})  # a form with no script
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert "That is a lot of messages at once." in page.content.decode()
    assert ChatMessage.objects.count() == 5
    # bob, at the same address (the test client's), has his own count
    bobs = Client(REMOTE_ADDR=client.defaults.get("REMOTE_ADDR", "127.0.0.1"))
    bobs.force_login(bob)
    for n in range(5):
        answer = bobs.post(chat_url(table), {"text": f"bob {n}"}, headers=HX)
        assert "That is a lot" not in answer.content.decode()
    assert ChatMessage.objects.filter(user=bob).count() == 5


def test_spectators_and_bots_have_no_chat(act, client, table, make_person):
    act(post_chat, table.seats.get(position=0).user, table.pk, "between us")
    mallory = make_person("mallory")
    client.force_login(mallory)
    page = client.get(reverse("game", args=[table.pk])).content.decode()
    assert 'id="chat"' not in page and "between us" not in page
    assert client.get(chat_url(table), headers=HX).status_code == 404
    client.post(chat_url(table), {"text": "hello players"})
    assert not ChatMessage.objects.filter(user=mallory).exists()
    client.logout()
    assert "between us" not in client.get(reverse("game", args=[table.pk])).content.decode()
    bot = table.seats.get(user__bot_level="easy").user
    with pytest.raises(ActionError):
        act(post_chat, bot, table.pk, "beep")


def test_a_player_who_hid_the_chat_sees_none_of_it(act, client, table, alice, bob):
    act(post_chat, bob, table.pk, "can you read me")
    alice.chat_hidden = True
    alice.save()
    client.force_login(alice)
    page = client.get(reverse("game", args=[table.pk])).content.decode()
    assert "can you read me" not in page and "You have hidden the chat." in page
    client.post(reverse("settings"), {"email_turn": "at_once", "chat_hidden": ""})
    alice.refresh_from_db()
    assert alice.chat_hidden is False  # the setting is the settings page's
    assert "can you read me" in client.get(reverse("game", args=[table.pk])).content.decode()


def test_a_report_reaches_staff_who_hide_the_message_and_bar_its_writer(
    act, client, table, alice, bob, admin_user
):
    rude = act(post_chat, bob, table.pk, "something rude")
    client.force_login(alice)
    answer = client.post(
        reverse("game_chat_report", args=[table.pk]), {"message": rude.pk}, headers=HX
    )
    assert "Reported: staff will read it." in answer.content.decode()
    client.post(reverse("game_chat_report", args=[table.pk]), {"message": rude.pk}, headers=HX)
    assert ChatReport.objects.filter(message=rude, reporter=alice).count() == 1
    with pytest.raises(ActionError):
        act(report_chat, bob, table.pk, rude.pk)  # not one's own
    client.force_login(admin_user)
    changelist = reverse("admin:games_chatmessage_changelist")
    assert "something rude" in client.get(changelist).content.decode()
    answer = client.post(changelist, {"action": "hide_and_bar", "_selected_action": [rude.pk]})
    assert answer.status_code == 302
    bob.refresh_from_db()
    assert bob.chat_barred
    client.force_login(alice)
    assert "something rude" not in client.get(reverse("game", args=[table.pk])).content.decode()
    with pytest.raises(ActionError) as refused:
        act(post_chat, bob, table.pk, "again")
    assert refused.value.code == "barred"


def test_the_chat_is_kept_with_the_finished_game(act, client, alice, bob):
    game = act(create_game, alice, players=2, target=20)
    act(join_game, bob, game.pk)
    act(post_chat, bob, game.pk, "good game in advance")
    game = play_out(act, game, [alice, bob], random.Random(5))
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="chat"' in page and "good game in advance" in page
    act(post_chat, alice, game.pk, "well played")  # and the players may still talk
    assert "well played" in client.get(chat_url(game), headers=HX).content.decode()


def test_reported_messages_come_first_for_staff(act, client, table, alice, bob, admin_user):
    older = act(post_chat, bob, table.pk, "an older line")
    act(post_chat, alice, table.pk, "a newer line")
    client.force_login(admin_user)
    changelist = reverse("admin:games_chatmessage_changelist")

    def listing() -> str:
        return client.get(changelist).content.decode()

    assert listing().index("a newer line") < listing().index("an older line")  # newest first
    act(report_chat, alice, table.pk, older.pk)
    assert listing().index("an older line") < listing().index("a newer line")


def test_hiding_a_message_does_not_bar_its_writer(act, client, table, alice, bob, admin_user):
    rude = act(post_chat, bob, table.pk, "something rude")
    act(post_chat, bob, table.pk, "something kind")
    client.force_login(admin_user)
    answer = client.post(
        reverse("admin:games_chatmessage_changelist"),
        {"action": "hide", "_selected_action": [rude.pk]},
    )
    assert answer.status_code == 302
    rude.refresh_from_db()
    bob.refresh_from_db()
    assert rude.hidden and not bob.chat_barred
    assert not ChatMessage.objects.get(text="something kind").hidden
    client.force_login(alice)
    page = client.get(reverse("game", args=[table.pk])).content.decode()
    assert "something rude" not in page and "something kind" in page
    act(post_chat, bob, table.pk, "sorry")  # bob still writes
    assert ChatMessage.objects.filter(user=bob, hidden=False).count() == 2


def test_a_new_message_is_announced_after_commit(act, table, alice, monkeypatch):
    heard = []
    monkeypatch.setattr(live.hub, "tell_here", lambda *args: heard.append(args))
    message = act(post_chat, alice, table.pk, "hello")
    assert heard == [(table.pk, message.pk, live.CHAT, None)]


def test_the_chat_answers_204_when_nothing_is_newer(act, client, table, alice, bob):
    first = act(post_chat, bob, table.pk, "first")
    client.force_login(alice)
    assert client.get(chat_url(table), {"after": first.pk}, headers=HX).status_code == 204
    act(post_chat, bob, table.pk, "second")
    newer = client.get(chat_url(table), {"after": first.pk}, headers=HX)
    assert newer.status_code == 200 and "second" in newer.content.decode()


def test_no_email_carries_chat_text(act, table, alice, bob):
    act(post_chat, alice, table.pk, "secret plan XYZZY")
    act(post_chat, bob, table.pk, "XYZZY indeed")
    play_out(act, table, [alice, bob], random.Random(2))
    assert mail.outbox, "the game sent emails"
    for message in mail.outbox:
        bodies = [message.body] + [body for body, _type in getattr(message, "alternatives", [])]
        assert all("XYZZY" not in body for body in bodies), message.subject


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Table chat", "Message to the table", "Send"]),
        ("fr", ["Discussion de la table", "Message à la table", "Envoyer"]),
    ],
)
def test_the_chat_in_both_languages(client, table, alice, language, words):
    client.force_login(alice)
    page = client.get(
        reverse("game", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word in page


@pytest.mark.django_db(transaction=True)
def test_a_message_written_elsewhere_reaches_an_open_stream(alice, bob, settings):
    """Without Redis the hub reads the latest message from the database, as it reads versions;
    a stream opened later says the latest message first."""
    import asyncio

    from asgiref.sync import sync_to_async
    from django.db import connections

    from games import stream

    settings.REDIS_URL = ""
    game = create_game(alice, players=2)
    join_game(bob, game.pk)

    async def read_until_chat(opened: asyncio.Event | None = None) -> list[str]:
        chunks = []
        async for chunk in stream.game_events(game.pk, lifetime=20):
            chunks.append(chunk)
            if opened is not None:
                opened.set()
            if "event: chat" in chunk:
                break
        await sync_to_async(connections.close_all)()
        return chunks

    async def scenario():
        opened = asyncio.Event()
        reading = asyncio.ensure_future(read_until_chat(opened))
        await opened.wait()
        message = await sync_to_async(post_chat)(bob, game.pk, "hi")
        return message, await asyncio.wait_for(reading, 20)

    message, chunks = asyncio.run(scenario())
    assert "event: chat" not in chunks[0]  # no message when the page opened
    assert chunks[-1] == f"event: chat\ndata: {message.pk}\n\n"
    reopened = asyncio.run(asyncio.wait_for(read_until_chat(), 20))
    assert f"event: chat\ndata: {message.pk}\n\n" in reopened[0]


def test_the_digest_says_when_others_wrote_since_the_last_visit_never_what(
    act, alice, bob, django_capture_on_commit_callbacks
):
    week = {"time_control": "correspondence", "move_seconds": 7 * 24 * 3600}
    game = act(create_game, alice, players=2, **week)
    act(join_game, bob, game.pk)
    turn = game.seats.get(acting_since__isnull=False).user
    other = bob if turn == alice else alice
    turn.email_turn = User.TurnEmail.DAILY
    turn.last_seen = timezone.now()
    turn.save()

    def digest(day: str) -> list[str]:
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            queue_emails([("digest", [turn.pk, day])])
        (email,) = mail.outbox
        return [email.body, *(body for body, _type in email.alternatives)]

    assert all("new messages in its chat" not in body for body in digest("2026-11-23"))
    act(post_chat, other, game.pk, "my cards are XYZZY")
    for body in digest("2026-11-24"):
        assert f"/games/{game.pk}/" in body and "new messages in its chat" in body
        assert "XYZZY" not in body
    turn.last_seen = timezone.now()  # on the site since: read, as far as the digest knows
    turn.save()
    act(post_chat, turn, game.pk, "my own line")  # one's own line is not news
    assert all("new messages in its chat" not in body for body in digest("2026-11-25"))
    turn.last_seen = None  # never on the site: every line of the others is new
    turn.save()
    assert all("new messages in its chat" in body for body in digest("2026-11-26"))
    turn.chat_hidden = True  # a player who hid the chat hears nothing of it
    turn.save()
    assert all("new messages in its chat" not in body for body in digest("2026-11-27"))
