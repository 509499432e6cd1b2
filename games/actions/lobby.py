"""Tables before play: create, join, leave, seat or unseat bots (our levels and people's bot
accounts), start; turning a new account into a bot account; and, before an account is deleted,
giving up its seats (``release_seats``). Invitations to a table are in ``invitations``, the
rematch that follows a finished game in ``rematches``; both use the helpers here (who may act,
taking a seat, starting a game)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User, bot_user
from common.refusals import quote
from games import clock
from games.bots import STAND_IN
from games.engine import new_game, state_from_json, state_to_json
from games.live import announce_on_commit
from games.models import Game, Invitation, Seat, offers_bot_level
from games.selectors import seat_of

from .errors import ActionError
from .notify import notify_people_on_commit
from .records import first_round
from .turns import after_commit, game_seats, sync_acting

TIME_CONTROLS = {
    Game.TimeControl.LIVE: (60, 2 * 60, 5 * 60, 10 * 60),
    Game.TimeControl.CORRESPONDENCE: tuple(d * 24 * 3600 for d in (1, 2, 3, 7)),
}
MAX_TARGET = 1000


def require_person(user) -> User:
    if not user.is_authenticated:
        raise ActionError(_("Log in to play."), code="login")
    if user.is_site_bot:
        raise ActionError(_("Bots cannot do that."), code="bot")
    return user


def become_bot_account(user) -> User:
    """Turn a new account (one that has never sat at a table) into a bot account, for good:
    it then plays through the API only, its name shows the bot mark and it is rated with the
    bots. Any other account is refused and nothing changes."""
    require_person(user)
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


def lock_open_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ActionError(_("There is no such game."), code="no_game")
    if game.expired:
        raise ActionError(_("This table expired: its open seats were never filled."), "expired")
    if game.status != Game.Status.OPEN:
        raise ActionError(_("This game has already started."), code="started")
    return game


def _lock_own_open_game(user, game_id: int) -> Game:
    game = lock_open_game(game_id)
    if game.created_by_id != user.pk:
        raise ActionError(_("Only the player who created the table can do that."), code="owner")
    return game


def _check_level(level: str, time_control: str | None = None) -> str:
    """A level there is, and, given the table's ``time_control``, one that the table offers."""
    if level not in User.BotLevel.values:
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
    require_person(user)
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
            start_play(game, now, actor=user.pk)
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
    require_person(user)
    with transaction.atomic():
        game = lock_open_game(game_id)
        if (
            game.visibility == Game.Visibility.PRIVATE
            and not game.invite_code_matches(invite_code)
            and not pending_invitations(game, user).exists()
        ):
            raise ActionError(_("This table is private: join it with its invite link."), "private")
        sit_invited(game, user, now)
    return game


def pending_invitations(game: Game, invitee):
    """``invitee``'s invitations to ``game`` still waiting for an answer."""
    return game.invitations.filter(invitee=invitee, answer=Invitation.Answer.PENDING)


def sit_invited(game: Game, user, now) -> None:
    """``user`` sits at the locked open table; their invitations to it are answered."""
    seats = list(game.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise ActionError(_("You already have a seat at this table."), code="seated")
    _sit(game, seats, user, now=now, actor=user.pk)
    pending_invitations(game, user).update(
        answer=Invitation.Answer.ACCEPTED, answered_at=now or clock.now()
    )


def leave_game(user, game_id: int) -> Game | None:
    """Give up a seat before the game starts. A table left with no person, and without its
    creator (a bot account may make a table through the API), is removed."""
    require_person(user)
    with transaction.atomic():
        game = lock_open_game(game_id)
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
    require_person(user)
    _check_level(level)
    with transaction.atomic():
        game = _lock_own_open_game(user, game_id)
        _check_level(level, game.time_control)
        _sit(game, list(game.seats.all()), bot_user(level), now=now, actor=user.pk)
    return game


def seat_bot_account(user, game_id: int, username: str, now=None) -> Game:
    """Seat the bot account called ``username`` in the first open seat (the table's creator
    only), as a bot level is seated: a bot account refuses nothing. A full table starts."""
    require_person(user)
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
        pending_invitations(game, bot).update(
            answer=Invitation.Answer.ACCEPTED, answered_at=now or clock.now()
        )
    return game


def remove_bot(user, game_id: int, position: int) -> Game:
    require_person(user)
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
    require_person(user)
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
        start_play(game, now, actor)
        return
    game.version += 1
    game.save(update_fields=["version"])
    announce_on_commit(game)


def start_play(game: Game, now=None, actor=None) -> None:
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
    seats = game_seats(game)
    sync_acting(game, state, now, seats)
    after_commit(game, state, seats)
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
            after_commit(game, state_from_json(game.state), game_seats(game))
