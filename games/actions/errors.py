from __future__ import annotations

from django.utils.text import Truncator
from django.utils.translation import gettext, ngettext

from games.engine import IllegalMove

QUOTE_LENGTH = 40  # characters of someone's input that a message repeats, at most


def quote(value: object) -> str:
    """A short prefix of untrusted input, to repeat in a message ("There is no player called
    “…”"): never the whole of what a visitor sent."""
    return Truncator(str(value)).chars(QUOTE_LENGTH)


def retry_message(seconds: int) -> str:
    """“Try again in 42 seconds.” (in minutes or hours when that is long)."""
    if seconds < 120:
        return ngettext(
            "Try again in %(count)d second.", "Try again in %(count)d seconds.", seconds
        ) % {"count": seconds}
    if seconds < 2 * 3600:
        minutes = -(-seconds // 60)
        return ngettext(
            "Try again in %(count)d minute.", "Try again in %(count)d minutes.", minutes
        ) % {"count": minutes}
    hours = -(-seconds // 3600)
    return ngettext("Try again in %(count)d hour.", "Try again in %(count)d hours.", hours) % {
        "count": hours
    }


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
