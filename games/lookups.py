"""Games and their invitations looked up by id, for the API, the streams and the pages' guards:
the game a caller may see, its seats in order, a player's tables, a game's moves, a player's
invitations. Each is one query (none for seats already read); what a page draws is
``games.selectors``'."""

from __future__ import annotations

from django.db.models import Max, Prefetch, Q, QuerySet, prefetch_related_objects

from games.models import ChatMessage, Game, Invitation, MoveRecord, RematchOffer, Seat
from games.selectors import can_view, with_seats

SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))


# What ``selectors.can_view`` reads of a game, and what a poll compares: a guard that goes no
# further reads only these.
GUARD_FIELDS = ("version", "visibility", "status", "invite_code")


def game(game_id: int, *fields: str) -> Game | None:
    """The game (only ``fields``, if given), or None when there is none (never made, or removed
    since)."""
    games = Game.objects.filter(pk=game_id)
    return (games.only(*fields) if fields else games).first()


def visible_game(game_id: int, user, invite_code: str = "", *fields: str) -> Game | None:
    """The game (only ``fields``, if given) if ``user`` may see it (``selectors.can_view``),
    else None: a missing game and another's private one are answered alike, so that ids reveal
    nothing."""
    found = game(game_id, *fields)
    return found if found is not None and can_view(found, user, invite_code) else None


INVITE_CODE_LENGTH = 32  # at most: a longer code is no table's, and is not looked up


def game_by_invite(code: str) -> Game | None:
    """The game whose invite link carries ``code``, or None."""
    if len(code) > INVITE_CODE_LENGTH:
        return None
    return Game.objects.filter(invite_code=code).first()


def seats_in_order(game: Game) -> list[Seat]:
    """The game's seats in order, with their players: read once (one query), none when the
    game came with them (``selectors.with_seats``)."""
    prefetch_related_objects([game], SEATS)
    return list(game.seats.all())


PLAYING_LIMIT = 100  # the newest of a player's tables an answer lists


def tables_of(user) -> list[Game]:
    """``user``'s tables waiting for players and games in play, newest first, with their seats
    (two queries), without their state."""
    return list(
        with_seats(
            Game.objects.filter(
                seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
            ).defer("state")
        ).order_by("-pk")[:PLAYING_LIMIT]
    )


def moves_of(game: Game) -> list[dict]:
    """Every move of the game, in the order made (one query)."""
    return list(
        MoveRecord.objects.filter(game=game).order_by("number").values_list("move", flat=True)
    )


def status_of(game_id: int) -> str | None:
    """The game's status, or None when there is no such game (one query)."""
    return Game.objects.filter(pk=game_id).values_list("status", flat=True).first()


def version_of(game_id: int) -> int:
    """The game's version, 0 when there is no such game (one query)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first() or 0


def last_chat_message(game_id: int) -> int:
    """The id of the game's newest chat message, hidden or not; 0 for none (one query)."""
    return ChatMessage.objects.filter(game_id=game_id).aggregate(last=Max("pk"))["last"] or 0


def people_seated(game_id: int) -> dict[int, int]:
    """The game's people, user id -> position: neither our bots nor bot accounts (one query)."""
    return dict(
        Seat.objects.filter(
            game_id=game_id, user__isnull=False, user__bot_level="", user__bot_account=False
        ).values_list("user_id", "position")
    )


def has_played(user) -> bool:
    """Whether ``user`` has ever sat at a table (one query)."""
    return Seat.objects.filter(user=user).exists()


def players_at(game_id: int) -> list[Seat]:
    """The game's seats with their players (one query)."""
    return list(Seat.objects.filter(game_id=game_id).select_related("user"))


# Each listed table's seats with their players, in order: read once for the whole list.
INVITED_SEATS = Prefetch(
    "game__seats", queryset=Seat.objects.select_related("user").order_by("position")
)


def _invitations() -> QuerySet[Invitation]:
    return Invitation.objects.select_related("game", "invitee", "inviter")


def pending_invitations(user) -> QuerySet[Invitation]:
    """``user``'s invitations still waiting for an answer, to tables still open, each way, the
    newest first, with their tables' seats (two queries)."""
    return (
        _invitations()
        .filter(answer=Invitation.Answer.PENDING, game__status=Game.Status.OPEN)
        .filter(Q(invitee=user) | Q(inviter=user))
        .prefetch_related(INVITED_SEATS)
        .order_by("-pk")
    )


def invitation_of(user, invitation_id: int) -> Invitation | None:
    """An invitation to ``user`` or from them, or None (any other is none of theirs)."""
    return _invitations().filter(pk=invitation_id).filter(Q(invitee=user) | Q(inviter=user)).first()


def latest_invitation(game_id: int, invitee, inviter) -> Invitation:
    """The newest invitation ``inviter`` sent ``invitee`` to the game (one just made)."""
    return _invitations().filter(game_id=game_id, invitee=invitee, inviter=inviter).latest("pk")


# --- an account's stream: what it reads each time, to tell its news -----------------------------


def seated_games(user_id: int, also: set[int]) -> list[tuple]:
    """(game id, status, version, acting since) of each of the user's seats at a table waiting
    or in play, and at the games ``also`` (one query)."""
    return list(
        Seat.objects.filter(user_id=user_id)
        .filter(Q(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]) | Q(game_id__in=also))
        .values_list("game_id", "game__status", "game__version", "acting_since")
    )


def open_invitations(user_id: int) -> list[tuple]:
    """(id, game id, inviter's username, invitee's username) of each pending invitation to an
    open table, from the user or to them while they are not seated there (one query)."""
    return list(
        Invitation.objects.filter(answer=Invitation.Answer.PENDING, game__status=Game.Status.OPEN)
        .filter(Q(inviter_id=user_id) | (Q(invitee_id=user_id) & ~Q(game__seats__user_id=user_id)))
        .order_by("pk")
        .values_list("pk", "game_id", "inviter__username", "invitee__username")
    )


def rematch_offers(user_id: int, also: set[int]) -> list[tuple]:
    """(id, game id, outcome, asker's username, new game id, who accepted) of each open
    rematch offer of a game the user sat at, and of the offers ``also`` (one query)."""
    return list(
        RematchOffer.objects.filter(
            Q(
                outcome=RematchOffer.Outcome.OPEN,
                game_id__in=Seat.objects.filter(user_id=user_id).values("game_id"),
            )
            | Q(pk__in=also)
        ).values_list("pk", "game_id", "outcome", "asked_by__username", "new_game_id", "accepted")
    )
