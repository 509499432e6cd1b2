"""Tables before play: create, join, leave, seat or unseat bots (our levels and people's bot
accounts), start; and turning a new account into a bot account."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User, bot_user
from common.refusals import quote, retry_message
from games import clock
from games.bots import STAND_IN
from games.engine import new_game, state_from_json, state_to_json
from games.live import announce_on_commit
from games.models import Game, Invitation, RematchOffer, Seat, offers_bot_level
from games.selectors import position_of, seat_of

from .errors import ActionError, RateLimited
from .notify import email_on_commit, notify_people_on_commit
from .records import first_round
from .turns import after_commit, sync_acting

BOT_LEVELS = tuple(User.BotLevel.values)
TIME_CONTROLS = {
    Game.TimeControl.LIVE: (60, 2 * 60, 5 * 60, 10 * 60),
    Game.TimeControl.CORRESPONDENCE: tuple(d * 24 * 3600 for d in (1, 2, 3, 7)),
}
MAX_TARGET = 1000
# Invitations one player may send in a day (counted in the database): to anyone, and to one
# person. An invitation is an email in someone else's inbox.
INVITATIONS_A_DAY = 30
INVITATIONS_A_DAY_TO_ONE = 3
DAY = timedelta(days=1)


def _person(user) -> User:
    if not user.is_authenticated:
        raise ActionError(_("Log in to play."), code="login")
    if user.is_bot:
        raise ActionError(_("Bots cannot do that."), code="bot")
    return user


def become_bot_account(user) -> User:
    """Turn a new account (one that has never sat at a table) into a bot account, for good:
    it then plays through the API only, its name shows the bot mark and it is rated with the
    bots. Any other account is refused and nothing changes."""
    _person(user)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.bot_account:
            raise ActionError(_("This account is a bot account already."), code="bot_account")
        if Seat.objects.filter(user=locked).exists():
            raise ActionError(
                _("Only a new account can become a bot account: this one has sat at a table."),
                code="played",
            )
        locked.bot_account = True
        locked.save(update_fields=["bot_account"])
    user.bot_account = True
    return locked


# The seats that keep a table alive and may start it: people's, not bots' (nor bot accounts').
PEOPLE = {"user__isnull": False, "user__bot_level": "", "user__bot_account": False}


def _lock_open_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ActionError(_("There is no such game."), code="no_game")
    if game.expired:
        raise ActionError(_("This table expired: its open seats were never filled."), "expired")
    if game.status != Game.Status.OPEN:
        raise ActionError(_("This game has already started."), code="started")
    return game


def _lock_own_open_game(user, game_id: int) -> Game:
    game = _lock_open_game(game_id)
    if game.created_by_id != user.pk:
        raise ActionError(_("Only the player who created the table can do that."), code="owner")
    return game


def _check_level(level: str, time_control: str | None = None) -> str:
    """A level there is, and, given the table's ``time_control``, one that the table offers."""
    if level not in BOT_LEVELS:
        raise ActionError(
            _("There is no bot level “%(level)s”.") % {"level": quote(level)}, code="level"
        )
    if time_control is not None and not offers_bot_level(time_control, level):
        raise ActionError(
            _(
                "The %(level)s bot plays only correspondence games: it thinks for seconds over "
                "each move."
            )
            % {"level": User.BotLevel(level).label},
            code="correspondence_only",
        )
    return level


def create_game(
    user,
    *,
    players: int,
    bots: Sequence[str | None] = (),
    target: int | None = None,
    time_control: str = Game.TimeControl.LIVE,
    move_seconds: int = 5 * 60,
    visibility: str = Game.Visibility.PUBLIC,
    now=None,
    tutorial_seed: int | None = None,
) -> Game:
    """A new table with ``user`` in seat 0 and ``bots[i]`` (a level, or None for an open seat)
    in seat ``i + 1``. A table with no open seat starts at once. ``tutorial_seed``: a tutorial
    (``games.tutorial``) on that fixed deal."""
    _person(user)
    if players not in (2, 3, 4, 5):
        raise ActionError(_("Nyet! is played by 2 to 5 players."), code="players")
    if target is not None and not 0 < target <= MAX_TARGET:
        raise ActionError(
            _("The point target must be between 1 and %(max)s.") % {"max": MAX_TARGET},
            code="target",
        )
    if time_control not in TIME_CONTROLS or move_seconds not in TIME_CONTROLS[time_control]:
        raise ActionError(_("Choose one of the offered times per move."), code="time_control")
    if visibility not in Game.Visibility.values:
        raise ActionError(_("Choose public or private."), code="visibility")
    bots = list(bots) + [None] * (players - 1 - len(bots))
    if len(bots) != players - 1:
        raise ActionError(_("There are more bots than seats."), code="bots")
    for level in bots:
        if level is not None:
            _check_level(level, time_control)
    with transaction.atomic():
        game = Game.objects.create(
            players=players,
            target=target,
            time_control=time_control,
            move_seconds=move_seconds,
            visibility=visibility,
            invite_code=secrets.token_urlsafe(12),
            created_by=user,
            seed=secrets.randbits(63) if tutorial_seed is None else tutorial_seed,
            tutorial=tutorial_seed is not None,
        )
        Seat.objects.bulk_create(
            [Seat(game=game, position=0, user=user)]
            + [
                Seat(game=game, position=p, user=None if lvl is None else bot_user(lvl))
                for p, lvl in enumerate(bots, start=1)
            ]
        )
        if None not in bots:
            _start(game, now, actor=user.pk)
    return game


