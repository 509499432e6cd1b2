"""Reads for pages: each fetches what its page needs in a fixed, small number of queries.

Pages get ``view(state, seat)`` and names, never the stored state: the seed and the other
hands stay on the server. The one exception is the replay of a finished game, where nothing is
secret any more. What the table shows is worked out from the view in ``games.table``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from accounts.models import RatingChange, Shown, User
from accounts.models import shown as shown_rating
from games import clock, engine, live, presence, results, table, tutorial
from games.models import (
    CHAT_MAX_LENGTH,
    ChatMessage,
    Game,
    Invitation,
    MoveRecord,
    Play,
    RematchOffer,
    Round,
    Seat,
    before_first_card,
    offers_bot_level,
)
from games.table import (  # noqa: F401 (the words that pages, emails and tests share)
    COLOR_SYMBOLS,
    box_label,
    card_label,
    color_label,
    line_title,
)


@dataclass
class SeatInfo:
    position: int
    name: str
    is_bot: bool
    is_me: bool
    character: str
    score: int
    user_id: int | None
    username: str | None = None  # for the link to the profile; None for a former player
    deadline: object = None
    paused: bool = False
    autopilot: bool = False
    resigned: bool = False
    rating: Shown | None = None  # None before the player's first rated game
    bot_account: bool = False  # a person's program: asked for a rematch, as a person is


def seat_infos(seats: list[Seat], me) -> list[SeatInfo]:
    infos = []
    for seat in seats:
        user = seat.user
        linked = user is not None and (user.is_active or user.is_bot)
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


def visible_games(user) -> QuerySet[Game]:
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


def can_view(game: Game, user, invite_code: str = "") -> bool:
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


def seat_of(game: Game | int, user) -> Seat | None:
    """The seat ``user`` holds at ``game`` (a game or its id), or None."""
    if not user.is_authenticated:
        return None
    seats = _read_seats(game)
    if seats is not None:
        return next((s for s in seats if s.user_id == user.pk), None)
    return Seat.objects.filter(game_id=getattr(game, "pk", game), user=user).first()


def position_of(game: Game | int, user) -> int | None:
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


def _visible_table(game_id: int, user, invite_code: str = "") -> tuple[Game, list[Seat]] | None:
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


def game_page(game_id: int, user, invite_code: str = "") -> dict | None:
    """Everything the game page shows, for ``user`` (anonymous or not seated: a spectator), in
    a fixed number of queries: the game with its seats, this round's moves, on the board (and at the
    end) the last trick of the round before, and once the game is over its rating changes and its
    rematch. None when there
    is no such game for this user (``can_view``)."""
    found = _visible_table(game_id, user, invite_code)
    if found is None:
        return None
    game, seats = found
    context = _table_page(game, seat_infos(seats, user))
    infos, names, me, mine = (context[key] for key in ("seats", "names", "me", "my_seat"))
    if game.status == Game.Status.OPEN:
        context["can_start"] = user.is_authenticated and game.created_by_id == user.pk
        context["bot_levels"] = [  # Expert at correspondence tables only
            (value, label)
            for value, label in User.BotLevel.choices
            if offers_bot_level(game.time_control, value)
        ]
        context["default_bot_level"] = User.DEFAULT_BOT_LEVEL
        return context
    if game.expired:  # never started: no state, nothing to show but the seats
        return context
    state = engine.state_from_json(game.state)
    seen = engine.view(state, me)
    if game.status == Game.Status.ABORTED:
        seen = {**seen, "to_act": [], "legal": []}  # nobody plays on
        # Only a seated person aborts (actions.abort_game): their name comes with the seats.
        by = next((s.user for s in seats if s.user_id and s.user_id == game.aborted_by_id), None)
        if by is None and game.aborted_by_id is not None:
            by = game.aborted_by
        context["aborted_by"] = by.name if by else None
    if game.tutorial and game.status == Game.Status.FINISHED:
        seen = {**seen, "to_act": [], "legal": []}  # after a round at -2: the next is not played
    context.update(table_context(seen, infos, names, me, now=clock.now()))
    if game.tutorial and me is not None and game.status != Game.Status.ABORTED:
        context["tutorial"] = tutorial.hint(seen, names, ended=game.status == Game.Status.FINISHED)
        tutorial.mark(context)
    playing = game.status == Game.Status.ACTIVE and mine is not None and not mine.is_bot
    context["can_abort"] = playing and before_first_card(state)
    context["can_resign"] = playing and not mine.resigned and not context["can_abort"]
    if game.status == Game.Status.ACTIVE:
        # the spectators: not the players' own streams, though opened before they sat down
        streams = live.watchers.users(game.pk)
        seated = {i.user_id for i in infos}
        context["watching"] = sum(user_id not in seated for user_id in streams)
        presence.mark_panels(context["panels"], infos, game.pk, streams)
    finished = game.status == Game.Status.FINISHED
    records = (
        MoveRecord.objects.filter(game=game, round=seen["round"])
        .order_by("number")
        .values_list(*LOG_FIELDS, named=True)
    )
    context["log"] = [log_line(r, names, me, finished) for r in records]
    # The round that ended last is shown on the board of the next round and at the end only
    # (the template's condition): the other phases do not read it back.
    shown = seen["phase"] == "board" or seen["over"]
    context["summary"] = last_round_summary(game, seen, names, me) if shown else None
    if finished and not game.tutorial:  # a tutorial ends on its hint, with no rematch
        context.update(game_over(game, seen, infos, names))
        context["rematch"] = rematch_offer(game, infos)
    return context


def _table_page(game: Game, infos) -> dict:
    """What every drawing of the game page starts from: the game, its seats and the viewer's."""
    mine = next((s for s in infos if s.is_me), None)
    return {
        "game": game,
        "seats": infos,
        "me": mine and mine.position,
        "names": [s.name for s in infos],
        "my_seat": mine,
        "bot_pause": settings.BOT_PAUSE_SECONDS,
    }


