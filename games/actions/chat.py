"""Table chat: the seated people of a game write to each other; staff hide and bar.

A message changes no game state, so it takes no lock on the game: it is written, and its id is
announced to the table's open pages once committed (``games.live.announce_chat``)."""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clock
from games.live import announce_chat
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatReport
from games.selectors import chat_seated

from .errors import ActionError


def clean_text(text: str) -> str:
    """One line of plain text: control characters (line breaks among them) become spaces."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in str(text))
    return " ".join(text.split())


def _not_a_bot(user) -> None:
    if user.is_authenticated and user.plays_as_bot:
        raise ActionError(_("Bots do not chat: the chat is for the people at the table."), "bot")


def post_chat(user, game_id: int, text: str, now=None) -> ChatMessage:
    text = clean_text(text)
    _not_a_bot(user)
    if not chat_seated(user, game_id):
        raise ActionError(_("Only the players at this table write in its chat."), code="not_seated")
    if user.chat_barred:
        raise ActionError(_("You may not write in the chat."), code="barred")
    if not text:
        raise ActionError(_("Write something first."), code="empty")
    if len(text) > CHAT_MAX_LENGTH:
        raise ActionError(
            ngettext(
                "A message has at most %(count)d character.",
                "A message has at most %(count)d characters.",
                CHAT_MAX_LENGTH,
            )
            % {"count": CHAT_MAX_LENGTH},
            code="too_long",
        )
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game_id=game_id, user=user, text=text, created_at=now or clock.now()
        )
        transaction.on_commit(lambda: announce_chat(game_id, message.pk))
    return message


def report_chat(user, game_id: int, message_id: int, now=None) -> ChatReport:
    """A player reports another's message to staff (once; reporting again changes nothing)."""
    _not_a_bot(user)
    message = ChatMessage.objects.filter(pk=message_id, game_id=game_id, hidden=False).first()
    if message is None or not chat_seated(user, game_id):
        raise ActionError(_("There is no such message."), code="no_message")
    if message.user_id == user.pk:
        raise ActionError(_("You cannot report your own message."), code="own")
    report, _created = ChatReport.objects.get_or_create(
        message=message, reporter=user, defaults={"created_at": now or clock.now()}
    )
    return report


def hide_chat(messages) -> int:
    """Staff hide messages (a queryset): nobody reads them at the table any more."""
    return messages.filter(hidden=False).update(hidden=True)


def bar_from_chat(users) -> int:
    """Staff bar people (a queryset of users) from writing in any chat."""
    return users.filter(chat_barred=False).update(chat_barred=True)
