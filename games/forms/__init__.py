"""The forms behind every POST of the game pages. They shape untrusted input (types, lengths,
bounded integers) and refuse it with the same sentences the actions use; whether a move or a
table change is allowed is the actions' (and the engine's) question.

Messages repeat at most a short prefix of what was sent (``quote``). The forms live by page:

- ``new_game``: the new-game form with the menus the lobby offers from it, the one-click play
  against bots, and the filters of the games in play;
- ``table``: the game page's forms: a move, the table's bots, seats and invitations, the
  confirmation of what cannot be undone, the chat;
- ``players``: a player's vacation.

Here: what they all share, the answer for input that is not understood and ``first_error``.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

MALFORMED = _("That move is not understood.")


def first_error(form: forms.Form) -> str:
    """The form's first message, the form's own before its fields' (one is enough for a player
    to put things right)."""
    for errors in (form.non_field_errors(), *form.errors.values()):
        if errors:
            return str(errors[0])
    return str(MALFORMED)