# The lobby's one-click play: the time per move of each pace. Live as the new-game form's
# default; correspondence long enough that a weekend away does not lose the game.
PLAY_AGAINST_BOTS_SECONDS = {
    Game.TimeControl.LIVE: 5 * 60,
    Game.TimeControl.CORRESPONDENCE: 3 * 24 * 3600,
}


def play_against_bots(user, *, players: int, time_control: str, now=None) -> Game:
    """The lobby's one-click play: a public table with ``user`` in seat 0 and bots of the
    default level in the other seats, started at once. The same checks and refusals as any new
    table (``create_game``)."""
    if time_control not in PLAY_AGAINST_BOTS_SECONDS:
        raise ActionError(_("Choose live or correspondence."), code="time_control")
    return create_game(
        user,
        players=players,
        bots=[User.DEFAULT_BOT_LEVEL] * (players - 1) if players in (2, 3, 4, 5) else (),
        time_control=time_control,
        move_seconds=PLAY_AGAINST_BOTS_SECONDS[time_control],
        now=now,
    )


def join_game(user, game_id: int, invite_code: str = "", now=None) -> Game:
    """Take the first open seat. A private table needs its invite code. A full table starts."""
    _person(user)
    with transaction.atomic():
        game = _lock_open_game(game_id)
        if (
            game.visibility == Game.Visibility.PRIVATE
            and not game.invite_code_matches(invite_code)
            and not _pending(game, user).exists()
        ):
            raise ActionError(_("This table is private: join it with its invite link."), "private")
        _sit_invited(game, user, now)
    return game


def _pending(game: Game, invitee):
    """``invitee``'s invitations to ``game`` still waiting for an answer."""
    return game.invitations.filter(invitee=invitee, answer=Invitation.Answer.PENDING)


