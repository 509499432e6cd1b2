"""What the API answers, as JSON: the seats, a table, a game as the caller's seat sees it
(exactly ``engine.view(state, seat)``, with the seat's legal moves), a finished game's result
and a rating."""

from __future__ import annotations

from typing import TypedDict

from accounts.models import Shown, User
from games import engine, lookups, results, selectors
from games.models import Game

# The shapes below are what api/schemas describes to clients (SeatOut, TableOut, GameOut,
# RatingOut): tests/api/test_schemas.py validates every answer against those.


class SeatJson(TypedDict):
    position: int
    name: str
    is_bot: bool
    username: str | None


class TableJson(TypedDict):
    id: int
    status: str
    players: int
    time_control: str
    move_seconds: int
    target: int | None
    visibility: str
    version: int
    seats: list[SeatJson]
    my_seat: int | None


class GameJson(TypedDict):
    id: int
    status: str
    version: int
    my_seat: int | None
    seats: list[SeatJson]
    view: engine.View | None
    legal: list[dict[str, object]]
    result: results.ResultJson | None


class RatingJson(TypedDict):
    value: int
    spread: int
    provisional: bool


def seats_json(game: Game) -> list[SeatJson]:
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


def table_json(game: Game, user: User) -> TableJson:
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


def game_json(game: Game, user: User) -> GameJson:
    """The game as the user's seat sees it: exactly ``engine.view`` (a spectator's view for
    anyone not seated), and the seat's legal moves now."""
    seat = my_seat(game, user)
    shown = GameJson(
        id=game.pk,
        status=game.status,
        version=game.version,
        my_seat=seat,
        seats=seats_json(game),
        view=None,
        legal=[],
        result=None,
    )
    if game.status == Game.Status.OPEN or not game.state:
        return shown
    seen = engine.view(engine.state_from_json(game.state), seat)
    shown["view"] = seen
    if game.status == Game.Status.ACTIVE:
        shown["legal"] = [{k: v for k, v in m.items() if k != "seat"} for m in seen["legal"]]
    if game.status == Game.Status.FINISHED:
        shown["result"] = result_json(game, seen)
    return shown


def result_json(game: Game, seen: engine.View) -> results.ResultJson:
    """The finished game's result: the same definition as its page and its email."""
    return results.of_seats(seen["totals"], game.seats.all()).as_json()


def rating_json(shown: Shown) -> RatingJson:
    return {"value": shown.value, "spread": shown.spread, "provisional": shown.provisional}
