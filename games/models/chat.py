"""A table's chat, and the reports of its messages."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .game import Game

CHAT_MAX_LENGTH = 500


class ChatMessage(models.Model):
    """A line of a table's chat, written by one of its seated people. Only they read it: a
    table has no chat for spectators (see the README). Staff hide a message rather than delete
    it, so that a report still shows what was said."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField()
    hidden = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.game} chat {self.pk}"


class ChatReport(models.Model):
    """A player's report of a chat message, for staff to read in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]

    def __str__(self) -> str:
        return f"report of {self.message}"
