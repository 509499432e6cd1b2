"""The API's enums, each read from a list the site keeps (the statuses, time controls and
visibilities from ``Game``, the bot levels from ``User.BotLevel``, the times per move from
``actions.lobby.TIME_CONTROLS``, the phases and the board's lines and boxes from the engine):
none is written out twice."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeAlias

from accounts.models import User
from games import engine
from games.actions.lobby import TIME_CONTROLS
from games.models import Game


def _enum(name: str, values: Iterable[object], doc: str) -> type[StrEnum]:
    # mypy reads Enum's functional API only with literal names and members: called through Any.
    functional: Any = StrEnum
    made: type[StrEnum] = functional(name, [(str(v), str(v)) for v in values])
    made.__doc__ = doc
    return made


if TYPE_CHECKING:
    # Made at import from the site's lists, their members are unknown to mypy: each is a StrEnum.
    GameStatus: TypeAlias = StrEnum
    TimeControl: TypeAlias = StrEnum
    Visibility: TypeAlias = StrEnum
    BotLevel: TypeAlias = StrEnum
    Pace: TypeAlias = StrEnum
    Phase: TypeAlias = StrEnum
    Line: TypeAlias = StrEnum
    DiscardRule: TypeAlias = StrEnum
    Color: TypeAlias = StrEnum
    SuperColor: TypeAlias = StrEnum
else:
    GameStatus = _enum("GameStatus", Game.Status.values, "A table's or a game's status.")
    TimeControl = _enum(
        "TimeControl",
        Game.TimeControl.values,
        "live: a person waits for each move; correspondence: days per move.",
    )
    Visibility = _enum(
        "Visibility",
        Game.Visibility.values,
        "public: listed in the lobby; private: by invite only.",
    )
    BotLevel = _enum(
        "BotLevel", User.BotLevel.values, "A bot's level (expert: correspondence only)."
    )
    Pace = _enum(
        "Pace",
        [
            f"{control}:{seconds}"
            for control, options in TIME_CONTROLS.items()
            for seconds in options
        ],
        "A time control and its seconds per move, as offered by the lobby.",
    )
    Phase = _enum(
        "Phase",
        engine.PHASES,
        "The Round's phase: the board (NYET! tokens), the teams, the discard or pass (every seat "
        "at once), the tricks; over once the game is.",
    )
    Line = _enum("Line", engine.LINES, "A line of the board.")
    DiscardRule = _enum("DiscardRule", engine.BOXES["discard"], "Line 2's boxes: discard or pass.")
    Color = _enum("Color", engine.BOXES["trump"], "A color: line 3's boxes.")
    SuperColor = _enum("SuperColor", engine.BOXES["super"], "Line 4's boxes: a color, or none.")
