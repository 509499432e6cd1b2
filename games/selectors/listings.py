"""The lists of games: the lobby (the open tables, and a player's own games in sections) and
the public games in play, for spectators. Each in a fixed number of queries, however many
games."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

from django.core.paginator import Paginator
from django.db.models import F, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Coalesce

from accounts.models import User
from games import clock, results, table
from games.models import Game, MoveRecord, Round, Seat
from games.selectors.seats import SEAT_FIELDS, Viewer, position_of, with_seats

LOBBY_OPEN_TABLES = 50  # the newest open tables the lobby shows, as cards
LOBBY_FINISHED = 5  # the latest games ended that the lobby lists (the rest: the player's page)
ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


class MyGame(TypedDict):
    """One of the player's games in the lobby, with every seat at its table."""

    game: Game
    seat: Seat  # the player's
    seats: list[Seat]
    acting: NotRequired[str]  # in play, waiting for others: their names
    place: NotRequired[results.Place]  # finished: the player's place, as the result says it
    ordinal: NotRequired[str]


class LastAgainstBots(TypedDict):
    players: int
    pace: str  # a Game.TimeControl


class Lobby(TypedDict):
    open_games: list[Game]
    my_games: dict[str, list[MyGame]]  # by section: turn, others, open, ended
    any_games: bool
    last_against_bots: LastAgainstBots | None


class InPlay(TypedDict):
    page: Any  # Django's Page of the games
    games: list[Game]
    now: datetime


def open_tables() -> list[Game]:
    """The newest public tables waiting for players, with their seats (two queries); never a
    game's state. A rematch is not an open table: its seats are kept for its players."""
    return list(
        with_seats(
            Game.objects.filter(
                status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC, rematch_of__isnull=True
            ).defer("state")
        ).order_by("-created_at")[:LOBBY_OPEN_TABLES]
    )


def lobby(user: Viewer) -> Lobby:
    """Open public tables, and the user's games in sections (``my_games``): ``turn`` (waiting for
    them, soonest deadline first), ``others`` (in play, waiting for others), ``open`` (their
    tables waiting for players) and ``ended`` (finished, aborted or expired, the latest
    ``LOBBY_FINISHED`` of the last 30 days; the player's page has every finished one). A
    rematch (``Game.rematch_of``) is never an open table: it starts once its players accepted
    the offer, and they find it on the finished game's page. Three queries, however many
    games."""
    open_games = open_tables()
    mine: dict[str, list[MyGame]] = {"turn": [], "others": [], "open": [], "ended": []}
    if user.is_authenticated:
        mine = _my_games(user)
    last = max(
        (item["game"] for items in mine.values() for item in items if _against_bots(item)),
        key=lambda game: game.created_at,
        default=None,
    )
    last_against_bots: LastAgainstBots | None = None
    if last is not None:
        last_against_bots = {"players": last.players, "pace": last.time_control}
    for game in open_games:  # a Join button for a table the visitor has no seat at
        game.seated = position_of(game, user) is not None
    return {
        "open_games": open_games,
        "my_games": mine,
        "any_games": any(mine.values()),
        "last_against_bots": last_against_bots,
    }


