from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .names import name_key


class User(AbstractUser):
    """A player, human or bot. Our own model from the first migration, so fields can be added
    later without swapping the user model under existing data."""

    # The site's bot levels: what the games, their forms and the API offer is derived from this
    # list. Each is the level of a bot in ``games.bots.BOTS`` (which cannot import this module,
    # nor this one import the games): tests/games/test_bot_levels.py fails if they disagree.
    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")
        EXPERT = "expert", _("Expert")  # correspondence tables only (games.models)

    # The level a form offers first (a new table's seats, "add a bot", "start with bots").
    DEFAULT_BOT_LEVEL = BotLevel.MEDIUM

    class TurnEmail(models.TextChoices):
        AT_ONCE = "at_once", _("At once")
        DAILY = "daily", _("In a daily digest")
        NEVER = "never", _("Never")

    # Empty for people. Bots are users so that seats, records and ratings treat them alike;
    # they have no usable password and cannot log in.
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel, blank=True)
    # A person's program plays this account, through the API only (lichess's bot accounts): set
    # once, by games.actions.become_bot_account, on an account that has never sat at a table.
    bot_account = models.BooleanField(_("bot account"), default=False)
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("Shown to other players.")
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)
    # Empty: the browser's own zone (pages are written in UTC, and the page's script rewrites
    # their times in the browser's zone). Emails have no browser: they use the zone the page's
    # script last reported (accounts.middleware), or UTC while none has been.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    browser_time_zone = models.CharField(max_length=64, blank=True, default="", editable=False)
    # Notification preferences.
    email_turn = models.CharField(
        _("email when it is my turn"), max_length=8, choices=TurnEmail, default=TurnEmail.AT_ONCE
    )
    email_reminders = models.BooleanField(_("remind me before a deadline"), default=True)
    email_invitations = models.BooleanField(_("email invitations to games"), default=True)
    email_game_over = models.BooleanField(_("email when a game is over"), default=True)
    # The same occasions as notifications on the browsers the player turned them on in
    # (``push_devices``); games.notifications.PUSH_PREFERENCES says which kind obeys which.
    push_turn = models.BooleanField(_("notify me when it is my turn"), default=True)
    push_reminders = models.BooleanField(
        _("notify me before a deadline, and when a bot moved for me"), default=True
    )
    push_invitations = models.BooleanField(
        _("notify me of invitations and rematches"), default=True
    )
    push_game_over = models.BooleanField(_("notify me when a game is over"), default=True)
    # A notification about a turn that the player answered by coming to the site makes its
    # email pointless: it goes only if they did not (games.actions.notify), unless they say.
    email_with_push = models.BooleanField(
        _("email me about my turn even when a notification reached me"), default=False
    )
    sound = models.BooleanField(_("play a sound when it is my turn"), default=False)
    # BGA's "play forced moves": the page plays the only card the rules allow, after a moment
    # the player may cancel (static/js/table.js), through the same form as a click.
    play_forced_cards = models.BooleanField(
        _("play forced cards for me"),
        default=False,
        help_text=_(
            "When only one card may be played, it is played for you after a moment, unless you"
            " cancel."
        ),
    )
    # Table chat: a player may hide it for themselves; staff may bar someone from writing.
    chat_hidden = models.BooleanField(_("hide the table chat"), default=False)
    chat_barred = models.BooleanField(
        _("barred from chat"), default=False, help_text=_("Staff: this player may not write.")
    )
    # Presence: "your turn" emails go only to players who are not on the site.
    last_seen = models.DateTimeField(null=True, blank=True)
    # When the next daily digest is due: 07:00 in the player's time zone (for the digest only).
    next_digest_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The names as a reader may mistake them (accounts.names.name_key), kept so that a new name
    # is compared with everyone's in one indexed query. Derived from the names in save().
    username_key = models.CharField(max_length=1000, blank=True, db_index=True, editable=False)
    display_name_key = models.CharField(max_length=1000, blank=True, db_index=True, editable=False)

    def save(self, *args, **kwargs):
        self.username_key = name_key(self.username)
        self.display_name_key = name_key(self.display_name) if self.display_name else ""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"username", "display_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "username_key", "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def is_site_bot(self) -> bool:
        """One of the site's own bots (a level); a bot account is a person's program instead,
        and both show the bot mark (``plays_as_bot``)."""
        return bool(self.bot_level)

    @property
    def plays_as_bot(self) -> bool:
        """A bot plays for this account: one of the site's bot levels, or a bot account. Its
        name shows the bot mark, and it is rated and ranked with the bots."""
        return self.is_site_bot or self.bot_account

    @property
    def name(self) -> str:
        """The name other players see."""
        if self.is_site_bot:
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


