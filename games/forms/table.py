"""The game page's forms: a move (``MoveForm``), the table's bots, seats and invitations, the
confirmation of what cannot be undone, and the chat's."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from common.forms import Form
from common.refusals import quote
from games.engine.cards import ALL_CARDS
from games.engine.moves import KINDS
from games.forms import MALFORMED

MAX_VERSION = 2**31 - 1  # Game.version is a PositiveIntegerField
SEATS = [(str(s), str(s)) for s in range(5)]
BOT_LEVELS = tuple(User.BotLevel.values)
LONGEST_CARD = max(len(c) for c in ALL_CARDS)


class Strings(forms.Field):
    """Every value sent under one name (``cards=B7&cards=Y2``), each a short string."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, max_items: int, max_length: int, **kwargs):
        self.max_items = max_items
        self.max_length = max_length
        super().__init__(**kwargs)

    def to_python(self, value) -> list[str]:
        values = list(value or [])
        if len(values) > self.max_items or any(
            not isinstance(v, str) or len(v) > self.max_length for v in values
        ):
            raise ValidationError(MALFORMED, code="malformed")
        return values


class MoveForm(Form):
    """One move, as the game page posts it (another engineer builds the page on this contract):
    ``version`` and ``kind`` always; then by kind, token: ``box`` = "<line>:<box>"; teams:
    ``partner`` (a seat, 0 to 2 times: the first player's partners) and ``bonus`` (a seat, or
    empty); discard: ``cards`` (repeated); pass and play: ``card``."""

    version = forms.IntegerField(min_value=0, max_value=MAX_VERSION)
    # A discard or pass is chosen by all seats at once: its page says which round it was for,
    # so that the others' choices meanwhile do not make it stale (games.actions.submit_move).
    round = forms.IntegerField(min_value=1, max_value=1000, required=False)
    kind = forms.ChoiceField(choices=[(k, k) for k in KINDS])
    box = forms.CharField(required=False, max_length=20)
    partner = forms.TypedMultipleChoiceField(choices=SEATS, coerce=int, required=False)
    bonus = forms.TypedChoiceField(
        choices=[("", ""), *SEATS], coerce=int, empty_value=None, required=False
    )
    cards = Strings(max_items=15, max_length=LONGEST_CARD, required=False)
    card = forms.CharField(required=False, max_length=LONGEST_CARD)

    def clean(self):
        data = super().clean()
        if self.errors:
            raise ValidationError(MALFORMED, code="malformed")
        kind = data["kind"]
        if kind == "token" and data["box"].count(":") != 1:
            raise ValidationError(MALFORMED, code="malformed")
        if kind in ("pass", "play") and not data["card"]:
            raise ValidationError(MALFORMED, code="malformed")
        return data

    def move(self, seat: int | None) -> dict:
        """The engine's move, in its JSON form without the seat (``{"play": "Y7"}``). A team is
        the first player's (``seat``) with the partners named."""
        data = self.cleaned_data
        kind = data["kind"]
        if kind == "token":
            return {"token": data["box"].split(":")}
        if kind == "teams":
            return {"teams": {"team": [seat, *data["partner"]], "bonus": data["bonus"]}}
        if kind == "discard":
            return {"discard": data["cards"]}
        return {kind: data["card"]}


class LevelForm(Form):
    """A bot level (add a bot; start with bots in the open seats)."""

    level = forms.CharField(required=False, strip=False)

    def __init__(self, *args, default: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.default = default

    def clean_level(self) -> str:
        level = self.cleaned_data["level"] or self.default
        if level not in BOT_LEVELS:
            raise ValidationError(
                _("There is no bot level “%(level)s”.") % {"level": quote(level)}, code="level"
            )
        return level


class PositionForm(Form):
    position = forms.IntegerField(
        min_value=0,
        max_value=4,
        error_messages={
            key: _("There is no bot in that seat.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )


class ConfirmForm(Form):
    """The second click of an action that cannot be undone (resigning): the button says "Yes"."""

    confirm = forms.BooleanField(
        error_messages={"required": _("Nothing was done: confirm with the “Yes” button.")}
    )


class JoinForm(Form):
    """The invite code, when the table is private (a wrong one is answered as no code at all)."""

    invite = forms.CharField(required=False, max_length=64)

    def code(self) -> str:
        return self.cleaned_data["invite"] if self.is_valid() else ""


class BotAccountForm(Form):
    """A bot account to seat at the table, by its username."""

    username = forms.CharField(
        max_length=150,
        error_messages={
            "required": _("Give the username of a bot account."),
            "max_length": _("There is no bot account by that name."),
        },
    )


class InviteForm(Form):
    username = forms.CharField(error_messages={"required": _("Give the username of a player.")})

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if len(username) > User._meta.get_field("username").max_length:
            raise ValidationError(
                _("There is no player called “%(name)s”.") % {"name": quote(username)},
                code="no_user",
            )
        return username


class ChatForm(Form):
    """A chat message; what it may say is checked by ``actions.post_chat``."""

    text = forms.CharField(required=False, strip=False)


class ReportForm(Form):
    message = forms.IntegerField(min_value=1, max_value=2**31 - 1)
