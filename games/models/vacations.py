"""A player's time away (``games.actions.vacations``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Vacation(models.Model):
    """A player's time away: their correspondence deadlines are paused meanwhile."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()  # as asked, or when the year's days run out
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    warned_at = models.DateTimeField(null=True, blank=True)  # "your vacation ends tomorrow"

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(ended_at__isnull=True), name="one_vacation_at_a_time"
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("started_at")), name="vacation_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} away from {self.started_at:%Y-%m-%d}"
