"""The game page: the table as one seat sees it (``view(state, seat)``, drawn by
``games.table``), this round's moves, the round that ended last, and at the end the result and
the rematch. ``game_page`` reads it in a fixed number of queries; the replay and the steps of
the page (``games.selectors.replay``) draw their tables with the same parts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, TypedDict

from django.conf import settings

from accounts.models import User
from games import clock, engine, live, presence, table, tutorial
from games.engine import GameState, MoveJson, View
from games.models import Game, MoveRecord, Play, Seat, before_first_card, offers_bot_level
from games.selectors.ending import game_over, rematch_offer
from games.selectors.seats import SeatInfo, Viewer, seat_infos, visible_table

# What ``log_line`` reads of a move record.
LOG_FIELDS = ("number", "seat", "move", "timeout", "autopilot")


class TablePage(TypedDict):
    """What every drawing of the game page starts from: the game, its seats and the viewer's."""

    game: Game
    seats: list[SeatInfo]
    me: int | None  # the viewer's position; None for a spectator
    names: list[str]
    my_seat: SeatInfo | None
    bot_pause: float


class TeamRow(TypedDict):
    number: int
    names: list[str]
    tricks: int
    loot: int


class ScoreRow(TypedDict):
    number: int
    scores: list[int]
    points: int
    trump: str
    trump_symbol: str
    trump_name: str


class Scorepad(TypedDict):
    rows: list[ScoreRow]
    totals: list[int]


class Table(TypedDict):
    """The table drawn from one view (``table_context``)."""

    seen: View
    panels: list[table.Panel]
    me_panel: table.Panel | None
    other_panels: list[table.Panel]
    my_panels: list[table.Panel]
    board_lines: list[dict[str, object]]
    terms: list[dict[str, object]] | None
    hand: list[dict[str, object]]
    current_trick: list[dict[str, object]]
    last_trick: dict[str, object] | None
    my_turn: bool
    acting_names: list[str]
    team_form: dict[str, object] | None
    discard_rule: str | None
    discard_count: int
    scorepad: Scorepad
    team_rows: list[TeamRow]


class LoggedMove(Protocol):
    """What ``log_line`` reads of a move record (a row of ``LOG_FIELDS``)."""

    number: int
    seat: int
    move: MoveJson
    timeout: bool
    autopilot: bool


class LogLine(TypedDict):
    number: int
    text: str
    timeout: bool
    autopilot: bool


def game_page(game_id: int, user: Viewer, invite_code: str = "") -> dict[str, object] | None:
    """Everything the game page shows, for ``user`` (anonymous or not seated: a spectator), in
    a fixed number of queries: the game with its seats, this round's moves, on the board (and at
    the end) the last trick of the round before, and once the game is over its rating changes
    and its rematch. None when there is no such game for this user (``can_view``)."""
    found = visible_table(game_id, user, invite_code)
    if found is None:
        return None
    game, seats = found
    page = table_page_base(game, seat_infos(seats, user))
    infos, names, me = page["seats"], page["names"], page["me"]
    context: dict[str, object] = dict(page)
    if game.status == Game.Status.OPEN:
        context.update(_open_table(game, user))
        return context
    if game.expired:  # never started: no state, nothing to show but the seats
        return context
    state = engine.state_from_json(game.state)
    seen = engine.view(state, me)
    if game.status == Game.Status.ABORTED:
        seen = {**seen, "to_act": [], "legal": []}  # nobody plays on
        context["aborted_by"] = _aborted_by(game, seats)
    if game.tutorial and game.status == Game.Status.FINISHED:
        seen = {**seen, "to_act": [], "legal": []}  # after a round at -2: the next is not played
    drawn = table_context(seen, infos, names, me, now=clock.now())
    context.update(drawn)
    if game.tutorial and me is not None and game.status != Game.Status.ABORTED:
        context["tutorial"] = tutorial.hint(seen, names, ended=game.status == Game.Status.FINISHED)
        tutorial.mark(context)
    context.update(_abort_or_resign(game, state, page["my_seat"]))
    if game.status == Game.Status.ACTIVE:
        context["watching"] = _watching(game, infos, drawn["panels"])
    finished = game.status == Game.Status.FINISHED
    context["log"] = _round_log(game, seen["round"], names, me, finished)
    # The round that ended last is shown on the board of the next round and at the end only
    # (the template's condition): the other phases do not read it back.
    shown = seen["phase"] == "board" or seen["over"]
    context["summary"] = last_round_summary(game, seen, names, me) if shown else None
    if finished and not game.tutorial:  # a tutorial ends on its hint, with no rematch
        context.update(game_over(game, seen, infos, names))
        context["rematch"] = rematch_offer(game, infos)
    return context


