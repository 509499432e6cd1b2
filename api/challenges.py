"""The challenge flow of ``/api/v1/``, as lichess's Board API has it: invite a player by
username, list my invitations (to me and from me), accept, decline or cancel one; resign or
abort a game; offer a rematch of a finished game, accept or decline it. A bot account (a ``bot``
token) may accept invitations and rematches like a person.

Every change goes through ``games.actions`` as the pages' do, with the same refusals
(``access.Refusal``, ``{"code", "message"}``), scopes (``access.need``) and limits
(``access.counted``). The routes are mounted on ``v1.api`` by ``api.urls``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status

from accounts.models import User
from games import actions, lookups
from games.models import Invitation, RematchOffer

from . import access, presenters
from .models import Scope
from .schemas.games import Error, GameOut, TableOut

router = Router(tags=["challenges"])

MAX_LISTED = 50  # the newest invitations each way that the list shows


# --- schemas ------------------------------------------------------------------------------------


class InviteIn(Schema):
    username: str


class InvitationOut(Schema):
    id: int
    game: TableOut
    from_: str | None = Field(alias="from")  # the inviter's username (None: account gone)
    to: str  # the invitee's username
    created_at: datetime
    answer: str  # "pending", "accepted", "declined" or "cancelled"


class InvitationsOut(Schema):
    incoming: list[InvitationOut]  # to me
    outgoing: list[InvitationOut]  # from me


class RematchOut(Schema):
    id: int
    game: int  # the finished game
    outcome: str  # "open", "accepted", "declined", "cancelled" or "expired"
    asked_by: str | None  # usernames
    accepted: list[str]
    waiting: list[str]  # who has not answered yet, while it is open
    expires_at: datetime
    new_game: int | None  # the rematch, once everyone accepted


# --- reading ------------------------------------------------------------------------------------


def invitation_json(invitation: Invitation, user: User) -> dict[str, Any]:
    return {
        "id": invitation.pk,
        "game": presenters.table_json(invitation.game, user),
        "from": invitation.inviter.username if invitation.inviter else None,
        "to": invitation.invitee.username,
        "created_at": invitation.created_at,
        "answer": invitation.answer,
    }


def pending_invitations(user: User) -> QuerySet[Invitation]:
    """``user``'s invitations still waiting for an answer, to tables still open."""
    return lookups.pending_invitations(user)


def my_invitation(request: HttpRequest, invitation_id: int) -> Invitation:
    """An invitation to me or from me; any other is answered as one that does not exist."""
    found = lookups.invitation_of(request.user, invitation_id)
    if found is None:
        raise access.Refusal(404, "no_invitation", _("There is no such invitation."))
    return found


def rematch_json(offer: RematchOffer) -> dict[str, Any]:
    seats = lookups.players_at(offer.game_id)
    people = actions.rematches.rematch_people(seats)
    names = {p.pk: p.username for p in people}
    accepted = set(offer.accepted)
    return {
        "id": offer.pk,
        "game": offer.game_id,
        "outcome": offer.outcome,
        "asked_by": offer.asked_by.username if offer.asked_by else None,
        "accepted": [names[pk] for pk in offer.accepted if pk in names],
        "waiting": [p.username for p in people if p.pk not in accepted]
        if offer.outcome == RematchOffer.Outcome.OPEN
        else [],
        "expires_at": offer.expires_at,
        "new_game": offer.new_game_id,
    }


@router.get(
    "/invitations",
    response={200: InvitationsOut, 401: Error, 403: Error, 429: Error},
    by_alias=True,
)
def invitations(request: HttpRequest) -> dict[str, list[dict[str, Any]]]:
    """My invitations waiting for an answer, to tables still open: ``incoming`` (to me) and
    ``outgoing`` (from me), newest first, each with its table."""
    access.need(request, Scope.READ)
    incoming: list[dict[str, Any]] = []
    outgoing: list[dict[str, Any]] = []
    for invitation in pending_invitations(request.user)[: 2 * MAX_LISTED]:
        mine = invitation.invitee_id == request.user.pk
        listed = incoming if mine else outgoing
        if len(listed) < MAX_LISTED:
            listed.append(invitation_json(invitation, request.user))
    return {"incoming": incoming, "outgoing": outgoing}