def _sit_invited(game: Game, user, now) -> None:
    """``user`` sits at the locked open table; their invitations to it are answered."""
    seats = list(game.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise ActionError(_("You already have a seat at this table."), code="seated")
    _sit(game, seats, user, now=now, actor=user.pk)
    _pending(game, user).update(answer=Invitation.Answer.ACCEPTED, answered_at=now or clock.now())


def leave_game(user, game_id: int) -> Game | None:
    """Give up a seat before the game starts. A table left with no person, and without its
    creator (a bot account may make a table through the API), is removed."""
    _person(user)
    with transaction.atomic():
        game = _lock_open_game(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise ActionError(_("You have no seat at this table."), code="not_seated")
        seat.user = None
        seat.save(update_fields=["user"])
        creator_stays = (
            game.created_by_id != user.pk and game.seats.filter(user_id=game.created_by_id).exists()
        )
        if not creator_stays and not game.seats.filter(**PEOPLE).exists():
            game.delete()
            return None
        if game.created_by_id == user.pk:
            # The table needs someone to start it: the next person at it.
            next_person = game.seats.filter(**PEOPLE).order_by("position").first()
            game.created_by_id = next_person.user_id
            game.save(update_fields=["created_by"])
        _bump(game)
    return game


def add_bot(user, game_id: int, level: str, now=None) -> Game:
    """Seat a bot in the first open seat (the table's creator only). A full table starts."""
    _person(user)
    _check_level(level)
    with transaction.atomic():
        game = _lock_own_open_game(user, game_id)
        _check_level(level, game.time_control)
        _sit(game, list(game.seats.all()), bot_user(level), now=now, actor=user.pk)
    return game


def seat_bot_account(user, game_id: int, username: str, now=None) -> Game:
    """Seat the bot account called ``username`` in the first open seat (the table's creator
    only), as a bot level is seated: a bot account refuses nothing. A full table starts."""
    _person(user)
    with transaction.atomic():
        game = _lock_own_open_game(user, game_id)
        bot = User.objects.filter(
            username__iexact=username.strip(), bot_account=True, is_active=True
        ).first()
        if bot is None:
            raise ActionError(
                _("There is no bot account called “%(name)s”.") % {"name": quote(username)},
                code="no_bot_account",
            )
        seats = list(game.seats.order_by("position"))
        if any(s.user_id == bot.pk for s in seats):
            raise ActionError(_("%(name)s is already at the table.") % {"name": bot.name}, "seated")
        _sit(game, seats, bot, now=now, actor=user.pk)
        _pending(game, bot).update(
            answer=Invitation.Answer.ACCEPTED, answered_at=now or clock.now()
        )
    return game


def remove_bot(user, game_id: int, position: int) -> Game:
    _person(user)
    with transaction.atomic():
        game = _lock_own_open_game(user, game_id)
        seat = game.seats.select_related("user").filter(position=position).first()
        if seat is None or seat.user is None or not seat.user.plays_as_bot:
            raise ActionError(_("There is no bot in that seat."), code="no_bot")
        seat.user = None
        seat.save(update_fields=["user"])
        _bump(game)
    return game


def start_game(user, game_id: int, fill_level: str = User.BotLevel.MEDIUM, now=None) -> Game:
    """Start now, with bots of ``fill_level`` in the open seats (the table's creator only)."""
    _person(user)
    _check_level(fill_level)
    with transaction.atomic():
        game = _lock_own_open_game(user, game_id)
        _check_level(fill_level, game.time_control)
        game.seats.filter(user__isnull=True).update(user=bot_user(fill_level))
        _bump(game, start=True, now=now, actor=user.pk)
    return game


def _sit(game: Game, seats: list[Seat], player: User, now=None, actor=None) -> None:
    """``player`` takes the first open seat of the locked table (its ``seats`` in order); the
    last open seat taken starts the game."""
    empty = [s for s in seats if s.user_id is None]
    if not empty:
        raise ActionError(_("This table is full."), code="full")
    empty[0].user = player
    empty[0].save(update_fields=["user"])
    _bump(game, start=len(empty) == 1, now=now, actor=actor)


def _bump(game: Game, start: bool = False, now=None, actor=None) -> None:
    if start:
        _start(game, now, actor)
        return
    game.version += 1
    game.save(update_fields=["version"])
    announce_on_commit(game)


def _start(game: Game, now=None, actor=None) -> None:
    """Deal round 1 (the game row is locked or new); tell the others the game is on."""
    now = now or clock.now()
    state = new_game(game.players, game.seed, game.target)
    game.state = state_to_json(state)
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.version += 1
    game.save(update_fields=["state", "status", "started_at", "version"])
    announce_on_commit(game)
    first_round(game, state).save()
    sync_acting(game, state, now)
    after_commit(game, state)
    notify_people_on_commit("game_started", game, key=str(game.pk), skip_user_id=actor)


def release_seats(user, now=None) -> None:
    """Before ``user``'s account is deleted: leave open tables, and hand seats in games in play
    to the stand-in bot so that nobody waits for a player who is gone. Finished games keep the
    seat; it shows a neutral name once the account is gone."""
    for game_id in Game.objects.filter(seats__user=user, status=Game.Status.OPEN).values_list(
        "pk", flat=True
    ):
        leave_game(user, game_id)
    stand_in = bot_user(STAND_IN)
    for game_id in Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            game.seats.filter(user=user).update(user=stand_in)
            game.version += 1
            game.save(update_fields=["version"])
            announce_on_commit(game)
            after_commit(game, state_from_json(game.state))


def invite_player(user, game_id: int, username: str, now=None) -> User:
    """Email a player the table's invite link (a person at the table asks). The invitee may
    then watch the game, private or not. At most ``INVITATIONS_A_DAY`` a day per inviter, and
    ``INVITATIONS_A_DAY_TO_ONE`` to the same person."""
    _person(user)
    now = now or clock.now()
    with transaction.atomic():
        game = _lock_open_game(game_id)
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
    game = _lock_open_game(found)
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
    _person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.invitee_id != user.pk:
            raise ActionError(_("This invitation is not yours to answer."), code="not_invitee")
        _sit_invited(game, user, now)
    return game


def decline_invitation(user, invitation_id: int, now=None) -> Invitation:
    """The invitee says no: every invitation of theirs to that table still pending is declined
    (the table is not theirs to sit at any more, unless they are asked again)."""
    _person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.invitee_id != user.pk:
            raise ActionError(_("This invitation is not yours to answer."), code="not_invitee")
        invitation.answer = Invitation.Answer.DECLINED
        invitation.answered_at = now or clock.now()
        _pending(game, user).update(answer=invitation.answer, answered_at=invitation.answered_at)
    return invitation


def cancel_invitation(user, invitation_id: int, now=None) -> Invitation:
    """The inviter takes an invitation back (and their others still pending to the same person
    at the same table): it no longer gives a seat."""
    _person(user)
    with transaction.atomic():
        invitation, game = _lock_pending_invitation(invitation_id)
        if invitation.inviter_id != user.pk:
            raise ActionError(
                _("Only the player who sent this invitation can cancel it."), code="not_inviter"
            )
        invitation.answer = Invitation.Answer.CANCELLED
        invitation.answered_at = now or clock.now()
        _pending(game, invitation.invitee_id).filter(inviter=user).update(
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


# --- rematch: an offer to the game's people, as on lichess ---------------------------------------

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
    return [s.user for s in seats if s.user is not None and not s.user.is_bot and s.user.is_active]


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
    _person(user)
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
    _person(user)
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
    _person(user)
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
        _start(game, now, actor=user.pk)
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
