"""Stats, read from the records with SQL aggregation: never a replay of a game's states.

Each function is one query (or a fixed few), whatever the number of games. Only finished games
count, and a player's figures only the games they played to the end: a seat that ended on
autopilot (its player resigned, or timed out three times and never came back) is an abandoned
game for its player (``games.player_record``), not one they finished or won. The rows
aggregated: ``RoundSeat`` (each seat's part in each finished round, written from the engine's
result), ``BoardToken`` (who vetoed which box) and ``Seat`` (final totals).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Exists, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from games.engine import BOXES, COLOR_LINES
from games.models import BoardToken, Game, RoundSeat, Seat
from games.table import COLOR_SYMBOLS, box_label, color_label, line_title, ordinal

FINISHED = Game.Status.FINISHED
# A tutorial (games.tutorial) is a guide on a fixed deal, not a game: no figure counts it.
PLAYED_OUT = Q(game__status=FINISHED, game__tutorial=False, autopilot=False)  # played out
TOP_BOXES = 5
SITE_TOP_BOXES = 10
# The bar chart of the rounds played under each trump color (server-rendered SVG).
BAR_WIDTH = 40
BAR_GAP = 20
BAR_HEIGHT = 100


@dataclass
class RoundFigures:
    """A player's rounds of finished games, at one player count (``players``) or all."""

    players: int | None
    rounds: int = 0
    points: int = 0
    tricks: int = 0
    loot: int = 0
    bonus_rounds: int = 0  # rounds played with a bonus card (3 and 5 players)
    bonus_team: int = 0  # of those, on the team of its holder
    first: int = 0  # rounds as the first player

    def _per_round(self, total: int) -> float | None:
        return total / self.rounds if self.rounds else None

    @property
    def points_per_round(self) -> float | None:
        return self._per_round(self.points)

    @property
    def tricks_per_round(self) -> float | None:
        return self._per_round(self.tricks)

    @property
    def loot_per_round(self) -> float | None:
        return self._per_round(self.loot)

    @property
    def bonus_team_percent(self) -> int | None:
        return round(100 * self.bonus_team / self.bonus_rounds) if self.bonus_rounds else None

    def add(self, other: RoundFigures) -> None:
        for name in ("rounds", "points", "tricks", "loot", "bonus_rounds", "bonus_team", "first"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def played_rounds(user):
    """The player's parts in the rounds of the finished games they played to the end."""
    return RoundSeat.objects.filter(
        seat__user=user,
        seat__autopilot=False,
        round__game__status=FINISHED,
        round__game__tutorial=False,
    )


# Someone at the round's table held the bonus card (a subquery on the RoundSeat rows of the same
# round: the holder is a seat's fact, stored once).
BONUS_HELD = RoundSeat.objects.filter(round=OuterRef("round"), bonus=True)


def player_rounds(user) -> tuple[RoundFigures, list[RoundFigures]]:
    """All player counts together, and one ``RoundFigures`` per count (1 query)."""
    rows = (
        played_rounds(user)
        .values("round__game__players")
        .annotate(
            rounds=Count("pk"),
            points=Sum("score"),
            tricks=Sum("tricks"),
            loot=Sum("loot"),
            bonus_rounds=Count("pk", filter=Exists(BONUS_HELD)),
            bonus_team=Count("pk", filter=Q(bonus_team=True)),
            first=Count("pk", filter=Q(first=True)),
        )
        .order_by("round__game__players")
    )
    by_players = [RoundFigures(players=row.pop("round__game__players"), **row) for row in rows]
    total = RoundFigures(players=None)
    for figures in by_players:
        total.add(figures)
    return total, by_players


def _boxes(rows) -> list[dict]:
    return [
        {
            "line": line_title(row["line"]),
            "box": box_label(row["line"], row["box"]),
            "symbol": COLOR_SYMBOLS.get(row["box"], "") if row["line"] in COLOR_LINES else "",
            "count": row["count"],
        }
        for row in rows
    ]


def vetoed_boxes(user, top: int = TOP_BOXES) -> dict:
    """The boxes the player covered most often, most first: ``all`` player counts together, and
    ``by_players`` count (1 query)."""
    rows = (
        BoardToken.objects.filter(
            round__game__status=FINISHED,
            round__game__tutorial=False,
            round__game__seats__user=user,
            round__game__seats__position=F("seat"),
            round__game__seats__autopilot=False,
        )
        .values("round__game__players", "line", "box")
        .annotate(count=Count("pk"))
        .order_by("round__game__players")
    )
    every: dict[tuple[str, str], int] = {}
    by_players: dict[int, dict[tuple[str, str], int]] = {}
    for row in rows:
        box = row["line"], row["box"]
        every[box] = every.get(box, 0) + row["count"]
        by_players.setdefault(row["round__game__players"], {})[box] = row["count"]
    return {
        "all": _most(every, top),
        "by_players": {players: _most(counts, top) for players, counts in by_players.items()},
    }


def _most(counts: dict[tuple[str, str], int], top: int) -> list[dict]:
    most = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]
    return _boxes({"line": line, "box": box, "count": count} for (line, box), count in most)


def _colors(rows: dict[str, dict]) -> list[dict]:
    return [
        {
            "color": color,
            "name": color_label(color),
            "symbol": COLOR_SYMBOLS[color],
            "rounds": rows[color]["rounds"] if color in rows else 0,
            "points": rows[color]["points"] / rows[color]["rounds"] if color in rows else None,
        }
        for color in BOXES["trump"]
    ]


