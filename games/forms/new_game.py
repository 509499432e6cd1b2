"""The new-game form and the menus the lobby builds from it (what it offers comes from the code
that checks it), the lobby's one-click play against bots, and the filters of the games in play
(a GET form)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from common.forms import Form
from games.actions.lobby import MAX_TARGET, TIME_CONTROLS
from games.engine import PLAYER_COUNTS
from games.models import CHARACTERS, Game, offers_bot_level

LIVE = Game.TimeControl.LIVE
DEFAULT_TIME = f"{LIVE}:{5 * 60}"
DEFAULT_PLAYERS = 4
OTHER_SEATS = range(1, max(PLAYER_COUNTS))  # the seats the new-game form fills: all but its maker's
VISIBILITY_CHOICES = [
    (Game.Visibility.PUBLIC, _("Anyone (listed in the lobby)")),
    (Game.Visibility.PRIVATE, _("Only people with the invite link")),
]


def time_label(seconds: int) -> str:
    """“5 minutes”, “2 days”: a time per move as the new-game form offers it."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    minutes = seconds // 60
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def time_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The times per move offered (``actions.lobby.TIME_CONTROLS``), grouped by time control:
    ``[(group label, [(value, label), ...]), ...]``."""
    return [
        (
            Game.TimeControl(control).label,
            [(f"{control}:{seconds}", time_label(seconds)) for seconds in options],
        )
        for control, options in TIME_CONTROLS.items()
    ]


def seat_choices(position: int) -> list[tuple[str, str, bool]]:
    """The menu of one other seat of the new-game form: ``(value, label, correspondence
    only)``, the bots named as the table will name them (``Seat.name``: “Medium bot
    (Crane)”), so that two bots of a level read apart before the game as in it."""
    character = CHARACTERS[position]
    choices = [("", str(_("Open for a person")), False)]
    for value, level in User.BotLevel.choices:
        name = f"{_('%(level)s bot') % {'level': level}} ({character})"
        if offers_bot_level(LIVE, value):
            choices.append((value, name, False))
        else:
            choices.append((value, _("%(name)s, correspondence only") % {"name": name}, True))
    return choices


def new_game_choices() -> dict:
    """What the new-game form offers, from the code that checks it."""
    return {
        "player_counts": PLAYER_COUNTS,
        "default_players": DEFAULT_PLAYERS,
        "bot_levels": User.BotLevel.choices,
        "default_bot_level": User.DEFAULT_BOT_LEVEL,
        # Offered while a correspondence time is chosen (static/js/table.js), hidden otherwise.
        "correspondence_levels": sorted(
            level for level in User.BotLevel.values if not offers_bot_level(LIVE, level)
        ),
        "time_choices": time_choices(),
        "default_time": DEFAULT_TIME,
        "max_target": MAX_TARGET,
        "other_seats": OTHER_SEATS,
        # Each other seat by its character, as the table names it (the maker plays the first).
        "my_character": CHARACTERS[0],
        "seats": [
            {"position": p, "character": CHARACTERS[p], "choices": seat_choices(p)}
            for p in OTHER_SEATS
        ],
        "visibility_choices": VISIBILITY_CHOICES,
    }


class CreateGameForm(Form):
    CHOOSE = _("Choose the number of players and the rounds from the form.")
    PLAYERS = _("Nyet! is played by 2 to 5 players.")

    players = forms.IntegerField(
        min_value=2,
        max_value=5,
        error_messages={"required": CHOOSE, "invalid": CHOOSE, "min_value": PLAYERS},
    )
    target = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_TARGET,
        error_messages={"invalid": CHOOSE},
    )
    move_seconds = forms.ChoiceField(
        required=False,
        choices=[
            (f"{control}:{seconds}", f"{control}:{seconds}")
            for control, options in TIME_CONTROLS.items()
            for seconds in options
        ],
        error_messages={"invalid_choice": _("Choose one of the offered times per move.")},
    )
    visibility = forms.ChoiceField(
        required=False,
        choices=VISIBILITY_CHOICES,
        error_messages={"invalid_choice": _("Choose public or private.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].error_messages["max_value"] = self.PLAYERS
        target = _("The point target must be between 1 and %(max)s.") % {"max": MAX_TARGET}
        for bound in ("min_value", "max_value"):
            self.fields["target"].error_messages[bound] = target
        for p in OTHER_SEATS:  # seats beyond the number of players are ignored (``clean``)
            wrong = _("%(seat)s: choose a bot level or an open seat.") % {"seat": CHARACTERS[p]}
            self.fields[f"seat_{p}"] = forms.ChoiceField(
                required=False,
                choices=[("", ""), *User.BotLevel.choices],
                error_messages={"invalid_choice": wrong},
            )

    def clean(self):
        """Seats beyond the number of players are not part of the table: whatever was sent for
        them (a page without its script sends every seat) is neither used nor refused."""
        data = super().clean()
        players = data.get("players")
        if players is not None:
            for p in OTHER_SEATS:
                if p >= players:
                    self.errors.pop(f"seat_{p}", None)
                    data[f"seat_{p}"] = ""
        return data

    def options(self) -> dict:
        """The keyword arguments of ``actions.create_game``."""
        data = self.cleaned_data
        players = data["players"]
        time_control, seconds = (data["move_seconds"] or DEFAULT_TIME).split(":")
        return {
            "players": players,
            "bots": [data[f"seat_{p}"] or None for p in range(1, players)],
            "target": data["target"],
            "time_control": time_control,
            "move_seconds": int(seconds),
            "visibility": data["visibility"] or Game.Visibility.PUBLIC,
        }


class PlayAgainstBotsForm(Form):
    """The lobby's one-click play: a number of players and a pace (``pace``: live or
    correspondence), with the new-game form's sentences for a wrong number."""

    players = forms.IntegerField(
        min_value=min(PLAYER_COUNTS),
        max_value=max(PLAYER_COUNTS),
        error_messages={
            "required": CreateGameForm.PLAYERS,
            "invalid": CreateGameForm.PLAYERS,
            "min_value": CreateGameForm.PLAYERS,
            "max_value": CreateGameForm.PLAYERS,
        },
    )
    pace = forms.ChoiceField(
        required=False,
        choices=Game.TimeControl.choices,
        error_messages={"invalid_choice": _("Choose live or correspondence.")},
    )

    def options(self) -> dict:
        """The keyword arguments of ``actions.play_against_bots``."""
        data = self.cleaned_data
        return {"players": data["players"], "time_control": data["pace"] or LIVE}


class GamesInPlayForm(Form):
    """The filters of the games-in-play list, sent by GET: a player count (2 to 5) and a pace
    (live or correspondence), each empty for any. The choices come from the code that checks a
    new table (``PLAYER_COUNTS``, ``Game.TimeControl``), not retyped."""

    players = forms.TypedChoiceField(
        label=_("Players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Any number")), *((str(n), str(n)) for n in PLAYER_COUNTS)],
        error_messages={"invalid_choice": _("Choose 2 to 5 players, or any number.")},
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        required=False,
        choices=[("", _("Live or correspondence")), *Game.TimeControl.choices],
        error_messages={"invalid_choice": _("Choose live, correspondence, or both.")},
    )

    def filters(self) -> dict:
        """What the list is filtered by: the valid choices, none when anything sent is wrong."""
        if not self.is_valid():
            return {}
        return {name: value for name, value in self.cleaned_data.items() if value}