class NoSuchStep(ValueError):
    """A step the game has not reached (or a game not started)."""


def game_step(game_id: int, user, step: int) -> dict | None:
    """The game page's table right after move ``step``, as ``user``'s seat saw it then (a
    spectator's view for anyone else): the page shows the moves it has not shown yet one by one
    (static/js/live.js) instead of jumping to the newest. It is drawn from ``view(state, seat)``
    of the replayed state, so it holds nothing that seat did not see at that step. Read only:
    nobody acts on a past table, so it has no forms and no clocks (the deadlines are today's).
    None for no such game (``can_view``); ``NoSuchStep`` for a step not made. Two queries, and
    on the board a third: the game with its seats, its first ``step`` moves, the last trick of
    the round before."""
    found = _visible_table(game_id, user)
    if found is None:
        return None
    game, seats = found
    if game.state is None or not 0 <= step <= game.moves_made:
        raise NoSuchStep(step)
    infos = seat_infos(seats, user)
    for info in infos:
        info.deadline, info.paused = None, False
    context = _table_page(game, infos)
    names, me = context["names"], context["me"]
    records = list(
        MoveRecord.objects.filter(game=game, number__lte=step)
        .order_by("number")
        .values_list(*LOG_FIELDS, "round", named=True)
    )
    if len(records) != step:  # the count on the game row and its log disagree: never shown
        raise NoSuchStep(step)
    # Replaying is cheap (a 5-player game's 800 moves in about 3 ms): no cache to keep right.
    state = engine.replay(
        game.players, game.seed, game.target, [engine.move_from_json(r.move) for r in records]
    )
    seen = engine.view(state, me)
    finished = game.status == Game.Status.FINISHED
    context.update(table_context(seen, infos, names, me))
    context["my_turn"] = False
    context["team_form"] = None
    context["log"] = [log_line(r, names, me, finished) for r in records if r.round == seen["round"]]
    shown = seen["phase"] == "board" or seen["over"]
    context["summary"] = last_round_summary(game, seen, names, me) if shown else None
    context["step"] = {"number": step}
    if game.tutorial and me is not None:  # the hint stays while the bots' moves are shown
        context["tutorial"] = tutorial.hint(seen, names, read_only=True)
    if game.status == Game.Status.ACTIVE:  # the marks stay while the moves are shown one by one
        presence.mark_panels(context["panels"], infos, game.pk)
    if seen["over"]:
        context["result"] = final_result(seen, infos)
    return context


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
# What ``log_line`` reads of a move record.
LOG_FIELDS = ("number", "seat", "move", "timeout", "autopilot")


