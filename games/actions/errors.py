from __future__ import annotations

from django.utils.translation import gettext

from common.refusals import quote
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
        params = {name: quote(value) for name, value in refusal.params.items()}
        return cls(gettext(refusal.message).format(**params), code=refusal.code)


class StaleVersion(ActionError):
    """The form was made for an older version of the game (a second tab, a double click)."""


class RateLimited(ActionError):
    """Too many of one kind of request: nothing was done; ``retry_after`` seconds from now it
    will be taken again."""

    def __init__(self, message: str, retry_after: int, code: str = "rate_limited") -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after
