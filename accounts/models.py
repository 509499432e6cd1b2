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

    # Empty for people. Bots are users so that seats, records and ratings treat them alike;
    # they have no usable password and cannot log in.
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel, blank=True)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def display_name(self) -> str:
        if self.is_bot:
            return _("%(level)s bot") % {"level": self.get_bot_level_display()}
        return self.get_full_name() or self.username


def bot_user(level: str) -> User:
    """The user that plays every seat of this bot level (made on first use)."""
    user, created = User.objects.get_or_create(
        username=f"bot-{level}", defaults={"bot_level": level}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