@router.get(
    "/games/{game_id}/rematch",
    response={200: RematchOut, 401: Error, 403: Error, 404: Error, 429: Error},
)
def rematch_offer(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """The finished game's latest rematch offer: who asked, who accepted, whom it waits for,
    how it ended and the new game (404 ``no_offer`` when nobody asked)."""
    access.need(request, Scope.READ)
    game = access.visible_game(request, game_id)
    offer = game.rematch_offers.select_related("asked_by").first()
    if offer is None:
        raise access.Refusal(404, "no_offer", _("Nobody has asked for a rematch of this game."))
    return rematch_json(offer)


# --- changing -----------------------------------------------------------------------------------

CHANGE = {200: TableOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error}
ANSWER = {200: InvitationOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error}
GAME_CHANGE = {200: GameOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error}
REMATCH_CHANGE = {200: RematchOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error}


def _playing(request: HttpRequest, group: str = "play") -> None:
    access.need(request, Scope.PLAY)
    access.counted(request, group)


@router.post(
    "/games/{game_id}/invite",
    response={201: InvitationOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error},
    by_alias=True,
)
def invite(request: HttpRequest, game_id: int, body: InviteIn) -> Status[dict[str, Any]]:
    """Invite a player (a person or a bot account) by username to my open table: they are
    told on their account stream and by email, and may then sit even at a private table."""
    _playing(request, "invite")
    access.visible_game(request, game_id)
    invitee = actions.invite_player(request.user, game_id, body.username)
    sent = lookups.latest_invitation(game_id, invitee, request.user)
    return Status(201, invitation_json(sent, request.user))


@router.post("/invitations/{invitation_id}/accept", response=CHANGE)
def accept(request: HttpRequest, invitation_id: int) -> presenters.TableJson:
    """Take a seat at the table I am invited to (the invitation is the right to sit, at a
    private table too). A full table starts."""
    _playing(request)
    invitation = my_invitation(request, invitation_id)
    game = actions.accept_invitation(request.user, invitation.pk)
    return presenters.table_json(game, request.user)


@router.post("/invitations/{invitation_id}/decline", response=ANSWER, by_alias=True)
def decline(request: HttpRequest, invitation_id: int) -> dict[str, Any]:
    """Say no to an invitation to me."""
    _playing(request)
    invitation = my_invitation(request, invitation_id)
    actions.decline_invitation(request.user, invitation.pk)
    invitation.refresh_from_db()
    return invitation_json(invitation, request.user)


@router.post("/invitations/{invitation_id}/cancel", response=ANSWER, by_alias=True)
def cancel(request: HttpRequest, invitation_id: int) -> dict[str, Any]:
    """Take back an invitation I sent."""
    _playing(request)
    invitation = my_invitation(request, invitation_id)
    actions.cancel_invitation(request.user, invitation.pk)
    invitation.refresh_from_db()
    return invitation_json(invitation, request.user)


def _game_change(
    request: HttpRequest, game_id: int, action: Callable[[User, int], object]
) -> presenters.GameJson:
    _playing(request)
    access.visible_game(request, game_id)
    action(request.user, game_id)
    game = lookups.game(game_id)
    if game is None:  # removed by the change (its last person left): as for any missing game
        raise access.no_such_game()
    return presenters.game_json(game, request.user)


@router.post("/games/{game_id}/resign", response=GAME_CHANGE)
def resign(request: HttpRequest, game_id: int) -> presenters.GameJson:
    """Give up my seat for good: the stand-in bot plays it to the end, and it ranks last."""
    return _game_change(request, game_id, actions.resign)


@router.post("/games/{game_id}/abort", response=GAME_CHANGE)
def abort(request: HttpRequest, game_id: int) -> presenters.GameJson:
    """End the game before its first card: unrated, nobody wins."""
    return _game_change(request, game_id, actions.abort_game)


@router.post("/games/{game_id}/rematch", response=REMATCH_CHANGE)
def rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Offer a rematch of a finished game, or accept the open offer (as lichess: asking while
    an offer is open is accepting it). The new game starts once every person and bot account of
    the game has accepted; then ``new_game`` names it."""
    _playing(request)
    access.visible_game(request, game_id)
    offer = actions.rematch(request.user, game_id)
    return rematch_json(offer)


@router.post("/games/{game_id}/rematch/decline", response=REMATCH_CHANGE)
def decline_rematch(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Decline the open rematch offer, or cancel it if I had accepted it."""
    _playing(request)
    access.visible_game(request, game_id)
    offer = actions.decline_rematch(request.user, game_id)
    return rematch_json(offer)
