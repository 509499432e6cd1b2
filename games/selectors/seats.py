"""Who sits where, and who may see a game: the seats as the pages show them (``SeatInfo``), the
one rule of who may see a game (``visible_games``, ``can_view``), the one look-up of a user's
seat (``seat_of``, ``position_of``), and the one query that reads a table's seats for a page
(``table_seats``, ``visible_table``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.models import Shown, User
from games.models import Game, Invitation, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

# Whoever asks for a page: a user, or an anonymous visitor.
Viewer: TypeAlias = "User | AnonymousUser"


@dataclass
class SeatInfo:
    """A seat and its player as the pages show them (``seat_infos``)."""

    position: int
    name: str
    is_bot: bool
    is_me: bool
    character: str
    score: int
    user_id: int | None
    username: str | None = None  # for the link to the profile; None for a former player
    deadline: datetime | None = None
    paused: bool = False
    autopilot: bool = False
    resigned: bool = False
    rating: Shown | None = None  # None before the player's first rated game
    bot_account: bool = False  # a person's program: asked for a rematch, as a person is


def seat_infos(seats: list[Seat], me: Viewer) -> list[SeatInfo]:
    """Each of ``seats`` as the pages show it, the viewer ``me``'s marked (``is_me``)."""
    infos: list[SeatInfo] = []
    for seat in seats:
        user = seat.user
        linked = user is not None and (user.is_active or user.is_site_bot)
        infos.append(
            SeatInfo(
                position=seat.position,
                name=str(seat.name),
                is_bot=bool(user and user.plays_as_bot),  # the mark: our bots and bot accounts
                is_me=bool(user and me.is_authenticated and user.pk == me.pk),
                character=str(seat.character),
                score=seat.score,
                user_id=seat.user_id,
                username=user.username if linked else None,
                deadline=seat.deadline,
                paused=seat.paused_seconds is not None and seat.acting_since is not None,
                autopilot=seat.autopilot,
                resigned=seat.resigned_at is not None,
                rating=rating.shown if (rating := getattr(user, "rating", None)) else None,
                bot_account=bool(user and user.bot_account),
            )
        )
    return infos


# --- who may see a game ---------------------------------------------------------------------
# The one rule, for every page, fragment, answer, stream and list that shows a game: a public
# game is anyone's to watch; a private one (open, in play or finished) is seen only by its seated
# players, its invited players and staff. Everyone else is answered as if the game did not exist
# (404), so that ids reveal nothing.


def visible_games(user: Viewer) -> QuerySet[Game]:
    """The games ``user`` (anonymous or not) may see."""
    games = Game.objects.all()
    if not user.is_authenticated:
        return games.filter(visibility=Game.Visibility.PUBLIC)
    if user.is_staff:
        return games
    return games.filter(
        Q(visibility=Game.Visibility.PUBLIC)
        | Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
        | Exists(
            Invitation.objects.filter(game=OuterRef("pk"), invitee=user).exclude(
                answer=Invitation.Answer.CANCELLED  # taken back: as if never sent
            )
        )
    )


def can_view(game: Game, user: Viewer, invite_code: str = "") -> bool:
    """Whether ``user`` may see ``game`` (``visible_games``' rule, at no cost for a public game).

    An open private table is also shown to whoever holds its invite code (the invite link is the
    capability to join it); once the game has started the code shows nothing more."""
    if game.visibility == Game.Visibility.PUBLIC:
        return True
    if invite_code and game.status == Game.Status.OPEN and game.invite_code_matches(invite_code):
        return True
    return visible_games(user).filter(pk=game.pk).exists()


# --- whose seat -----------------------------------------------------------------------------
# The one look-up of a user's seat at a game, for pages, the API, the streams and the actions.
# A game whose seats were read already (``with_seats``, ``table_seats``' prefetch) answers from
# them; otherwise one query. An anonymous visitor holds no seat and costs nothing.


def _read_seats(game: Game | int) -> list[Seat] | None:
    """The game's seats if they came with it (a prefetch), else None: nothing is read here."""
    if isinstance(game, Game) and "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return list(game.seats.all())
    return None


def seat_of(game: Game | int, user: Viewer) -> Seat | None:
    """The seat ``user`` holds at ``game`` (a game or its id), or None."""
    if not user.is_authenticated:
        return None
    seats = _read_seats(game)
    if seats is not None:
        return next((s for s in seats if s.user_id == user.pk), None)
    return Seat.objects.filter(game_id=getattr(game, "pk", game), user=user).first()


def position_of(game: Game | int, user: Viewer) -> int | None:
    """The position ``user`` holds at ``game`` (a game or its id), or None: ``seat_of``'s
    answer, reading the position column only."""
    if not user.is_authenticated:
        return None
    seats = _read_seats(game)
    if seats is not None:
        return next((s.position for s in seats if s.user_id == user.pk), None)
    return (
        Seat.objects.filter(game_id=getattr(game, "pk", game), user=user)
        .values_list("position", flat=True)
        .first()
    )


def visible_table(
    game_id: int, user: Viewer, invite_code: str = ""
) -> tuple[Game, list[Seat]] | None:
    """The game with its seats and their players, or None when there is no such game for
    ``user`` (``can_view``). One query: a game has all its seats from the moment it is made, so
    the game comes joined to them, and a seated player needs no second look to be let in."""
    seats = list(table_seats(game_id))
    if not seats:
        return None
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one game for all (``Seat.name`` reads it), not one per row
    seated = user.is_authenticated and any(seat.user_id == user.pk for seat in seats)
    if not seated and not can_view(game, user, invite_code):
        return None
    return game, seats


# What a page reads of a seat and its player (``seat_infos``, ``Seat.name``, ``User.name``):
# the other columns of the user (password, email, preferences...) are not fetched.
SEAT_FIELDS = (
    "game",
    "position",
    "score",
    "user_id",
    "deadline",
    "paused_seconds",
    "acting_since",
    "autopilot",
    "resigned_at",
    "user__username",
    "user__display_name",
    "user__bot_level",
    "user__bot_account",
    "user__is_active",
    "user__rating__mu",
    "user__rating__sigma",
)


def table_seats(game_id: int) -> QuerySet[Seat]:
    """A game's seats with their players and the game, as the pages read them (one query)."""
    return (
        Seat.objects.filter(game_id=game_id)
        .select_related("game", "user", "user__rating")
        .only(*SEAT_FIELDS)
    )


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with their seats in order, each with its player: two queries for any number
    of games (``game.seats.all()`` then reads no more)."""
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    )
