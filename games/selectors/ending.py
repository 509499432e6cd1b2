"""The end of a game as its pages show it: the result (``games.results``), the final ranking
with each player's rating before and after, and the rematch offered after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from accounts.models import RatingChange, Shown
from accounts.models import shown as shown_rating
from games import clock, results, table
from games.engine import View
from games.models import Game, RematchOffer
from games.selectors.seats import SeatInfo


class RatingMove(TypedDict):
    before: Shown
    after: Shown
    sign: str  # "+" or "−"
    size: int


class RankingRow(TypedDict):
    place: results.Place
    ordinal: str
    initial: str
    username: str | None  # None for our bots and former players: no profile
    is_bot: bool
    rating: RatingMove | None  # None for a game that changed no rating of the player


class GameOver(TypedDict):
    result: results.Result
    ranking: list[RankingRow]


def final_result(seen: View, infos: Sequence[SeatInfo]) -> results.Result:
    """The game's result (``games.results``) from its final view and its seats."""
    return results.result(
        seen["totals"],
        [info.name for info in infos],
        [info.autopilot for info in infos],
        [info.resigned for info in infos],
    )


def game_over(game: Game, seen: View, infos: Sequence[SeatInfo], names: list[str]) -> GameOver:
    """The result, and its ranking with each player's rating before and after."""
    changes = {c.position: c for c in RatingChange.objects.filter(game=game)}
    result = final_result(seen, infos)
    return {"result": result, "ranking": ranking_rows(result, infos, changes)}


def ranking_rows(
    result: results.Result, infos: Sequence[SeatInfo], changes: dict[int, RatingChange]
) -> list[RankingRow]:
    """The final ranking's rows: each place with its mark, its player's profile and, where
    ``changes`` (``RatingChange`` by seat) has it, the rating before and after."""
    by_seat = {info.position: info for info in infos}
    rows: list[RankingRow] = []
    for place in result.places:
        info = by_seat[place.seat]
        change = changes.get(place.seat)
        rating: RatingMove | None = None
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


def rematch_offer(game: Game, infos: Sequence[SeatInfo]) -> dict[str, object]:
    """What a finished game's page says of its rematch (``RematchOffer``, the latest), for the
    viewer of ``infos`` (``is_me``): who asked, who accepted, whom it waits for, how it ended,
    and the new game once it started. The people are the seats' (``actions.rematches
    .rematch_people``): persons with an account and bot accounts, not our bots. One query."""
    offer = game.rematch_offers.first()
    people = [i for i in infos if i.user_id and (not i.is_bot or i.bot_account) and i.username]
    by_user = {i.user_id: i.name for i in people}
    me = next((i for i in people if i.is_me), None)
    context: dict[str, object] = {
        "offer": offer,
        "me": me,
        "open": False,
        "new_game_id": None,
        "can_ask": False,
    }
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