def table_seats(game_id: int) -> QuerySet[Seat]:
    """A game's seats with their players and the game, as the pages read them (one query)."""
    return (
        Seat.objects.filter(game_id=game_id)
        .select_related("game", "user", "user__rating")
        .only(*SEAT_FIELDS)
    )


def table_context(seen: dict, infos, names: list[str], me: int | None, now=None) -> dict:
    """The table drawn from ``seen``: a seat's view, or in the replay a spectator's."""
    panels = table.panels(seen, infos, me)
    for panel in panels:
        if panel.acting and panel.deadline is not None and now is not None:
            panel.seconds_left = max(0, int((panel.deadline - now).total_seconds()))
    trick = seen["trick"]
    last = table.finished_trick(seen["tricks"][-1], seen, me) if seen["tricks"] else None
    my_turn = me is not None and me in seen["to_act"]
    discard_rule = seen["terms"]["discard"] if seen["terms"] else None
    return {
        "seen": seen,
        "panels": panels,
        "me_panel": next((p for p in panels if p.is_me), None),
        # The seats around the table, and the one at the bottom beside the hand (the viewer's,
        # or for a spectator seat 0's): one loop each. Each seat's trick card is drawn in front
        # of its panel by the same ``place``.
        "other_panels": [p for p in panels if not p.bottom],
        "my_panels": [p for p in panels if p.bottom],
        # The board is drawn in its phase only (game page and replay alike).
        "board_lines": table.board_lines(seen, names) if seen["phase"] == "board" else [],
        "terms": table.terms_items(seen["terms"], names) if seen["terms"] else None,
        "hand": table.hand_cards(seen),
        "current_trick": table.trick_plays(trick["leader"], trick["cards"], seen, me),
        "last_trick": last,
        "my_turn": my_turn,
        "acting_names": [names[s] for s in seen["to_act"]],
        "team_form": (
            table.team_form(seen, names) if my_turn and seen["phase"] == "teams" else None
        ),
        "discard_rule": discard_rule,
        "discard_count": engine.cards_discarded(discard_rule) if discard_rule else 0,
        "scorepad": scorepad(seen),
        "team_rows": team_rows(seen, names),
    }


def team_rows(seen: dict, names: list[str]) -> list[dict]:
    return [
        {
            "number": number,
            "names": [names[s] for s in team],
            "tricks": sum(seen["tricks_won"][s] for s in team),
            "loot": sum(seen["loot_won"][s] for s in team),
        }
        for number, team in enumerate(seen["teams"] or (), start=1)
    ]


def scorepad(seen: dict) -> dict:
    rows = [
        {
            "number": k,
            "scores": r["scores"],
            "points": r["terms"]["points"],
            "trump": r["terms"]["trump"],
            "trump_symbol": COLOR_SYMBOLS[r["terms"]["trump"]],
            "trump_name": color_label(r["terms"]["trump"]),
        }
        for k, r in enumerate(seen["results"], start=1)
    ]
    return {"rows": rows, "totals": seen["totals"]}


def last_round_summary(game: Game, seen: dict, names: list[str], me: int | None) -> dict | None:
    """The round that ended last, with its last trick. The view deals the next round at once,
    so that trick is read back from the records (its cards were played in public), with the
    winner the engine gave it. One query, run in round 1 too (it finds nothing), so that every
    page showing it costs the same."""
    number = len(seen["results"])
    plays = list(
        Play.objects.filter(trick__round__game=game, trick__round__number=number)
        .order_by("-trick__number", "order")
        .values_list("seat", "card", "trick__winner")[: seen["players"]]
    )
    if not number:
        return None
    winner = plays[0][2] if plays else None
    return round_summary(
        seen, number, names, me, [(seat, card) for seat, card, _ in plays], winner=winner
    )


