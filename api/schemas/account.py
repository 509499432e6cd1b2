"""The account's schemas: who a token (or the session) is, with its rating."""

from __future__ import annotations

from ninja import Schema


class RatingOut(Schema):
    value: int  # on the scale of chess sites: everyone starts at 1500
    spread: int  # ± this much: 350 to start with, narrowing as the games tell more
    provisional: bool  # the spread is still wide (about the first ten games): shown as "1500?"


class Account(Schema):
    username: str
    name: str
    is_bot: bool  # a bot account (the site's own bots never use the API)
    rating: RatingOut | None  # None before the first rated game
    rated_games: int
