"""The queryable records of a game (``Round``, ``RoundSeat``, ``BoardToken``, ``Trick``, ``Play``,
each seat's score), written from what the engine decided (``engine.play``'s outcome: the token
placed, the trick taken with its winner and loot, the round's result): nothing here works out a
rule of the game.

They are projections of the seed and the move log, as ``Game.state`` is a cache of them. One
function says which rows a move makes (``move_rows``); the write path saves them move by move
(``write_records``), ``rebuild_records`` replays the whole log through it and writes every row
again, and ``check_records`` compares the stored rows with the replay without writing."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from games import clock, engine
from games.live import announce_on_commit
from games.models import BoardToken, Game, MoveRecord, Play, Round, RoundSeat, Seat, Trick

from .turns import game_seats, sync_acting


@dataclass
class MoveRows:
    """The rows one move adds to the round in play (``current``, whose terms it may also set),
    unsaved: a token, a taken trick and its plays, the seats' parts in a finished round, and the
    next round."""

    token: BoardToken | None = None
    trick: Trick | None = None
    plays: list[Play] = field(default_factory=list)
    terms_set: bool = False
    parts: list[RoundSeat] = field(default_factory=list)
    next_round: Round | None = None


def first_round(game: Game, state: engine.GameState) -> Round:
    """The record of round 1 as the deal starts it (unsaved)."""
    return Round(game=game, number=1, dealer=state.dealer)


def move_rows(
    game: Game, current: Round, seats: list[Seat], before: engine.GameState, outcome: engine.Played
) -> MoveRows:
    """The rows of the move that took the game from ``before`` to ``outcome.state``, in the
    round ``current``. ``seats`` (the game's) are only read when the move ends a round."""
    after = outcome.state
    rows = MoveRows()
    if outcome.token is not None:
        token = outcome.token
        rows.token = BoardToken(
            round=current, seat=token.seat, line=token.line, box=token.box, order=len(before.tokens)
        )
    if outcome.trick is not None:
        rows.trick, rows.plays = _trick_rows(
            current, len(before.tricks) + 1, outcome.trick, before.players
        )
    if outcome.result is not None:
        _set_terms(current, outcome.result.terms)
        rows.terms_set = True
        rows.parts = round_seats(current, outcome.result, seats)
        if after.phase != engine.OVER:
            rows.next_round = Round(game=game, number=current.number + 1, dealer=after.dealer)
    elif after.terms != before.terms:
        _set_terms(current, after.terms)
        rows.terms_set = True
    return rows


def write_records(
    game: Game, before: engine.GameState, outcome: engine.Played, seats: list[Seat]
) -> None:
    """Record the move that took the game from ``before`` to ``outcome.state``. ``seats``: the
    game's, as the move read them under the lock (a finished round writes their scores)."""
    current = Round.objects.get(game=game, number=before.round)
    seats = sorted(seats, key=lambda s: s.position) if outcome.result is not None else []
    rows = move_rows(game, current, seats, before, outcome)
    if rows.token is not None:
        rows.token.save()
    if rows.trick is not None:
        rows.trick.save()
        Play.objects.bulk_create(rows.plays)
    if rows.terms_set:
        current.save()
    if outcome.result is not None:
        for seat, score in zip(seats, scores(outcome.state, seats), strict=True):
            seat.score = score
        Seat.objects.bulk_update(seats, ["score"])
        RoundSeat.objects.bulk_create(rows.parts)
    if rows.next_round is not None:
        rows.next_round.save()


def _set_terms(current: Round, terms: engine.Terms | None) -> None:
    # The first player, the teams and the bonus card's holder are each seat's, in its RoundSeat
    # once the round is over; while it is in play, in the game's state.
    if terms is not None:
        current.discard = terms.discard
        current.trump = terms.trump
        current.supertrump = terms.super
        current.points = terms.points


def _trick_rows(
    current: Round, number: int, taken: engine.Trick, players: int
) -> tuple[Trick, list[Play]]:
    """A finished trick and its plays, written at once: a trick in play is in the game's state
    (and its cards in the move log) until it is taken."""
    trick = Trick(
        round=current,
        number=number,
        leader=taken.leader,
        winner=taken.winner,
        loot=list(taken.loot),
    )
    plays = [
        Play(trick=trick, seat=seat, card=card, order=order)
        for order, (seat, card) in enumerate(zip(taken.seats(players), taken.cards, strict=True))
    ]
    return trick, plays


def round_seats(current: Round, result: engine.RoundResult, seats) -> list[RoundSeat]:
    """Each seat's part in the finished round, as the engine's result says it."""
    team = engine.team_of(result.teams)
    return [
        RoundSeat(
            round=current,
            seat=seat,
            position=seat.position,
            team=team[seat.position],
            first=seat.position == result.terms.first,
            bonus=seat.position == result.bonus,
            bonus_team=result.bonus is not None and team[result.bonus] == team[seat.position],
            tricks=result.tricks[seat.position],
            loot=result.loot[seat.position],
            score=result.scores[seat.position],
        )
        for seat in seats
    ]


def scores(state: engine.GameState | None, seats: list[Seat]) -> list[int]:
    """Each of ``seats``' score in the game so far."""
    totals = engine.game_standings(state).totals if state is not None else None
    return [0 if totals is None else totals[seat.position] for seat in seats]


# --- replaying the log ------------------------------------------------------------------------


class BrokenLog(Exception):
    """The move log itself is wrong (a gap in its numbers, a move the engine refuses): nothing
    can be rebuilt from it."""


@dataclass
class Replay:
    """Every record of a game as its seed and move log say, unsaved. ``state`` is None for a
    table that never started."""

    state: engine.GameState | None
    rounds: list[Round] = field(default_factory=list)
    tokens: list[BoardToken] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    plays: list[Play] = field(default_factory=list)
    parts: list[RoundSeat] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)  # of the seats, in the order given


