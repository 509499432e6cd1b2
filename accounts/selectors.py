"""Reads for the account pages: the leaderboard, from the ratings alone, in a fixed number of
queries (a player's record, behind the profile page, is ``games.player_record``'), and the
browsers that take a player's notifications."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.db.models import Q

from .models import PushDevice, Rating, User

LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_PAGE_SIZE = 25


def leaderboard_page(page_number, min_games: int | None = None) -> dict:
    """One page of the rated players (bots too) with at least ``min_games`` rated games
    (``LEADERBOARD_MIN_GAMES``), highest rating first (2 queries: the count and the page)."""
    if min_games is None:
        min_games = LEADERBOARD_MIN_GAMES
    ratings = (
        Rating.objects.filter(games__gte=min_games)
        .filter(Q(user__is_active=True) | ~Q(user__bot_level=""))
        .select_related("user")
        .order_by("-mu", "user__username")
    )
    page: Page = Paginator(ratings, LEADERBOARD_PAGE_SIZE).get_page(page_number)
    rows = [(page.start_index() + i, rating) for i, rating in enumerate(page.object_list)]
    return {"page": page, "rows": rows, "min_games": min_games}


def push_devices(user: User) -> list[PushDevice]:
    """The browsers that take ``user``'s notifications, the latest first."""
    return list(user.push_devices.order_by("-created_at", "-pk"))
