"""Changes to an account that reach into the games."""

from __future__ import annotations

from games.actions import release_seats

from .models import User


def delete_account(user: User) -> None:
    """Delete a person's account. Their seats in games in play go to the stand-in bot and they
    leave the tables that have not started (``release_seats``) first; finished games keep their
    seats, which then show "(former player)", and their rating history stays with the games."""
    if user.is_bot:
        raise ValueError("bots are not deleted this way")
    release_seats(user)
    user.delete()
