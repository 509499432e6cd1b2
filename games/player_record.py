"""A player's record: the reads behind their profile page and their pages of games, each in a
fixed number of queries however many games they have (the leaderboard, which reads the ratings
alone, is ``accounts.selectors``').

Every figure comes from the game records (``Seat``, ``MoveRecord``, and through ``games.stats``
the rounds' ``RoundSeat``); the rating from ``Rating`` and ``RatingChange``, written when each
game finished (``games.ratings``). The words, for a player:

- played: a seat in a game that has started (a bot level holding two seats of one game played
  it twice);
- finished: the game reached its end (its last round, or the point target);
- won: finished with the highest total; a shared first place is a win for each;
- abandoned: started, not finished, and no move for ``ABANDONED_AFTER``. It counts as played,
  not finished, and is not rated; should it ever finish, it is rated then, like any other. A
  game that ended with the player's seat on autopilot (three timeouts in a row, and they never
  came back) is abandoned too, for that player: not finished, not won, and rated last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import RatingChange, User, shown
from games.models import Game, MoveRecord, Seat
from games.ratings import DEFAULT, history_points
from games.selectors import visible_games
from games.stats import RoundFigures, place, player_stats, wins

ABANDONED_AFTER = timedelta(days=30)
RECENT_GAMES = 10
CHART_ROWS = 200  # the chart shows about this many of the latest rated games
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 320, 100, 6

STARTED = (Game.Status.ACTIVE, Game.Status.FINISHED)
FINISHED = Q(game__status=Game.Status.FINISHED, autopilot=False)  # played to its end


def _last_move():
    """When the seat's game last moved (its start, before any move)."""
    return Coalesce(
        Subquery(
            MoveRecord.objects.filter(game=OuterRef("game"))
            .order_by("-number")
            .values("created_at")[:1]
        ),
        F("game__started_at"),
    )


def started_seats(user: User, now: datetime) -> QuerySet[Seat]:
    """The user's seats in games that have started, with ``abandoned`` (no move since
    ``now - ABANDONED_AFTER``) to filter on."""
    return (
        Seat.objects.filter(user=user, game__status__in=STARTED)
        .exclude(game__tutorial=True)  # a first-game guide (games.tutorial) is no record
        .alias(last_move=_last_move())
        .alias(
            abandoned=Q(game__status=Game.Status.ACTIVE, last_move__lt=now - ABANDONED_AFTER)
            | Q(game__status=Game.Status.FINISHED, autopilot=True),
        )
    )


