"""Ratings: OpenSkill's Plackett-Luce model, a free-for-all ranking by each game's final totals.

- Every seat of a finished game is rated, bots too: each bot level is one user, so its rating
  says how strong that level plays. A seat's rank is 1 + the number of seats with a higher
  total, so equal totals are a tie (a shared win is a shared first place).
- A game is rated once, by ``rate_finished_game``, inside the transaction that finishes it
  (``games.actions.moves.do_move``). A game that never finishes is never rated, and neither is
  one of several rounds in which no person made a move after the first (bots and autopilot
  played it).
- A seat that ends the game on autopilot (its player resigned, or timed out three times in a row
  and never came back) is ranked below every seat that was played, whatever its total: a loss on
  time (``games.results``, the one definition of a game's result).
- A bot level holding several seats of one game: each seat is rated from the level's rating
  before the game, and the level's new rating is the mean of its seats' results (so a level
  playing against itself learns nothing from it).
- Pages show a rating on the familiar scale (``accounts.models.shown``: 1500 ± 350 to begin
  with, "?" while provisional). The leaderboard ranks by mu the players with five rated games
  or more (``accounts.selectors.leaderboard_page``).

``RatingChange`` keeps every seat's rating before and after each game: the history behind the
profile chart, and what ``recompute_ratings`` needs to rebuild every rating from the records.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db import transaction
from openskill.models import PlackettLuce

from accounts.models import Rating, RatingChange
from games import results
from games.models import Game, MoveRecord, Seat

MODEL = PlackettLuce()
DEFAULT = (MODEL.mu, MODEL.sigma)


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game, from its (mu, sigma) before and its rank."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_finished_game(game: Game, state) -> None:
    """Rate the game that ``state`` (the engine's, phase OVER) has just finished.

    Called with the game row locked, in the transaction that finishes it; does nothing if the
    game was rated already. The players' rating rows are locked in a fixed order, so two games
    ending at once for the same bot level wait for each other instead of losing an update.
    """
    if RatingChange.objects.filter(game=game).exists() or not played_by_people(game):
        return
    totals = [sum(result.scores[s] for result in state.results) for s in range(state.players)]
    seats = list(
        Seat.objects.filter(game=game).order_by("position").values_list("user_id", "autopilot")
    )
    user_ids = [user_id for user_id, _ in seats]
    abandoned = [autopilot for _, autopilot in seats]
    present = sorted({u for u in user_ids if u is not None})
    Rating.objects.bulk_create(
        [Rating(user_id=u, mu=DEFAULT[0], sigma=DEFAULT[1]) for u in present],
        ignore_conflicts=True,
    )
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(user_id__in=present).order_by("user_id")
    }
    before = [DEFAULT if u is None else (ratings[u].mu, ratings[u].sigma) for u in user_ids]
    changes = _rating_changes(game, user_ids, totals, results.ranks(totals, abandoned), before)
    RatingChange.objects.bulk_create(changes)
    _apply(changes, ratings)
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "games"])


def played_by_people(game: Game) -> bool:
    """Whether people played the game: a person made a move after its first round (or it had
    only one)."""
    if game.tutorial:  # a first-game guide, on a fixed deal with hints: never rated
        return False
    later = MoveRecord.objects.filter(game=game, round__gt=1)
    return not later.exists() or later.filter(by_bot=False).exists()


def _rating_changes(game: Game, user_ids, totals, ranks, before) -> list[RatingChange]:
    after = rate(before, ranks)
    return [
        RatingChange(
            game=game,
            position=position,
            user_id=user_id,
            score=totals[position],
            rank=rank,
            mu_before=before[position][0],
            sigma_before=before[position][1],
            mu_after=after[position][0],
            sigma_after=after[position][1],
        )
        for position, (user_id, rank) in enumerate(zip(user_ids, ranks, strict=True))
    ]


def _apply(changes: list[RatingChange], ratings: dict[int, Rating]) -> None:
    """Each player's new rating: their seat's result, or the mean of their seats' results."""
    seats = defaultdict(list)
    for change in changes:
        if change.user_id is not None:
            seats[change.user_id].append(change)
    for user_id, mine in seats.items():
        rating = ratings[user_id]
        rating.mu = sum(c.mu_after for c in mine) / len(mine)
        rating.sigma = sum(c.sigma_after for c in mine) / len(mine)
        rating.games += len(mine)


def history_points(changes) -> list[tuple[int, float, float]]:
    """(game id, mu, sigma) after each rated game, from one player's ``RatingChange`` rows in
    the order the games ended; a game where they held several seats counts once."""
    points: list[tuple[int, float, float]] = []
    group: list = []
    for change in [*changes, None]:
        if group and (change is None or change.game_id != group[0].game_id):
            mu = sum(c.mu_after for c in group) / len(group)
            sigma = sum(c.sigma_after for c in group) / len(group)
            points.append((group[0].game_id, mu, sigma))
            group = []
        if change is not None:
            group.append(change)
    return points


@transaction.atomic
def recompute_ratings() -> int:
    """Rebuild every ``Rating`` and ``RatingChange`` from the finished games' seats and final
    totals, in the order the games ended; returns how many games were rated.

    A seat whose player has deleted their account starts from the rating its stored change
    recorded (the account's rating at the time is gone with it); with no such record, from the
    default rating. Two games that ended in the same instant for the same player were rated
    live in the order their transactions took the rating lock, which this order may not repeat.
    """
    gone = {
        (c.game_id, c.position): (c.mu_before, c.sigma_before)
        for c in RatingChange.objects.filter(user__isnull=True)
    }
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    ratings: dict[int, Rating] = {}
    all_changes = []
    games = (
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("finished_at", "pk")
        .prefetch_related("seats")
    )
    count = 0
    for game in games:
        if not played_by_people(game):
            continue
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        user_ids = [s.user_id for s in seats]
        for u in user_ids:
            if u is not None and u not in ratings:
                ratings[u] = Rating(user_id=u, mu=DEFAULT[0], sigma=DEFAULT[1])
        before = [
            gone.get((game.pk, s.position), DEFAULT)
            if s.user_id is None
            else (ratings[s.user_id].mu, ratings[s.user_id].sigma)
            for s in seats
        ]
        totals = [s.score for s in seats]
        ranks = results.ranks(totals, [s.autopilot for s in seats])
        changes = _rating_changes(game, user_ids, totals, ranks, before)
        _apply(changes, ratings)
        all_changes += changes
        count += 1
    Rating.objects.bulk_create(ratings.values())
    RatingChange.objects.bulk_create(all_changes)
    return count
