"""The queryable records of a move: Round, BoardToken, Trick and Play rows."""

from __future__ import annotations

from games import engine
from games.engine.tricks import loot, winning_index
from games.models import BoardToken, Game, Play, Round, Seat, Trick


def write_records(game: Game, before, after, move) -> None:
    """Record ``move``, which took the game from ``before`` to ``after``."""
    current = Round.objects.get(game=game, number=before.round)
    if isinstance(move, engine.PlaceToken):
        BoardToken.objects.create(
            round=current,
            seat=move.seat,
            line=move.line,
            box=move.box,
            order=len(before.tokens),
        )
    elif isinstance(move, engine.PlayCard):
        _record_play(current, before, move)
    if len(after.results) > len(before.results):
        _finish_round(game, current, after)
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


def _record_play(current: Round, before, move) -> None:
    number = len(before.tricks) + 1
    if not before.trick:
        trick = Trick.objects.create(round=current, number=number, leader=before.leader)
    else:
        trick = Trick.objects.get(round=current, number=number)
    Play.objects.create(trick=trick, seat=move.seat, card=move.card, order=len(before.trick))
    cards = (*before.trick, move.card)
    n = before.players
    if len(cards) == n:
        terms = before.terms
        seats = [(before.leader + k) % n for k in range(n)]
        trick.winner = seats[winning_index(cards, terms.trump, terms.super)]
        trick.loot = loot(cards, seats, trick.winner, before.team_of)
        trick.save(update_fields=["winner", "loot"])


def _finish_round(game: Game, current: Round, after) -> None:
    result = after.results[-1]
    _set_terms(current, result.terms, result.teams, result.bonus)
    current.tricks_won = list(result.tricks)
    current.loot_won = list(result.loot)
    current.scores = list(result.scores)
    current.save()
    totals = engine.game_standings(after).totals
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        seat.score = totals[seat.position]
    Seat.objects.bulk_update(seats, ["score"])
    if after.phase != engine.OVER:
        Round.objects.create(game=game, number=current.number + 1, dealer=after.dealer)
