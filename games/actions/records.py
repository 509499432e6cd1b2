"""The queryable records of a move (``Round``, ``BoardToken``, ``Trick``, ``Play``), written from
what the engine decided (``engine.play``'s outcome: the token placed, the trick taken with its
winner and loot, the round's result): nothing here works out a rule of the game."""

from __future__ import annotations

from games import engine
from games.models import BoardToken, Game, Play, Round, RoundSeat, Seat, Trick


def write_records(game: Game, before: engine.GameState, outcome: engine.Outcome) -> None:
    """Record the move that took the game from ``before`` to ``outcome.state``."""
    after = outcome.state
    current = Round.objects.get(game=game, number=before.round)
    if outcome.token is not None:
        token = outcome.token
        BoardToken.objects.create(
            round=current,
            seat=token.seat,
            line=token.line,
            box=token.box,
            order=len(before.tokens),
        )
    if outcome.trick is not None:
        _record_trick(current, len(before.tricks) + 1, outcome.trick, before.players)
    if outcome.result is not None:
        _finish_round(game, current, outcome.result, after)
    elif after.terms != before.terms or after.teams != before.teams:
        _set_terms(current, after.terms, after.teams, after.bonus)
        current.save()


def _set_terms(current: Round, terms, teams, bonus) -> None:
    if terms is not None:
        current.first = terms.first
        current.discard = terms.discard
        current.trump = terms.trump
        current.supertrump = terms.super
        current.points = terms.points
    current.teams = None if teams is None else [list(t) for t in teams]
    current.bonus = bonus


def _record_trick(current: Round, number: int, taken: engine.Trick, players: int) -> None:
    """A finished trick and its plays, written at once: a trick in play is in the game's state
    (and its cards in the move log) until it is taken."""
    trick = Trick.objects.create(
        round=current,
        number=number,
        leader=taken.leader,
        winner=taken.winner,
        loot=list(taken.loot),
    )
    Play.objects.bulk_create(
        Play(trick=trick, seat=seat, card=card, order=order)
        for order, (seat, card) in enumerate(zip(taken.seats(players), taken.cards, strict=True))
    )


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


def _finish_round(game: Game, current: Round, result: engine.RoundResult, after) -> None:
    _set_terms(current, result.terms, result.teams, result.bonus)
    current.save()
    totals = engine.game_standings(after).totals
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        seat.score = totals[seat.position]
    Seat.objects.bulk_update(seats, ["score"])
    RoundSeat.objects.bulk_create(round_seats(current, result, seats))
    if after.phase != engine.OVER:
        Round.objects.create(game=game, number=current.number + 1, dealer=after.dealer)
