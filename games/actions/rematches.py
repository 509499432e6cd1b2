"""Rematch: at the end of a finished game, an offer to the game's people, as on lichess. The new
game starts with the same seats once everyone has accepted; the offer may also be declined,
cancelled, or expire (``expire_rematch_offers``, called by the live tick and the sweep)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User, bot_user
from games import clock
from games.live import announce_on_commit
from games.models import Game, RematchOffer, Seat

from .errors import ActionError
from .lobby import require_person, start_play
from .notify import notify_people_on_commit

# How long an offer waits for its answers: a few minutes at a live table, where the players are
# on the page; a move's time at a correspondence one (a day or more).
LIVE_REMATCH_OFFER = timedelta(minutes=5)


def rematch_offer_lasts(game: Game) -> timedelta:
    if game.time_control == Game.TimeControl.LIVE:
        return LIVE_REMATCH_OFFER
    return timedelta(seconds=game.move_seconds)


def rematch_people(seats: list[Seat]) -> list[User]:
    """Whom a rematch of this table asks: every person at it (who resigned or ended on
    autopilot too: they may want another game) and every bot account (which answers through
    the API, as on lichess), not our bots, which keep their seats, nor a player whose account is
    gone."""
    return [
        s.user for s in seats if s.user is not None and not s.user.is_site_bot and s.user.is_active
    ]


def _lock_finished(user, game_id: int) -> tuple[Game, list[Seat]]:
    """The finished game (locked) and its seats with their players; ``user`` is one of its
    people, or a refusal."""
    old = Game.objects.select_for_update().filter(pk=game_id).first()
    if old is None:
        raise ActionError(_("There is no such game."), code="no_game")
    if old.status != Game.Status.FINISHED:
        raise ActionError(_("A rematch can follow only a finished game."), code="not_over")
    seats = list(old.seats.select_related("user").order_by("position"))
    if user.pk not in {p.pk for p in rematch_people(seats)}:
        raise ActionError(_("Only the game's players can ask for a rematch."), "not_seated")
    return old, seats


def _ended_message(offer: RematchOffer | None) -> str:
    """Why there is no open offer to answer, in the words of the page."""
    if offer is None:
        return _("Nobody has asked for a rematch of this game.")
    by = offer.ended_by.name if offer.ended_by else ""
    return {
        RematchOffer.Outcome.ACCEPTED: _("The rematch has started already."),
        RematchOffer.Outcome.DECLINED: _("%(name)s declined the rematch.") % {"name": by},
        RematchOffer.Outcome.CANCELLED: _("%(name)s cancelled the rematch offer.") % {"name": by},
        RematchOffer.Outcome.EXPIRED: _("The rematch offer expired before everyone accepted."),
    }.get(offer.outcome, _("This rematch offer has ended."))


def _open_offer(old: Game, offer_id: int | None) -> RematchOffer:
    """The game's open offer (locked), the one a page showed when it says which (``offer_id``);
    else a refusal that says what became of it."""
    offer = old.rematch_offers.select_for_update(of=("self",)).select_related("ended_by").first()
    if offer is None or offer.outcome != RematchOffer.Outcome.OPEN:
        raise ActionError(_ended_message(offer), code="no_offer")
    if offer_id is not None and offer.pk != offer_id:
        raise ActionError(
            _("That rematch offer has ended; here is the one open now."), code="stale_offer"
        )
    return offer


def rematch(user, game_id: int, now=None) -> RematchOffer:
    """Ask for a rematch of a finished game: every other person at it is asked (the page shows
    them the offer), and the new game starts once all have accepted. Asking while an offer is
    open accepts it (both asked at once); asking once the rematch has started gives its offer,
    whose ``new_game`` the player goes to. With nobody else to ask (bots only) the new game
    starts at once."""
    require_person(user)
    now = now or clock.now()
    with transaction.atomic():
        old, seats = _lock_finished(user, game_id)
        offer = old.rematch_offers.select_for_update().first()
        if offer is not None and offer.outcome == RematchOffer.Outcome.ACCEPTED:
            return offer
        if offer is None or offer.outcome != RematchOffer.Outcome.OPEN:
            offer = RematchOffer(
                game=old, asked_by=user, asked_at=now, expires_at=now + rematch_offer_lasts(old)
            )
        elif user.pk in offer.accepted:
            return offer  # asked twice (a second tab, a double click): nothing changes
        asked = offer.pk is None
        _say_yes(old, seats, offer, user, now)
        if asked and offer.outcome == RematchOffer.Outcome.OPEN:
            # Those away from the page hear of it by email (their choice for invitations).
            key = f"rematch:{offer.pk}"
            notify_people_on_commit("rematch_offered", old, key=key, skip_user_id=user.pk)
    return offer


def accept_rematch(user, game_id: int, offer_id: int | None = None, now=None) -> RematchOffer:
    """Accept the open rematch offer (``offer_id``: the one the page showed); the last person
    to accept starts the new game."""
    require_person(user)
    now = now or clock.now()
    with transaction.atomic():
        old, seats = _lock_finished(user, game_id)
        offer = _open_offer(old, offer_id)
        if user.pk not in offer.accepted:
            _say_yes(old, seats, offer, user, now)
    return offer


def decline_rematch(user, game_id: int, offer_id: int | None = None, now=None) -> RematchOffer:
    """End the open rematch offer: declined, or cancelled by someone who had accepted it (the
    one who asked, most often). Every page of the game says who."""
    require_person(user)
    now = now or clock.now()
    with transaction.atomic():
        old, _seats = _lock_finished(user, game_id)
        offer = _open_offer(old, offer_id)
        said_yes = user.pk in offer.accepted
        offer.outcome = (
            RematchOffer.Outcome.CANCELLED if said_yes else RematchOffer.Outcome.DECLINED
        )
        offer.ended_by = user
        offer.ended_at = now
        offer.save(update_fields=["outcome", "ended_by", "ended_at"])
        _bump_finished(old)
    return offer


def expire_rematch_offers(now=None) -> int:
    """The open offers past their time, ended as expired (the live tick and the sweep call it:
    ``actions.deadlines``); how many. Each under its game's lock, as every change of an offer:
    one answered meanwhile is left as it is, and running it twice ends nothing twice."""
    now = now or clock.now()
    due = RematchOffer.objects.filter(outcome=RematchOffer.Outcome.OPEN, expires_at__lte=now)
    expired = 0
    for offer_id, game_id in list(due.values_list("pk", "game_id")):
        with transaction.atomic():
            old = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
            if old is None:
                continue  # being answered now: the next pass looks again
            ended = RematchOffer.objects.filter(
                pk=offer_id, outcome=RematchOffer.Outcome.OPEN, expires_at__lte=now
            ).update(outcome=RematchOffer.Outcome.EXPIRED, ended_at=now)
            if ended:
                _bump_finished(old)
                expired += 1
    return expired


def _say_yes(old: Game, seats: list[Seat], offer: RematchOffer, user, now) -> None:
    """``user`` accepts ``offer`` (new or open); once nobody is left to answer, the rematch
    starts: the same options, every seat's player in the same seat (a bot of the same level,
    the same bot account; a player whose account is gone, a bot of the default level)."""
    offer.accepted = [*offer.accepted, user.pk]
    if all(p.pk in offer.accepted for p in rematch_people(seats)):
        game = Game.objects.create(
            players=old.players,
            target=old.target,
            time_control=old.time_control,
            move_seconds=old.move_seconds,
            visibility=old.visibility,
            invite_code=secrets.token_urlsafe(12),
            created_by=offer.asked_by or user,
            seed=secrets.randbits(63),
            rematch_of=old,
        )
        people = {p.pk for p in rematch_people(seats)}
        fill = bot_user(User.DEFAULT_BOT_LEVEL)
        Seat.objects.bulk_create(
            [
                Seat(
                    game=game,
                    position=s.position,
                    user=s.user
                    if s.user is not None and (s.user.pk in people or s.user.plays_as_bot)
                    else fill,
                )
                for s in seats
            ]
        )
        start_play(game, now, actor=user.pk)
        offer.outcome = RematchOffer.Outcome.ACCEPTED
        offer.new_game = game
        offer.ended_at = now
    offer.save()
    _bump_finished(old)


def _bump_finished(old: Game) -> None:
    """The finished game's pages hear of its rematch offer (``live``): a new version."""
    old.version += 1
    old.save(update_fields=["version"])
    announce_on_commit(old)
