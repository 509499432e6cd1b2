from __future__ import annotations

from django.utils.translation import gettext

from games.engine import IllegalMove


class ActionError(Exception):
    """A refused request. ``message`` is for the player, in their language."""

    def __init__(self, message: str, code: str = "refused") -> None:
        self.message = str(message)
        self.code = code
        super().__init__(self.message)

    @classmethod
    def from_illegal_move(cls, refusal: IllegalMove) -> ActionError:
        """The engine's refusal, translated (its messages are marked with gettext_noop)."""
        return cls(gettext(refusal.message).format(**refusal.params), code=refusal.code)


class StaleVersion(ActionError):
    """The form was made for an older version of the game (a second tab, a double click)."""
