"""What the API answers, as JSON: the seats, a table, a game as the caller's seat sees it
(exactly ``engine.view(state, seat)``, with the seat's legal moves), a finished game's result
and a rating."""

from __future__ import annotations

from typing import Any

from accounts.models import Shown, User
from games import engine, lookups, results, selectors
from games.models import Game


def seats_json(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "position": s.position,
            "name": str(s.name),
            "is_bot": bool(s.user and s.user.plays_as_bot),
            "username": s.user.username if s.user else None,
        }
        for s in lookups.seats_in_order(game)
    ]


def my_seat(game: Game, user: User) -> int | None:
    lookups.seats_in_order(game)  # read with the seats the answer shows: no query of its own
    return selectors.position_of(game, user)


def table_json(game: Game, user: User) -> dict[str, Any]:
    return {
        "id": game.pk,
        "status": game.status,
        "players": game.players,
        "time_control": game.time_control,
        "move_seconds": game.move_seconds,
        "target": game.target,
        "visibility": game.visibility,
        "version": game.version,
        "seats": seats_json(game),
        "my_seat": my_seat(game, user),
    }


def game_json(game: Game, user: User) -> dict[str, Any]:
    """The game as the user's seat sees it: exactly ``engine.view`` (a spectator's view for
    anyone not seated), and the seat's legal moves now."""
    seat = my_seat(game, user)
    shown = {
        "id": game.pk,
        "status": game.status,
        "version": game.version,
        "my_seat": seat,
        "seats": seats_json(game),
    }
    if game.status == Game.Status.OPEN or not game.state:
        return {**shown, "view": None, "legal": [], "result": None}
    seen = engine.view(engine.state_from_json(game.state), seat)
    legal: list[dict[str, object]] = []
    if game.status == Game.Status.ACTIVE:
        legal = [{k: v for k, v in move.items() if k != "seat"} for move in seen["legal"]]
    return {
        **shown,
        "view": seen,
        "legal": legal,
        "result": result_json(game, seen) if game.status == Game.Status.FINISHED else None,
    }


def result_json(game: Game, seen: engine.View) -> dict[str, Any]:
    """The finished game's result: the same definition as its page and its email."""
    return results.of_seats(seen["totals"], game.seats.all()).as_json()


def rating_json(shown: Shown) -> dict[str, int | bool]:
    return {"value": shown.value, "spread": shown.spread, "provisional": shown.provisional}