def round_summary(
    seen: dict, number: int, names, me, plays: list[tuple[int, str]], winner: int | None = None
) -> dict:
    """Round ``number`` of ``seen``'s results, with its last trick: ``plays``, (seat, card),
    taken by ``winner`` (the engine says who, when the caller does not)."""
    result = seen["results"][number - 1]
    summary = table.round_summary(result, number, names)
    summary["last_trick"] = None
    if len(plays) == seen["players"]:
        terms = result["terms"]
        cards = [card for _, card in plays]
        if winner is None:
            winner = engine.trick_winner(
                plays[0][0], cards, seen["players"], terms["trump"], terms["super"]
            )
        summary["last_trick"] = {
            "winner": winner,
            "plays": table.trick_plays(
                plays[0][0], cards, seen, me, winner=winner, teams=result["teams"]
            ),
        }
    return summary


def final_result(seen: dict, infos) -> results.Result:
    """The game's result (``games.results``) from its final view and its seats."""
    return results.result(
        seen["totals"],
        [info.name for info in infos],
        [info.autopilot for info in infos],
        [info.resigned for info in infos],
    )


def game_over(game: Game, seen: dict, infos, names: list[str]) -> dict:
    """The result, and its ranking with each player's rating before and after."""
    changes = {c.position: c for c in RatingChange.objects.filter(game=game)}
    result = final_result(seen, infos)
    return {"result": result, "ranking": ranking_rows(result, infos, changes)}


def ranking_rows(result: results.Result, infos, changes: dict) -> list[dict]:
    """The final ranking's rows: each place with its mark, its player's profile and, where
    ``changes`` (``RatingChange`` by seat) has it, the rating before and after."""
    by_seat = {info.position: info for info in infos}
    rows = []
    for place in result.places:
        info = by_seat[place.seat]
        change = changes.get(place.seat)
        rating = None
        if change is not None and info.username:
            before = shown_rating(change.mu_before, change.sigma_before)
            after = shown_rating(change.mu_after, change.sigma_after)
            moved = after.value - before.value
            rating = {
                "before": before,
                "after": after,
                "sign": "+" if moved >= 0 else "−",
                "size": abs(moved),
            }
        rows.append(
            {
                "place": place,
                "ordinal": table.ordinal(place.rank),
                "initial": table.initial(place.seat),
                "username": info.username,
                "is_bot": info.is_bot,
                "rating": rating,
            }
        )
    return rows


def log_line(record, names: list[str], me: int | None, finished: bool) -> dict:
    """One move, numbered as the game numbers it. Another seat's discard or pass says only
    how many cards, until the game is over."""
    hidden = record.seat != me and not finished
    return {
        "number": record.number,
        "text": table.describe(record.move, record.seat, names, hidden),
        "timeout": record.timeout,
        "autopilot": record.autopilot,
    }


def move_log_page(game_id: int, user) -> dict | None:
    """Every move of a game, by round (two queries: the game with its seats, its moves)."""
    found = _visible_table(game_id, user)
    if found is None:
        return None
    game, seats = found
    infos = seat_infos(seats, user)
    names = [s.name for s in infos]
    me = next((s.position for s in infos if s.is_me), None)
    finished = game.status == Game.Status.FINISHED
    rounds: dict[int, list] = {}
    records = MoveRecord.objects.filter(game=game).order_by("number")
    for record in records.values_list(*LOG_FIELDS, "round", named=True):
        rounds.setdefault(record.round, []).append(log_line(record, names, me, finished))
    return {"game": game, "rounds": sorted(rounds.items()), "names": names}