@dataclass
class Tally:
    """A player's games at one player count (``players``) or all; the places and the rounds'
    figures are ``games.stats``', the wins its first places."""

    players: int | None  # None: all player counts together
    played: int = 0
    finished: int = 0
    abandoned: int = 0
    places: list[dict] = field(default_factory=list)  # games.stats.places, at this count
    figures: RoundFigures | None = None  # games.stats.player_rounds, at this count

    @property
    def in_play(self) -> int:
        return self.played - self.finished - self.abandoned

    @property
    def wins(self) -> int:
        return wins(self.places)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    @property
    def win_percent(self) -> int | None:
        return None if self.win_rate is None else round(100 * self.win_rate)

    @property
    def points_per_round(self) -> float | None:
        return self.figures.points_per_round if self.figures else None

    def add(self, other: Tally) -> None:
        for name in ("played", "finished", "abandoned"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def tallies(user: User, now: datetime) -> tuple[Tally, list[Tally]]:
    """All games together, and one ``Tally`` per player count, without the places and rounds
    (1 query: ``profile_page`` adds them from ``games.stats``)."""
    rows = (
        started_seats(user, now)
        .values("game__players")
        .annotate(
            played=Count("pk"),
            finished=Count("pk", filter=FINISHED),
            abandoned=Count("pk", filter=Q(abandoned=True)),
        )
        .order_by("game__players")
    )
    by_players = [
        Tally(
            players=row["game__players"],
            played=row["played"],
            finished=row["finished"],
            abandoned=row["abandoned"],
        )
        for row in rows
    ]
    total = Tally(players=None)
    for tally in by_players:
        total.add(tally)
    return total, by_players


@dataclass
class RecentGame:
    game: Game
    score: int
    status: str  # "finished", "in_play" or "abandoned"
    won: bool
    rating_change: str | None  # the shown rating's change, signed ("+23", "−4"), if rated


def recent_games(
    user: User, now: datetime, changes: dict[int, str], viewer=None
) -> list[RecentGame]:
    """The user's latest games that ``viewer`` may see (``games.selectors.visible_games``)."""
    seats = (
        started_seats(user, now)
        .filter(game__in=visible_games(viewer or AnonymousUser()))
        .annotate(place=place(), is_abandoned=F("abandoned"))
        .select_related("game")
        .order_by("-game__started_at", "-game_id", "position")[:RECENT_GAMES]
    )
    recent = []
    for seat in seats:
        finished = seat.game.status == Game.Status.FINISHED and not seat.autopilot
        status = "finished" if finished else "abandoned" if seat.is_abandoned else "in_play"
        recent.append(
            RecentGame(
                game=seat.game,
                score=seat.score,
                status=status,
                won=finished and seat.place == 1,
                rating_change=changes.get(seat.game_id),
            )
        )
    return recent


def rating_history(user: User) -> list[RatingChange]:
    """The user's latest rating changes (about ``CHART_ROWS``), oldest first."""
    rows = (
        RatingChange.objects.filter(user=user)
        .select_related(None)
        .order_by("-game__finished_at", "-game_id", "-position")
        .only("game_id", "mu_before", "sigma_before", "mu_after", "sigma_after")[:CHART_ROWS]
    )
    return list(reversed(rows))


def chart(values: list[float]) -> dict | None:
    """An inline SVG line: the rating before the first game shown, then after each game."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    width = CHART_WIDTH - 2 * CHART_MARGIN
    height = CHART_HEIGHT - 2 * CHART_MARGIN
    coords = [
        (
            CHART_MARGIN + width * i / (len(values) - 1),
            CHART_MARGIN + height * (1 - (v - low) / span) if high > low else CHART_HEIGHT / 2,
        )
        for i, v in enumerate(values)
    ]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        "last": {"x": f"{coords[-1][0]:.1f}", "y": f"{coords[-1][1]:.1f}"},
        "low": low,
        "high": high,
        "first": values[0],
        "latest": values[-1],
        "games": len(values) - 1,
    }


def profile_page(username: str, now: datetime | None = None, viewer=None) -> dict | None:
    """Everything the profile page shows (9 queries, 10 for another player viewing: the head to
    head), or None for no such (active) player. Games are linked only when ``viewer`` may see
    them; the figures count every game."""
    now = now or timezone.now()
    user = User.objects.select_related("rating").filter(username=username).first()
    if user is None or not (user.is_active or user.is_site_bot):
        return None
    total, by_players = tallies(user, now)
    best = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED, game__tutorial=False)
        .filter(game__in=visible_games(viewer or AnonymousUser()))
        .select_related("game")
        .order_by("-score", "-game__finished_at")
        .first()
    )
    history = rating_history(user)
    points = history_points(history)
    changes = {}
    previous = shown(history[0].mu_before, history[0].sigma_before).value if history else None
    values = [previous] if history else []
    for game_id, mu, sigma in points:
        value = shown(mu, sigma).value
        changes[game_id] = f"{'+' if value >= previous else '−'}{abs(value - previous)}"
        values.append(value)
        previous = value
    rating = getattr(user, "rating", None)
    stats = player_stats(user, viewer)
    total.places = stats["places"]["all"]
    total.figures = stats["rounds_total"]
    figures = {f.players: f for f in stats["rounds_by_players"]}
    for tally in by_players:
        tally.places = stats["places"]["by_players"].get(tally.players, [])
        tally.figures = figures.get(tally.players)
    return {
        "player": user,
        "total": total,
        "by_players": by_players,
        "best": best,
        "rating": rating and rating.shown,
        "rated_games": rating.games if rating else 0,
        "default_rating": shown(*DEFAULT),
        "chart": chart(values),
        "recent": recent_games(user, now, changes, viewer),
        "abandoned_days": ABANDONED_AFTER.days,
        **stats,
        "places": stats["places"]["all"],
    }


PLAYER_GAMES_PAGE_SIZE = 20
PLAYER_GAMES = ("in-play", "finished")


def player_games_page(
    username: str, which: str, page_number, viewer=None, now: datetime | None = None
) -> dict | None:
    """One page of a player's games in play or finished games that ``viewer`` may see, latest
    first, each with its table (4 queries: the player, the count, the page, the page's seats).
    None for no such (active) player."""
    now = now or timezone.now()
    user = User.objects.filter(username=username).first()
    if user is None or not (user.is_active or user.is_site_bot) or which not in PLAYER_GAMES:
        return None
    finished = which == "finished"
    seats = (
        started_seats(user, now)
        .filter(game__in=visible_games(viewer or AnonymousUser()))
        .filter(game__status=Game.Status.FINISHED if finished else Game.Status.ACTIVE)
        .annotate(place=place())
        .select_related("game")
        .order_by("-game__finished_at" if finished else "-game__started_at", "-game_id", "position")
    )
    page: Page = Paginator(seats, PLAYER_GAMES_PAGE_SIZE).get_page(page_number)
    tables = Seat.objects.filter(game__in=[seat.game_id for seat in page.object_list])
    names: dict[int, list[str]] = {}
    for other in tables.select_related("user", "game").order_by("game_id", "position"):
        names.setdefault(other.game_id, []).append(other.name)
    rows = [
        {
            "game": seat.game,
            "score": seat.score,
            "won": finished and not seat.autopilot and seat.place == 1,
            "names": names.get(seat.game_id, []),
        }
        for seat in page.object_list
    ]
    return {"player": user, "which": which, "finished": finished, "page": page, "rows": rows}