def replay(game: Game, seats: list[Seat], log: list[MoveRecord]) -> Replay:
    """The records of ``game`` rebuilt from its seed and ``log`` through ``move_rows``, as the
    write path made them. Raises ``BrokenLog``."""
    numbers = [record.number for record in log]
    if numbers != list(range(1, len(log) + 1)):
        raise BrokenLog(f"the move numbers have gaps: {numbers[:10]}...")
    if game.state is None and not log:
        return Replay(state=None, scores=scores(None, seats))
    state = engine.new_game(game.players, game.seed, game.target)
    current = first_round(game, state)
    records = Replay(state=state, rounds=[current])
    for record in log:
        try:
            outcome = engine.play(state, engine.move_from_json(record.move))
        except (engine.IllegalMove, KeyError, TypeError, ValueError) as refused:
            raise BrokenLog(f"move {record.number} does not replay: {refused}") from refused
        rows = move_rows(game, current, seats, state, outcome)
        records.tokens += [rows.token] if rows.token is not None else []
        if rows.trick is not None:
            records.tricks.append(rows.trick)
            records.plays += rows.plays
        records.parts += rows.parts
        if rows.next_round is not None:
            current = rows.next_round
            records.rounds.append(current)
        state = outcome.state
    records.state = state
    records.scores = scores(state, seats)
    return records


# Each kind of row: its name, the path from it to its game, the fields that name one row (as the
# words of its name) and the fields the replay must agree on.
KINDS = [
    (Round, "game", [("round", "number")], ["dealer", "discard", "trump", "supertrump", "points"]),
    (
        BoardToken,
        "round__game",
        [("round", "round__number"), ("token", "order")],
        ["seat", "line", "box"],
    ),
    (
        Trick,
        "round__game",
        [("round", "round__number"), ("trick", "number")],
        ["leader", "winner", "loot"],
    ),
    (
        Play,
        "trick__round__game",
        [("round", "trick__round__number"), ("trick", "trick__number"), ("play", "order")],
        ["seat", "card"],
    ),
    (
        RoundSeat,
        "round__game",
        [("round", "round__number"), ("seat", "position")],
        ["seat__position", "team", "first", "bonus", "bonus_team", "tricks", "loot", "score"],
    ),
]


def _value(row, path: str):
    for name in path.split("__"):
        row = getattr(row, name)
    return row