def _my_games(user: User) -> dict[str, list[MyGame]]:
    """The lobby's sections of ``user``'s games (``lobby``), each in its order (one query)."""
    mine: dict[str, list[MyGame]] = {"turn": [], "others": [], "open": [], "ended": []}
    finished_long_ago = clock.now() - timedelta(days=30)
    mine_now = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).values("game_id")
    ended = (
        Seat.objects.filter(
            user=user, game__status__in=ENDED, game__finished_at__gte=finished_long_ago
        )
        .exclude(game__tutorial=True)  # a finished guide is no game to look back on
        .order_by("-game__finished_at", "-game_id")
        .values("game_id")[:LOBBY_FINISHED]
    )
    # Every seat of those games, with its player and its game, in one query: the user's own
    # seats are among them.
    rows = list(
        Seat.objects.filter(Q(game__in=mine_now) | Q(game__in=ended))
        .select_related("game", "user")
        .only(
            *SEAT_FIELDS,
            "game__status",
            "game__players",
            "game__time_control",
            "game__move_seconds",
            "game__started_at",
            "game__created_at",
            "game__finished_at",
        )
        .order_by("game_id", "position")
    )
    at_table: dict[int, list[Seat]] = {}
    for seat in rows:
        at_table.setdefault(seat.game_id, []).append(seat)
    for seat in (seat for seat in rows if seat.user_id == user.pk):
        section, item = _my_game(seat, at_table[seat.game_id])
        mine[section].append(item)
    # Waiting for the user: soonest deadline first; the games ended, the latest first; the
    # others, newest first.
    mine["turn"].sort(
        key=lambda i: (i["seat"].deadline is None, i["seat"].deadline or i["seat"].acting_since)
    )
    mine["others"].sort(key=lambda i: i["game"].started_at or i["game"].created_at, reverse=True)
    mine["open"].sort(key=lambda i: i["game"].created_at, reverse=True)
    mine["ended"].sort(
        key=lambda i: (i["game"].finished_at or i["game"].created_at, i["game"].pk),
        reverse=True,
    )
    return mine


def _my_game(seat: Seat, table_seats: list[Seat]) -> tuple[str, MyGame]:
    """The lobby's section for the game of the user's ``seat``, and its item there."""
    status = seat.game.status
    if status == Game.Status.ACTIVE:
        section = "turn" if seat.acting_since else "others"
    else:
        section = "open" if status == Game.Status.OPEN else "ended"
    item: MyGame = {"game": seat.game, "seat": seat, "seats": table_seats}
    if section == "others":  # whom the game waits for
        item["acting"] = ", ".join(str(s.name) for s in table_seats if s.acting_since)
    if status == Game.Status.FINISHED:  # the user's place, as the result says it
        place = results.of_seats([s.score for s in table_seats], table_seats)
        item["place"] = place.place_of(seat.position)
        item["ordinal"] = table.ordinal(item["place"].rank)
    return section, item


def _against_bots(item: MyGame) -> bool:
    """A game of the lobby's "Your games" that its player made against bots of our levels only
    (seat 0 is the maker's, as ``actions.create_game`` seats it): the lobby's one-click play
    offers the same again first."""
    return item["seat"].position == 0 and all(
        seat.user is not None and seat.user.bot_level for seat in item["seats"][1:]
    )


IN_PLAY_PAGE_SIZE = 25


def games_in_play(filters: Mapping[str, object], page: str | int | None) -> InPlay:
    """Page ``page`` of the public games in play for spectators (``IN_PLAY_PAGE_SIZE`` a page), the
    most recent activity first: the last move's time, or the start before any move. ``filters``:
    ``players`` (a count) and ``pace`` (a ``Game.TimeControl``), each optional.

    Private games are never listed, whoever asks (their players find them in the lobby): the list
    is for watching, and a private game is not anyone's to watch. Waiting and finished games are
    not in play. Three queries, however many games: the count, the page (with its last activity
    and its round, as subqueries on the unique (game, number) indexes), and its seats with their
    players."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, visibility=Game.Visibility.PUBLIC)
    if filters.get("players"):
        games = games.filter(players=filters["players"])
    if filters.get("pace"):
        games = games.filter(time_control=filters["pace"])
    last_move = MoveRecord.objects.filter(game=OuterRef("pk")).order_by("-number")
    this_round = Round.objects.filter(game=OuterRef("pk")).order_by("-number")
    games = (
        games.defer("state")
        .annotate(
            last_activity=Coalesce(Subquery(last_move.values("created_at")[:1]), F("started_at")),
            round_number=Subquery(this_round.values("number")[:1]),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-last_activity", "-pk")
    )
    # A page number not understood gives the first page; one past the end, the last.
    listing = Paginator(games, IN_PLAY_PAGE_SIZE).get_page(page)
    return {"page": listing, "games": list(listing), "now": clock.now()}