def replay_page(game_id: int, step: int | None, user) -> dict | None:
    """A finished game after its first ``step`` moves, every hand shown: nothing is secret
    once the game is over. None for no such game; ``unavailable`` while it is not over (the
    replay shows nothing of a game in play). Two queries, whatever the step."""
    found = _visible_table(game_id, user)
    if found is None:
        return None
    game, seats = found
    if game.status != Game.Status.FINISHED:
        return {"game": game, "unavailable": True}
    infos = seat_infos(seats, user)
    names = [s.name for s in infos]
    mine = next((s.position for s in infos if s.is_me), None)
    records = list(
        MoveRecord.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "seat", "round", "move", "timeout", "autopilot", named=True)
    )
    total = len(records)
    step = total if step is None else max(0, min(step, total))
    state = engine.replay(
        game.players,
        game.seed,
        game.target,
        [engine.move_from_json(r.move) for r in records[:step]],
    )
    seen = engine.view(state, None)
    context = {"game": game, "seats": infos, "names": names, "me": None, "my_seat": None}
    context.update(table_context(seen, infos, names, mine))
    for panel in context["panels"]:
        panel.hand = list(state.hands[panel.position])
        panel.choice = list(state.choices[panel.position] or ())
    round_starts = {}
    for index, record in enumerate(records):
        round_starts.setdefault(record.round, index)
    number = len(state.results)
    summary = None
    if number and (state.phase == engine.OVER or not state.tokens):
        plays = [
            (r.seat, r.move["play"])
            for r in records[:step]
            if r.round == number and "play" in r.move
        ]
        summary = round_summary(seen, number, names, mine, plays[-game.players :])
    context.update(
        {
            "replay": True,
            "step": step,
            "total": total,
            "move": log_line(records[step - 1], names, None, finished=True) if step else None,
            "out_of_play": [] if state.phase == engine.OVER else list(state.out_of_play),
            "rounds": [
                {"number": number, "step": start, "current": number == seen["round"]}
                for number, start in sorted(round_starts.items())
            ],
            "summary": summary,
        }
    )
    if state.phase == engine.OVER:  # the end: the result, as the game's page gives it
        context["result"] = final_result(seen, infos)
        context["ranking"] = ranking_rows(context["result"], infos, {})
    return context


LOBBY_OPEN_TABLES = 50  # the newest open tables the lobby shows, as cards
LOBBY_FINISHED = 5  # the latest games ended that the lobby lists (the rest: the player's page)
ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def with_seats(games: QuerySet) -> QuerySet:
    """``games`` with their seats in order, each with its player: two queries for any number
    of games (``game.seats.all()`` then reads no more)."""
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    )


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


def lobby(user) -> dict:
    """Open public tables, and the user's games in sections (``my_games``): ``turn`` (waiting for
    them, soonest deadline first), ``others`` (in play, waiting for others), ``open`` (their
    tables waiting for players) and ``ended`` (finished, aborted or expired, the latest
    ``LOBBY_FINISHED`` of the last 30 days; the player's page has every finished one). A
    rematch is not an open table: its seats are kept (``Game.seats_kept_from``), and its players
    find it on the finished game's page and in their invitation. Three queries, however many
    games."""
    open_games = open_tables()
    mine = {"turn": [], "others": [], "open": [], "ended": []}
    last_against_bots = None
    if user.is_authenticated:
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
        seats = [seat for seat in rows if seat.user_id == user.pk]
        for seat in seats:
            status = seat.game.status
            if status == Game.Status.ACTIVE:
                section = "turn" if seat.acting_since else "others"
            else:
                section = "open" if status == Game.Status.OPEN else "ended"
            item = {"game": seat.game, "seat": seat, "seats": at_table[seat.game_id]}
            if section == "others":  # whom the game waits for
                item["acting"] = ", ".join(
                    str(s.name) for s in at_table[seat.game_id] if s.acting_since
                )
            if status == Game.Status.FINISHED:  # the user's place, as the result says it
                table_seats = at_table[seat.game_id]
                place = results.of_seats([s.score for s in table_seats], table_seats)
                item["place"] = place.place_of(seat.position)
                item["ordinal"] = table.ordinal(item["place"].rank)
            mine[section].append(item)
        # Waiting for the user: soonest deadline first; the games ended, the latest first; the
        # others, newest first.
        mine["turn"].sort(
            key=lambda i: (i["seat"].deadline is None, i["seat"].deadline or i["seat"].acting_since)
        )
        mine["others"].sort(
            key=lambda i: i["game"].started_at or i["game"].created_at, reverse=True
        )
        mine["open"].sort(key=lambda i: i["game"].created_at, reverse=True)
        mine["ended"].sort(
            key=lambda i: (i["game"].finished_at or i["game"].created_at, i["game"].pk),
            reverse=True,
        )
        last = max(
            (item["game"] for items in mine.values() for item in items if _against_bots(item)),
            key=lambda game: game.created_at,
            default=None,
        )
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


