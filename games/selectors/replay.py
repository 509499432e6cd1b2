"""A game's past: the game page's table after a given move (``game_step``, the page's moves
shown one by one), the list of every move (``move_log_page``) and the replay of a finished game
with every hand shown (``replay_page``). The step and the replay are drawn from the state
that the seed and the move log rebuild."""

from __future__ import annotations

from games import engine, presence, tutorial
from games.models import Game, MoveRecord
from games.selectors.ending import final_result, ranking_rows
from games.selectors.seats import Viewer, seat_infos, visible_table
from games.selectors.table_page import (
    LOG_FIELDS,
    LogLine,
    last_round_summary,
    log_line,
    round_summary,
    table_context,
    table_page_base,
)


class NoSuchStep(ValueError):
    """A step the game has not reached (or a game not started)."""


def game_step(game_id: int, user: Viewer, step: int) -> dict[str, object] | None:
    """The game page's table right after move ``step``, as ``user``'s seat saw it then (a
    spectator's view for anyone else): the page shows the moves it has not shown yet one by one
    (static/js/live.js) instead of jumping to the newest. It is drawn from ``view(state, seat)``
    of the replayed state, so it holds nothing that seat did not see at that step. Read only:
    nobody acts on a past table, so it has no forms and no clocks (the deadlines are today's).
    None for no such game (``can_view``); ``NoSuchStep`` for a step not made. Two queries, and
    on the board a third: the game with its seats, its first ``step`` moves, the last trick of
    the round before."""
    found = visible_table(game_id, user)
    if found is None:
        return None
    game, seats = found
    if game.state is None or not 0 <= step <= game.moves_made:
        raise NoSuchStep(step)
    infos = seat_infos(seats, user)
    for info in infos:
        info.deadline, info.paused = None, False
    page = table_page_base(game, infos)
    names, me = page["names"], page["me"]
    context: dict[str, object] = dict(page)
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
    drawn = table_context(seen, infos, names, me)
    context.update(drawn)
    context["my_turn"] = False
    context["team_form"] = None
    context["log"] = [log_line(r, names, me, finished) for r in records if r.round == seen["round"]]
    shown = seen["phase"] == "board" or seen["over"]
    context["summary"] = last_round_summary(game, seen, names, me) if shown else None
    context["step"] = {"number": step}
    if game.tutorial and me is not None:  # the hint stays while the bots' moves are shown
        context["tutorial"] = tutorial.hint(seen, names, read_only=True)
    if game.status == Game.Status.ACTIVE:  # the marks stay while the moves are shown one by one
        presence.mark_panels(drawn["panels"], infos, game.pk)
    if seen["over"]:
        context["result"] = final_result(seen, infos)
    return context


def move_log_page(game_id: int, user: Viewer) -> dict[str, object] | None:
    """Every move of a game, by round (two queries: the game with its seats, its moves)."""
    found = visible_table(game_id, user)
    if found is None:
        return None
    game, seats = found
    infos = seat_infos(seats, user)
    names = [s.name for s in infos]
    me = next((s.position for s in infos if s.is_me), None)
    finished = game.status == Game.Status.FINISHED
    rounds: dict[int, list[LogLine]] = {}
    records = MoveRecord.objects.filter(game=game).order_by("number")
    for record in records.values_list(*LOG_FIELDS, "round", named=True):
        rounds.setdefault(record.round, []).append(log_line(record, names, me, finished))
    return {"game": game, "rounds": sorted(rounds.items()), "names": names}


def replay_page(game_id: int, step: int | None, user: Viewer) -> dict[str, object] | None:
    """A finished game after its first ``step`` moves, every hand shown: nothing is secret
    once the game is over. None for no such game; ``unavailable`` while it is not over (the
    replay shows nothing of a game in play). Two queries, whatever the step."""
    found = visible_table(game_id, user)
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
    context: dict[str, object] = {
        "game": game,
        "seats": infos,
        "names": names,
        "me": None,
        "my_seat": None,
    }
    drawn = table_context(seen, infos, names, mine)
    context.update(drawn)
    for panel in drawn["panels"]:
        panel.hand = list(state.hands[panel.position])
        panel.choice = list(state.choices[panel.position] or ())
    round_starts: dict[int, int] = {}
    for index, record in enumerate(records):
        round_starts.setdefault(record.round, index)
    number = len(state.results)
    summary: dict[str, object] | None = None
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
        result = final_result(seen, infos)
        context["result"] = result
        context["ranking"] = ranking_rows(result, infos, {})
    return context
