from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player, human or bot. Our own model from the first migration, so fields can be added
    later without swapping the user model under existing data."""

    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    class TurnEmail(models.TextChoices):
        AT_ONCE = "at_once", _("At once")
        DAILY = "daily", _("In a daily digest")
        NEVER = "never", _("Never")

    # Empty for people. Bots are users so that seats, records and ratings treat them alike;
    # they have no usable password and cannot log in.
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel, blank=True)
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("Shown to other players.")
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # Notification preferences.
    email_turn = models.CharField(
        _("email when it is my turn"), max_length=8, choices=TurnEmail, default=TurnEmail.AT_ONCE
    )
    email_reminders = models.BooleanField(_("remind me before a deadline"), default=True)
    email_invitations = models.BooleanField(_("email invitations to games"), default=True)
    email_game_over = models.BooleanField(_("email when a game is over"), default=True)
    # Presence: "your turn" emails go only to players who are not on the site.
    last_seen = models.DateTimeField(null=True, blank=True)
    # Vacation pauses correspondence deadlines; each player has a number of days a year.
    vacation_since = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(null=True, blank=True)
    vacation_seconds_used = models.PositiveIntegerField(default=0)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def name(self) -> str:
        """The name other players see."""
        if self.is_bot:
            return _("%(level)s bot") % {"level": self.get_bot_level_display()}
        return self.display_name or self.username


def bot_user(level: str) -> User:
    """The user that plays every seat of this bot level (made on first use)."""
    user, created = User.objects.get_or_create(
        username=f"bot-{level}", defaults={"bot_level": level}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
