"""Profiles and the leaderboard: every figure recomputed here from the game records, a tie, an
abandoned game, and a fixed number of queries however many games a player has."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import selectors
from accounts.models import Rating, User, bot_user
from games.actions import create_game
from games.models import Game, RoundSeat, Seat
from games.player_record import ABANDONED_AFTER, profile_page, tallies

from .conftest import play_out

pytestmark = pytest.mark.django_db


def record_from_the_records(user, now):
    """Per player count: played, finished, wins, abandoned and points per round, counted seat
    by seat from Seat, RoundSeat and MoveRecord. A game that ended with the seat on autopilot
    is abandoned for its player, and its rounds are not theirs."""
    rows = {}
    points = {}
    for seat in Seat.objects.filter(user=user).select_related("game"):
        game = seat.game
        if game.status == Game.Status.OPEN:
            continue
        row = rows.setdefault(
            game.players,
            {"played": 0, "finished": 0, "wins": 0, "abandoned": 0, "points_per_round": None},
        )
        row["played"] += 1
        if game.status == Game.Status.FINISHED and seat.autopilot:
            row["abandoned"] += 1
        elif game.status == Game.Status.FINISHED:
            parts = RoundSeat.objects.filter(round__game=game)
            totals = [sum(p.score for p in parts if p.position == s) for s in range(game.players)]
            row["finished"] += 1
            row["wins"] += totals[seat.position] == max(totals)
            mine = [p.score for p in parts if p.position == seat.position]
            assert len(mine) == game.rounds.count()
            scores = points.setdefault(game.players, [])
            scores.extend(mine)
            row["points_per_round"] = round(sum(scores) / len(scores), 9)
        else:
            last = game.moves.order_by("-number").first()
            moved = last.created_at if last else game.started_at
            row["abandoned"] += moved < now - ABANDONED_AFTER
    return rows


def as_rows(by_players):
    return {
        t.players: {
            "played": t.played,
            "finished": t.finished,
            "wins": t.wins,
            "abandoned": t.abandoned,
            "points_per_round": None if t.figures is None else round(t.points_per_round, 9),
        }
        for t in by_players
    }


@pytest.fixture
def history(act, finish_game, tied_game, alice, bob, carol):
    """Alice: a shared win at 3, a 2-player and a 4-player game against bots, and a game
    left in play."""
    tied_game(alice, bob, carol)
    finish_game(alice, bots=("easy",), seed=11)
    finish_game(alice, bots=("easy", "medium", "easy"), seed=12)
    unfinished = act(create_game, alice, players=3, bots=["easy", "easy"], target=1)
    play_out(act, unfinished, [alice], random.Random(3), until=lambda s: len(s.tricks) >= 1)
    return unfinished


@pytest.mark.parametrize("days_later", [0, ABANDONED_AFTER.days + 1])
def test_the_record_is_what_the_game_records_say(history, alice, bob, days_later):
    now = timezone.now() + timedelta(days=days_later)
    for player in (alice, bob, bot_user("easy")):
        page = profile_page(player.username, now)
        total, by_players = page["total"], page["by_players"]
        assert as_rows(by_players) == record_from_the_records(player, now)
        assert total.played == sum(t.played for t in by_players)
        assert total.wins == sum(t.wins for t in by_players)

    total = profile_page("alice", now)["total"]
    assert (total.played, total.finished) == (4, 3)
    assert total.wins >= 1  # the shared first place counts
    assert total.abandoned == (1 if days_later else 0)
    assert total.in_play == (0 if days_later else 1)
    assert tallies(alice, now)[0].played == 4
    assert profile_page("bob", now)["total"].wins == 1  # his share of the tie


def test_the_profile_page(client, history, alice):
    html = client.get(reverse("profile", args=["alice"])).content.decode()

    context = profile_page("alice")
    assert context["total"].played == 4
    assert "<h1>alice</h1>" in html
    for game in Game.objects.filter(seats__user=alice):
        assert f'href="{reverse("game", args=[game.pk])}"' in html
    assert '<svg class="rating-chart"' in html and "<polyline points=" in html
    assert "in play" in html and "won" in html
    assert "Abandoned: a game that started but has had no move for 30 days." in html
    rating = Rating.objects.get(user=alice).shown
    assert f"<strong>{rating}</strong> ± {rating.spread} after 3 rated games" in html
    assert rating.provisional and '<span class="tag">provisional</span>' in html


def test_an_abandoned_game_is_labelled_on_the_profile(history, alice):
    later = timezone.now() + ABANDONED_AFTER + timedelta(days=1)

    recent = profile_page("alice", now=later)["recent"]

    assert [item.status for item in recent if item.game == history] == ["abandoned"]
    assert not Rating.objects.filter(user=alice, games=4).exists()


def test_the_rating_changes_add_up_on_the_profile(history, alice):
    context = profile_page("alice")

    changes = [item.rating_change for item in context["recent"] if item.status == "finished"]
    assert len(changes) == 3
    chart = context["chart"]
    assert chart["games"] == 3
    assert chart["latest"] == Rating.objects.get(user=alice).shown.value
    assert chart["latest"] - chart["first"] == sum(int(c.replace("−", "-")) for c in changes)


def test_a_bot_has_a_profile_labelled_as_a_bot(client, finish_game, alice):
    finish_game(alice)

    html = client.get(reverse("profile", args=["bot-easy"])).content.decode()

    assert "Easy bot" in html and '<span class="tag">bot</span>' in html
    assert "its rating shows how strong that level plays" in html


def test_a_player_with_no_games(client, alice):
    html = client.get(reverse("profile", args=["alice"])).content.decode()

    assert "Not rated yet" in html and "No games yet." in html


@pytest.mark.parametrize("username", ["nobody", "retired"])
def test_no_profile_for_unknown_or_deactivated_players(client, make_person, username):
    make_person("retired", is_active=False)

    assert client.get(reverse("profile", args=[username])).status_code == 404


def test_the_leaderboard_ranks_by_the_shown_rating(
    client, finish_game, tied_game, alice, bob, carol, monkeypatch
):
    tied_game(alice, bob, carol)
    finish_game(alice, seed=5)
    monkeypatch.setattr(selectors, "LEADERBOARD_MIN_GAMES", 2)

    context = selectors.leaderboard_page(1)
    html = client.get(reverse("leaderboard")).content.decode()

    ranked = [rating.user.username for _, rating in context["rows"]]
    assert "alice" in ranked and "bob" not in ranked  # bob has one rated game
    assert "bot-easy" in ranked  # two seats of one game: two rated games
    values = [rating.shown.value for _, rating in context["rows"]]
    assert values == sorted(values, reverse=True)
    for _, rating in context["rows"]:
        assert f'{rating.shown} <span class="spread">± {rating.shown.spread}</span>' in html
    assert [rank for rank, _ in context["rows"]] == list(range(1, len(ranked) + 1))
    assert "at least 2 finished games" in html
    for name in ranked:
        assert f'href="{reverse("profile", args=[name])}"' in html


def test_the_leaderboard_is_paginated(client, db):
    people = User.objects.bulk_create([User(username=f"p{i:02}") for i in range(30)])
    Rating.objects.bulk_create(
        [Rating(user=p, mu=20 + i, sigma=5, games=9) for i, p in enumerate(people)]
    )

    first = client.get(reverse("leaderboard")).content.decode()
    second = client.get(reverse("leaderboard"), {"page": 2}).content.decode()

    assert ">p29<" in first and ">p00<" not in first and "Page 1 of 2" in first
    assert ">p00<" in second and '<td class="num rank">26</td>' in second
    assert client.get(reverse("leaderboard"), {"page": "junk"}).status_code == 200


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_profile_and_leaderboard_run_a_fixed_number_of_queries(
    client, finish_game, tied_game, alice, bob, carol, monkeypatch
):
    monkeypatch.setattr(selectors, "LEADERBOARD_MIN_GAMES", 1)
    profile = reverse("profile", args=["alice"])
    finish_game(alice, seed=1)
    one_game = (queries(client, profile), queries(client, reverse("leaderboard")))
    assert one_game == (9, 2)

    tied_game(alice, bob, carol)
    finish_game(alice, bots=("easy",), seed=2)
    finish_game(alice, bots=("medium", "easy", "hard"), seed=3)

    assert (queries(client, profile), queries(client, reverse("leaderboard"))) == one_game
    assert len(selectors.leaderboard_page(1)["rows"]) == 6  # 3 people and 3 bot levels