def _against_bots(item: dict) -> bool:
    """A game of the lobby's "Your games" that its player made against bots of our levels only
    (seat 0 is the maker's, as ``actions.create_game`` seats it): the lobby's one-click play
    offers the same again first."""
    return item["seat"].position == 0 and all(
        seat.user is not None and seat.user.bot_level for seat in item["seats"][1:]
    )


CHAT_LINES = 100  # the latest messages a table's chat shows


def chat_seated(user, game_id: int) -> bool:
    """A person (not a bot, nor a bot account) seated at the game: the only readers and writers
    of its chat."""
    return (
        user.is_authenticated and not user.plays_as_bot and position_of(game_id, user) is not None
    )


def table_chat(game_id: int, user, seated: bool | None = None) -> dict | None:
    """The table chat as ``user`` reads it: None for anyone not seated at the game (spectators
    have no chat, see the README); for a player who hid the chat, only that. One query for the
    lines (and one to find the seat, unless the page knows ``seated``)."""
    if seated is None:
        seated = chat_seated(user, game_id)
    if not seated or user.plays_as_bot:
        return None
    if user.chat_hidden:
        return {"game_id": game_id, "hidden": True, "last": 0}
    lines = list(
        ChatMessage.objects.filter(game_id=game_id, hidden=False)
        .select_related("user")
        .order_by("-pk")[:CHAT_LINES]
    )
    lines.reverse()
    return {
        "game_id": game_id,
        "hidden": False,
        "lines": lines,
        "last": lines[-1].pk if lines else 0,
        "barred": user.chat_barred,
        "max_length": CHAT_MAX_LENGTH,
    }


def chat_news(game_id: int, after: int) -> bool:
    """A message to show newer than ``after``."""
    return ChatMessage.objects.filter(game_id=game_id, pk__gt=after, hidden=False).exists()


IN_PLAY_PAGE_SIZE = 25


def games_in_play(filters: dict, page) -> dict:
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


def rematch_offer(game: Game, infos) -> dict:
    """What a finished game's page says of its rematch (``RematchOffer``, the latest), for the
    viewer of ``infos`` (``is_me``): who asked, who accepted, whom it waits for, how it ended,
    and the new game once it started. The people are the seats' (``actions.lobby
    .rematch_people``): persons with an account and bot accounts, not our bots. One query."""
    offer = game.rematch_offers.first()
    people = [i for i in infos if i.user_id and (not i.is_bot or i.bot_account) and i.username]
    by_user = {i.user_id: i.name for i in people}
    me = next((i for i in people if i.is_me), None)
    context = {"offer": offer, "me": me, "open": False, "new_game_id": None, "can_ask": False}
    if offer is None:
        context["can_ask"] = me is not None
        return context
    accepted = set(offer.accepted)
    context.update(
        {
            "open": offer.outcome == RematchOffer.Outcome.OPEN,
            "outcome": offer.outcome,
            "asker": by_user.get(offer.asked_by_id, ""),
            "ended_by": by_user.get(offer.ended_by_id, ""),
            "waiting": [i.name for i in people if i.user_id not in accepted],
            "accepted": [i.name for i in people if i.user_id in accepted],
            "new_game_id": offer.new_game_id,
            "i_asked": me is not None and me.user_id == offer.asked_by_id,
            "to_answer": me is not None and me.user_id not in accepted,
        }
    )
    if context["open"]:
        left = max(0, int((offer.expires_at - clock.now()).total_seconds()))
        context["seconds_left"] = left
        context["clock"] = table.clock_text(left)
        context["expires_iso"] = offer.expires_at.replace(microsecond=0).isoformat()
    # A rematch that did not happen may be asked again; one that started, not (its own end
    # offers the next).
    context["can_ask"] = me is not None and not context["open"] and not offer.new_game_id
    return context