class Rating(models.Model):
    """A player's (or a bot level's) current OpenSkill rating: a cache of the last
    ``RatingChange`` of each of their rated games, written in the transaction that ends a game.
    ``games.ratings.recompute_ratings`` rebuilds it from the game records."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    # Rated seats: a bot level that held two seats of one game played it twice.
    games = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user} {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def shown(self) -> Shown:
        return shown(self.mu, self.sigma)


# Ratings are shown on the scale players know from chess sites (Glicko's): a new player is
# 1500 ± 350. OpenSkill's mu 25, sigma 25/3 map onto it by one factor, so ``value`` and
# ``spread`` are mu and sigma in other units, and a player's rating moves as mu moves.
SHOWN_CENTER = 1500
SHOWN_PER_MU = 42  # 25/3 × 42 = 350, Glicko's first rating deviation
# The mark "?" stays while the spread is wider than this: about the first ten games.
PROVISIONAL_SPREAD = 260


@dataclass(frozen=True)
class Shown:
    """A rating as pages, emails and the API show it: "1523 ± 301?"."""

    value: int
    spread: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.value}{'?' if self.provisional else ''}"


def shown(mu: float, sigma: float) -> Shown:
    spread = round(sigma * SHOWN_PER_MU)
    return Shown(
        value=round(SHOWN_CENTER + (mu - 25.0) * SHOWN_PER_MU),
        spread=spread,
        provisional=spread > PROVISIONAL_SPREAD,
    )


class RatingChange(models.Model):
    """One seat of one finished game: its final total, its place and its rating before and
    after. The history behind a player's chart, and what a recomputation starts from for a seat
    whose player has since deleted their account (``user`` is then NULL)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, related_name="rating_changes"
    )
    score = models.IntegerField()  # the seat's final total
    rank = models.PositiveSmallIntegerField()  # 1 + seats with a higher total: ties share a rank
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["game_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}: {self.mu_before:.2f} -> {self.mu_after:.2f}"


def user_display(user: User) -> str:
    """How allauth's pages and emails name a user (ACCOUNT_USER_DISPLAY)."""
    return str(user.name)


class PushDevice(models.Model):
    """One browser's Web Push subscription (the Push API's ``PushSubscription``): where its push
    service takes messages for it, and the keys they are encrypted to (RFC 8291), as the browser
    gave them (base64url). A player has one per browser that said yes; the push service's 404 or
    410 says the browser dropped it, and the row goes (``games.push``)."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="push_devices", verbose_name=_("player")
    )
    # A capability: whoever has it and the keys can send to the browser. Unique, so that the
    # same browser subscribing again updates its row instead of getting every message twice.
    endpoint = models.URLField(_("endpoint"), max_length=2000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)  # P-256 point, 65 bytes
    auth = models.CharField(_("authentication secret"), max_length=50)  # 16 bytes
    # "Firefox · Android": for the player to tell their devices apart (from the User-Agent).
    browser = models.CharField(_("browser"), max_length=40, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")

    def __str__(self) -> str:
        return f"{self.browser or self.service} of {self.user}"

    @property
    def service(self) -> str:
        """The push service's host (the endpoint's path is the secret part)."""
        return urlsplit(self.endpoint).netloc
