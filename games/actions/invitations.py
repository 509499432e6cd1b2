"""Invitations to a table: a player at an open table asks someone by name (an email with the
invite link); the invitee accepts (sits) or declines, the inviter may cancel. How many one
player may send in a day is counted here, in the database."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from common.refusals import quote, retry_message
from games import clock
from games.models import Game, Invitation
from games.selectors import position_of

from .errors import ActionError, RateLimited
from .lobby import lock_open_game, pending_invitations, require_person, sit_invited
from .notify import email_on_commit

# Invitations one player may send in a day (counted in the database): to anyone, and to one
# person. An invitation is an email in someone else's inbox.
INVITATIONS_A_DAY = 30
INVITATIONS_A_DAY_TO_ONE = 3
DAY = timedelta(days=1)


def invite_player(user, game_id: int, username: str, now=None) -> User:
    """Email a player the table's invite link (a person at the table asks). The invitee may
    then watch the game, private or not. At most ``INVITATIONS_A_DAY`` a day per inviter, and
    ``INVITATIONS_A_DAY_TO_ONE`` to the same person."""
    require_person(user)
    now = now or clock.now()
    with transaction.atomic():
        game = lock_open_game(game_id)
        if position_of(game, user) is None:
            raise ActionError(_("Only players at the table can invite."), code="not_seated")
        invitee = User.objects.filter(username__iexact=username.strip(), bot_level="").first()
        if invitee is None or not invitee.is_active:
            raise ActionError(
                _("There is no player called “%(name)s”.") % {"name": quote(username)}, "no_user"
            )
        if position_of(game, invitee) is not None:
            raise ActionError(
                _("%(name)s is already at the table.") % {"name": invitee.name}, "seated"
            )
        _check_invitations_today(user, invitee, now)
        Invitation.objects.create(game=game, invitee=invitee, inviter=user, created_at=now)
        email_on_commit("invitation", [game.pk, invitee.pk, user.name])
    return invitee


def _lock_pending_invitation(invitation_id: int) -> tuple[Invitation, Game]:
    """The pending invitation to an open table, and its table (locked: an answer and the table's
    changes come one at a time); else a refusal that says why."""
    found = Invitation.objects.filter(pk=invitation_id).values_list("game_id", flat=True).first()
    if found is None:
        raise ActionError(_("There is no such invitation."), code="no_invitation")
    game = lock_open_game(found)
    invitation = (
        Invitation.objects.select_related("invitee", "inviter").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.answer != Invitation.Answer.PENDING:
        answer = invitation.answer if invitation else None
        raise ActionError(
            {
                Invitation.Answer.ACCEPTED: _("This invitation was accepted already."),
                Invitation.Answer.DECLINED: _("This invitation was declined."),
                Invitation.Answer.CANCELLED: _("This invitation was cancelled."),
            }.get(answer, _("There is no such invitation.")),
            code="answered",
        )
    return invitation, game


def accept_invitation(user, invitation_id: int, now=None) -> Game:
    """The invitee takes the first open seat of the table they were invited to (private or
    not: the invitation is the right to sit). A bot account may accept. A full table starts."""
    require_person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.invitee_id != user.pk:
            raise ActionError(_("This invitation is not yours to answer."), code="not_invitee")
        sit_invited(game, user, now)
    return game


def decline_invitation(user, invitation_id: int, now=None) -> Invitation:
    """The invitee says no: every invitation of theirs to that table still pending is declined
    (the table is not theirs to sit at any more, unless they are asked again)."""
    require_person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.invitee_id != user.pk:
            raise ActionError(_("This invitation is not yours to answer."), code="not_invitee")
        invitation.answer = Invitation.Answer.DECLINED
        invitation.answered_at = now or clock.now()
        pending_invitations(game, user).update(
            answer=invitation.answer, answered_at=invitation.answered_at
        )
    return invitation


def cancel_invitation(user, invitation_id: int, now=None) -> Invitation:
    """The inviter takes an invitation back (and their others still pending to the same person
    at the same table): it no longer gives a seat."""
    require_person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.inviter_id != user.pk:
            raise ActionError(
                _("Only the player who sent this invitation can cancel it."), code="not_inviter"
            )
        invitation.answer = Invitation.Answer.CANCELLED
        invitation.answered_at = now or clock.now()
        pending_invitations(game, invitation.invitee_id).filter(inviter=user).update(
            answer=invitation.answer, answered_at=invitation.answered_at
        )
    return invitation


def _check_invitations_today(user, invitee: User, now) -> None:
    """``RateLimited`` when ``user`` has sent a day's worth of invitations (to ``invitee``, or to
    anyone), with the time until the oldest of them is a day old."""
    today = list(
        Invitation.objects.filter(inviter=user, created_at__gt=now - DAY)
        .order_by("created_at")
        .values_list("invitee_id", "created_at")
    )
    to_them = [at for invitee_id, at in today if invitee_id == invitee.pk]
    if len(to_them) >= INVITATIONS_A_DAY_TO_ONE:
        _too_many(
            _("You have invited %(name)s often today.") % {"name": invitee.name},
            to_them[-INVITATIONS_A_DAY_TO_ONE],
            now,
        )
    if len(today) >= INVITATIONS_A_DAY:
        _too_many(_("You have sent many invitations today."), today[-INVITATIONS_A_DAY][1], now)


def _too_many(message: str, oldest, now) -> None:
    wait = max(1, int((oldest + DAY - now).total_seconds()))
    raise RateLimited(f"{message} {retry_message(wait)}", retry_after=wait)