def _differences(game: Game, seats: list[Seat], log: list[MoveRecord], records: Replay):
    """What the stored records say otherwise than the replay, one line each."""
    found = []
    if _stored_state(game) != records.state:
        found.append("state: not the replay's")
    if game.moves_made != len(log):
        found.append(f"moves made: stored {game.moves_made}, the log has {len(log)}")
    for seat, expected in zip(seats, records.scores, strict=True):
        if seat.score != expected:
            found.append(f"seat {seat.position} score: stored {seat.score}, replay {expected}")
    replayed = {
        Round: records.rounds,
        BoardToken: records.tokens,
        Trick: records.tricks,
        Play: records.plays,
        RoundSeat: records.parts,
    }
    for model, to_game, key, fields in KINDS:
        paths = [path for _, path in key]
        stored = {
            row[: len(key)]: row[len(key) :]
            for row in model.objects.filter(**{to_game: game}).values_list(*paths, *fields)
        }
        expected = {
            tuple(_value(row, path) for path in paths): tuple(_value(row, f) for f in fields)
            for row in replayed[model]
        }
        for name in sorted(stored.keys() | expected.keys()):
            where = " ".join(
                f"{word} {number}" for (word, _), number in zip(key, name, strict=True)
            )
            if name not in stored:
                found.append(f"{where}: missing")
            elif name not in expected:
                found.append(f"{where}: not in the replay")
            elif stored[name] != expected[name]:
                said = ", ".join(
                    f"{f} {s!r} (replay {e!r})"
                    for f, s, e in zip(fields, stored[name], expected[name], strict=True)
                    if s != e
                )
                found.append(f"{where}: {said}")
    return found


_UNREADABLE = object()


def _stored_state(game: Game):
    """The stored state as the engine reads it (``_UNREADABLE`` when it cannot)."""
    if game.state is None:
        return None
    try:
        return engine.state_from_json(game.state)
    except (KeyError, TypeError, ValueError):
        return _UNREADABLE


def _read(game_id: int):
    """The locked game, its seats (in order) and its move log."""
    game = Game.objects.select_for_update().get(pk=game_id)
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    return game, seats, list(MoveRecord.objects.filter(game=game))


def check_records(game_id: int) -> list[str]:
    """What the game's stored state and records say otherwise than the replay of its seed and
    move log, one line each: empty when they agree. Writes nothing (the game row is locked
    meanwhile, so that no move lands between two reads)."""
    with transaction.atomic():
        game, seats, log = _read(game_id)
        try:
            records = replay(game, seats, log)
        except BrokenLog as broken:
            return [str(broken)]
        return _differences(game, seats, log, records)


def rebuild_records(game_id: int, now=None) -> list[str]:
    """Write every record of the game again from its seed and move log: its rounds, their
    tokens, tricks, plays and seats' parts, each seat's score, the state and the move count,
    in one transaction with the game row locked. Returns what differed before (as
    ``check_records``). A state that changes moves the game's version on, so that open pages
    fetch it again, and, in a game in play, sets the seats' clocks by it (``sync_acting``).
    Raises ``BrokenLog`` (writing nothing) when the log cannot be replayed."""
    with transaction.atomic():
        game, seats, log = _read(game_id)
        records = replay(game, seats, log)
        found = _differences(game, seats, log, records)
        Round.objects.filter(game=game).delete()  # and, with them, every row below them
        # bulk_create sets the new rows' ids (PostgreSQL, SQLite 3.35+): the rows below them
        # take their round's or trick's id from the instance they were made with.
        Round.objects.bulk_create(records.rounds)
        Trick.objects.bulk_create(records.tricks)
        BoardToken.objects.bulk_create(records.tokens)
        Play.objects.bulk_create(records.plays)
        RoundSeat.objects.bulk_create(records.parts)
        for seat, score in zip(seats, records.scores, strict=True):
            seat.score = score
        Seat.objects.bulk_update(seats, ["score"])
        moved = _stored_state(game) != records.state
        fields = ["state", "moves_made"] + (["version"] if moved else [])
        game.state = None if records.state is None else engine.state_to_json(records.state)
        game.moves_made = len(log)
        game.version += moved
        game.save(update_fields=fields)
        if moved:
            announce_on_commit(game)
            if game.status == Game.Status.ACTIVE:
                sync_acting(game, records.state, now or clock.now(), game_seats(game))
        return found


def finished_since(since) -> list[int]:
    """The ids of the games finished (or aborted after they started) since ``since``."""
    return list(
        Game.objects.filter(finished_at__gte=since, started_at__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