def table_page_base(game: Game, infos: list[SeatInfo]) -> TablePage:
    """What every drawing of the game page starts from: the game, its seats and the viewer's."""
    mine = next((s for s in infos if s.is_me), None)
    return {
        "game": game,
        "seats": infos,
        "me": mine.position if mine else None,
        "names": [s.name for s in infos],
        "my_seat": mine,
        "bot_pause": settings.BOT_PAUSE_SECONDS,
    }


def _open_table(game: Game, user: Viewer) -> dict[str, object]:
    """What a table waiting for players adds: whether the viewer may start it (its maker), and
    the bot levels it offers."""
    return {
        "can_start": user.is_authenticated and game.created_by_id == user.pk,
        "bot_levels": [  # Expert at correspondence tables only
            (value, label)
            for value, label in User.BotLevel.choices
            if offers_bot_level(game.time_control, value)
        ],
        "default_bot_level": User.DEFAULT_BOT_LEVEL,
    }


def _aborted_by(game: Game, seats: list[Seat]) -> str | None:
    """The name of whoever aborted the game."""
    # Only a seated person aborts (actions.abort_game): their name comes with the seats.
    by = next((s.user for s in seats if s.user_id and s.user_id == game.aborted_by_id), None)
    if by is None and game.aborted_by_id is not None:
        by = game.aborted_by
    return by.name if by else None


def _abort_or_resign(game: Game, state: GameState, mine: SeatInfo | None) -> dict[str, bool]:
    """Whether the viewer, a person playing the game, may abort it (before the first card) or
    else resign."""
    if game.status != Game.Status.ACTIVE or mine is None or mine.is_bot:
        return {"can_abort": False, "can_resign": False}
    can_abort = bool(before_first_card(state))
    return {"can_abort": can_abort, "can_resign": not mine.resigned and not can_abort}


def _watching(game: Game, infos: list[SeatInfo], panels: list[table.Panel]) -> int:
    """How many watch a game in play, and on each player's panel whether their page is open:
    the game's streams, read once for both."""
    # the spectators: not the players' own streams, though opened before they sat down
    streams = live.watchers.users(game.pk)
    seated = {i.user_id for i in infos}
    watching = sum(user_id not in seated for user_id in streams)
    presence.mark_panels(panels, infos, game.pk, streams)
    return watching


def _round_log(
    game: Game, number: int, names: list[str], me: int | None, finished: bool
) -> list[LogLine]:
    """The moves of round ``number`` so far (one query)."""
    records = (
        MoveRecord.objects.filter(game=game, round=number)
        .order_by("number")
        .values_list(*LOG_FIELDS, named=True)
    )
    return [log_line(r, names, me, finished) for r in records]


def table_context(
    seen: View,
    infos: Sequence[SeatInfo],
    names: list[str],
    me: int | None,
    now: datetime | None = None,
) -> Table:
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


def team_rows(seen: View, names: list[str]) -> list[TeamRow]:
    return [
        {
            "number": number,
            "names": [names[s] for s in team],
            "tricks": sum(seen["tricks_won"][s] for s in team),
            "loot": sum(seen["loot_won"][s] for s in team),
        }
        for number, team in enumerate(seen["teams"] or (), start=1)
    ]


def scorepad(seen: View) -> Scorepad:
    rows: list[ScoreRow] = [
        {
            "number": k,
            "scores": r["scores"],
            "points": r["terms"]["points"],
            "trump": r["terms"]["trump"],
            "trump_symbol": table.COLOR_SYMBOLS[r["terms"]["trump"]],
            "trump_name": table.color_label(r["terms"]["trump"]),
        }
        for k, r in enumerate(seen["results"], start=1)
    ]
    return {"rows": rows, "totals": seen["totals"]}


def last_round_summary(
    game: Game, seen: View, names: list[str], me: int | None
) -> dict[str, object] | None:
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
    seen: View,
    number: int,
    names: list[str],
    me: int | None,
    plays: Sequence[tuple[int, str]],
    winner: int | None = None,
) -> dict[str, object]:
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


def log_line(record: LoggedMove, names: list[str], me: int | None, finished: bool) -> LogLine:
    """One move, numbered as the game numbers it. Another seat's discard or pass says only
    how many cards, until the game is over."""
    hidden = record.seat != me and not finished
    return {
        "number": record.number,
        "text": table.describe(record.move, record.seat, names, hidden),
        "timeout": record.timeout,
        "autopilot": record.autopilot,
    }