def trump_colors(user) -> dict:
    """The rounds the player played under each trump color, with their points per round, and
    a bar chart of them: all player counts together, and ``by_players`` count (1 query)."""
    rows = (
        played_rounds(user)
        .values("round__game__players", "round__trump")
        .annotate(rounds=Count("pk"), points=Sum("score"))
        .order_by("round__game__players")
    )
    every: dict[str, dict] = {}
    by_players: dict[int, dict[str, dict]] = {}
    for row in rows:
        color = row["round__trump"]
        total = every.setdefault(color, {"rounds": 0, "points": 0})
        total["rounds"] += row["rounds"]
        total["points"] += row["points"]
        by_players.setdefault(row["round__game__players"], {})[color] = row
    colors = _colors(every)
    most = max((c["rounds"] for c in colors), default=0)
    for k, c in enumerate(colors):
        height = round(BAR_HEIGHT * c["rounds"] / most) if most else 0
        c["x"] = BAR_GAP + k * (BAR_WIDTH + BAR_GAP)
        c["y"] = BAR_HEIGHT - height
        c["height"] = height
        c["label_x"] = c["x"] + BAR_WIDTH // 2
    chart = {
        "width": BAR_GAP + len(colors) * (BAR_WIDTH + BAR_GAP),
        "height": BAR_HEIGHT + 20,
        "bar_width": BAR_WIDTH,
        "base": BAR_HEIGHT,
    }
    return {
        "colors": colors,
        "chart": chart if most else None,
        "by_players": [
            {"players": players, "colors": _colors(counts)}
            for players, counts in by_players.items()
        ],
    }


def head_to_head(user, other) -> dict | None:
    """The finished games both played: how often each finished ahead (1 query). None for the
    player themselves or a visitor."""
    if other is None or not other.is_authenticated or other.pk == user.pk:
        return None
    theirs = Seat.objects.filter(game=OuterRef("game"), user=other).values("score")[:1]
    result = (
        Seat.objects.filter(
            user=user, game__status=FINISHED, game__tutorial=False, game__seats__user=other
        )
        .annotate(their_score=Subquery(theirs))
        .aggregate(
            games=Count("game", distinct=True),
            ahead=Count("pk", filter=Q(score__gt=F("their_score"))),
            behind=Count("pk", filter=Q(score__lt=F("their_score"))),
        )
    )
    result["level"] = result["games"] - result["ahead"] - result["behind"]
    return result


def place():
    """A seat's place at its table, as ``games.results.ranks`` gives it: 1 + the number of seats
    ranked above it. A seat that ended on autopilot comes after every seat that did not (false
    sorts before true in SQL); equal totals share a place, so a shared first place is a win for
    each."""
    higher = (
        Seat.objects.filter(game=OuterRef("game"))
        .filter(
            Q(autopilot__lt=OuterRef("autopilot"))
            | Q(autopilot=OuterRef("autopilot"), score__gt=OuterRef("score"))
        )
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return 1 + Coalesce(Subquery(higher), 0)


def places(user) -> dict:
    """How often the player finished in each place of a finished game, by final totals (equal
    totals share a place): ``all`` player counts together, and ``by_players`` count; each row's
    ``rank`` is the place as a number (1 query)."""
    rows = (
        Seat.objects.filter(PLAYED_OUT, user=user)
        .annotate(place=place())
        .values("game__players", "place")
        .annotate(games=Count("pk"))
        .order_by("place", "game__players")
    )
    every: dict[int, int] = {}
    by_players: dict[int, list[dict]] = {}
    for row in rows:
        every[row["place"]] = every.get(row["place"], 0) + row["games"]
        by_players.setdefault(row["game__players"], []).append(
            {"rank": row["place"], "place": ordinal(row["place"]), "games": row["games"]}
        )
    return {
        "all": [
            {"rank": rank, "place": ordinal(rank), "games": games} for rank, games in every.items()
        ],
        "by_players": by_players,
    }


def wins(places: list[dict]) -> int:
    """The games won among rows of ``places``: those in first place."""
    return sum(row["games"] for row in places if row["rank"] == 1)


def player_stats(user, viewer=None) -> dict:
    """Everything of a player's page that comes from the round records (5 queries, 4 without a
    logged-in viewer other than the player)."""
    total, by_players = player_rounds(user)
    return {
        "places": places(user),
        "rounds_total": total,
        "rounds_by_players": by_players,
        "vetoed": vetoed_boxes(user),
        "trumps": trump_colors(user),
        "head_to_head": head_to_head(user, viewer),
    }


def site_stats() -> dict:
    """The site's numbers: finished games by player count, the boxes vetoed most, and the
    average score of a seat's round by the points line (3 queries)."""
    games = list(
        Game.objects.filter(status=FINISHED, tutorial=False)
        .values("players")
        .annotate(games=Count("pk"))
        .order_by("players")
    )
    boxes = (
        BoardToken.objects.filter(round__game__status=FINISHED, round__game__tutorial=False)
        .values("line", "box")
        .annotate(count=Count("pk"))
        .order_by("-count", "line", "box")[:SITE_TOP_BOXES]
    )
    points = list(
        RoundSeat.objects.filter(round__game__status=FINISHED, round__game__tutorial=False)
        .values("round__points")
        .annotate(score=Avg("score"), rounds=Count("round", distinct=True))
        .order_by("-round__points")
    )
    return {
        "games_by_players": games,
        "games_total": sum(row["games"] for row in games),
        "vetoed": _boxes(boxes),
        "by_points": [
            {"points": row["round__points"], "score": row["score"], "rounds": row["rounds"]}
            for row in points
        ],
    }
