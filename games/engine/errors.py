"""The one error the engine raises for a refused move."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Marks an engine message for translation without importing Django.

    ``makemessages`` picks these up; the site translates ``IllegalMove.message`` when it shows it.
    """
    return message


class IllegalMove(ValueError):
    """A refused move. The state it was applied to is unchanged.

    ``code`` names the reason for programs; ``message`` is an English sentence a player can read,
    with ``{name}`` placeholders filled from ``params``.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(message.format(**params))
