"""Personal API tokens: shown once when made, stored only as a SHA-256 digest (a token is 256
random bits: a slow hash would add nothing), revoked rather than deleted."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("read: see your games and tables")
    PLAY = "play", _("play: create and join tables, make moves")
    BOT = "bot", _("bot: play as a bot account")


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)  # shown, to tell tokens apart
    scopes = models.JSONField(default=list)  # Scope values
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
