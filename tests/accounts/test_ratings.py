"""Ratings: each finished game rated once, in the transaction that finishes it; ties as ties;
bots rated too; unfinished games never; and every stored figure recomputed from the records."""

import io
import random

import pytest
from django.core.management import call_command

from accounts.models import Rating, RatingChange, User, bot_user, shown
from games.actions import create_game
from games.models import Game, Round, RoundSeat
from games.ratings import DEFAULT, rate, rate_finished_game
from games.results import ranks

from .conftest import TIE_TOTALS, play_out, state_of

pytestmark = pytest.mark.django_db


def snapshot():
    ratings = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    changes = {
        (c.game_id, c.position): (
            c.user_id,
            c.score,
            c.rank,
            c.mu_before,
            c.sigma_before,
            c.mu_after,
            c.sigma_after,
        )
        for c in RatingChange.objects.all()
    }
    return ratings, changes


def assert_recomputed_from_the_records():
    """The stored ratings are what replaying every finished game from its seats gives."""
    stored = snapshot()
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert f"Rated {Game.objects.filter(status=Game.Status.FINISHED).count()} finished" in (
        out.getvalue()
    )
    ratings, changes = snapshot()
    assert set(ratings) == set(stored[0])
    for key, values in stored[0].items():
        assert ratings[key] == pytest.approx(values)
    assert set(changes) == set(stored[1])
    for key, values in stored[1].items():
        assert changes[key] == pytest.approx(values)


def test_ranks_share_a_place_on_equal_totals():
    assert ranks([10, 10, 3], [False] * 3) == [1, 1, 3]
    assert ranks([3, 10, 10, 12], [False] * 4) == [4, 2, 2, 1]
    assert ranks([5, 5], [False] * 2) == [1, 1]


def test_rate_moves_the_winner_up_and_ties_alike():
    after = rate([DEFAULT] * 3, ranks([10, 10, 3], [False] * 3))
    assert after[0] == after[1]
    assert after[0][0] > DEFAULT[0] > after[2][0]
    assert all(sigma < DEFAULT[1] for _, sigma in after)


def test_a_finished_game_is_rated_once_in_the_same_transaction(finish_game, alice):
    game = finish_game(alice)

    assert game.status == Game.Status.FINISHED
    changes = list(RatingChange.objects.filter(game=game))
    assert [c.position for c in changes] == [0, 1, 2]
    seats = list(game.seats.all())
    assert [c.score for c in changes] == [s.score for s in seats]
    assert [c.rank for c in changes] == ranks([s.score for s in seats], [False] * 3)
    mine = Rating.objects.get(user=alice)
    assert mine.games == 1
    assert (mine.mu, mine.sigma) == pytest.approx((changes[0].mu_after, changes[0].sigma_after))

    # Called again (a retried task, say): nothing changes.
    before = snapshot()
    rate_finished_game(game, state_of(game))
    assert snapshot() == before


def test_a_bot_level_is_one_rated_player_with_the_mean_of_its_seats(finish_game, alice):
    game = finish_game(alice, bots=("easy", "easy"))

    easy = bot_user("easy")
    rating = Rating.objects.get(user=easy)
    seats = list(RatingChange.objects.filter(game=game, user=easy))
    assert len(seats) == 2 and rating.games == 2
    assert rating.mu == pytest.approx(sum(c.mu_after for c in seats) / 2)
    assert rating.sigma == pytest.approx(sum(c.sigma_after for c in seats) / 2)
    # Both seats were rated from the level's rating before the game.
    assert {(c.mu_before, c.sigma_before) for c in seats} == {DEFAULT}


def test_a_tie_is_rated_as_a_tie(tied_game, alice, bob, carol):
    game = tied_game(alice, bob, carol)

    assert [s.score for s in game.seats.all()] == TIE_TOTALS
    first, second, third = RatingChange.objects.filter(game=game)
    assert first.rank == second.rank == 1 and third.rank == 3
    assert (first.mu_after, first.sigma_after) == pytest.approx(
        (second.mu_after, second.sigma_after)
    )
    assert first.mu_after > DEFAULT[0] > third.mu_after


def test_a_game_that_never_finishes_is_never_rated(act, alice):
    game = act(create_game, alice, players=3, bots=["easy", "easy"], target=1)
    game = play_out(act, game, [alice], random.Random(2), until=lambda s: len(s.tricks) >= 2)

    assert game.status == Game.Status.ACTIVE
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user=alice).exists()


def test_ratings_follow_the_games_in_order_and_recompute_from_the_records(
    finish_game, tied_game, alice, bob, carol
):
    finish_game(alice, seed=1)
    tied_game(alice, bob, carol)
    finish_game(bob, bots=("medium",), seed=2)
    finish_game(alice, bots=("easy", "medium", "easy"), seed=3)

    alice_changes = RatingChange.objects.filter(user=alice).order_by("game_id")
    # Each game starts from where the last one left her.
    for earlier, later in zip(alice_changes, alice_changes[1:], strict=False):
        assert (later.mu_before, later.sigma_before) == pytest.approx(
            (earlier.mu_after, earlier.sigma_after)
        )
    assert Rating.objects.get(user=alice).games == 3
    assert_recomputed_from_the_records()


def test_stored_totals_match_the_rounds(finish_game, alice):
    game = finish_game(alice)

    for change in RatingChange.objects.filter(game=game):
        parts = RoundSeat.objects.filter(round__game=game, position=change.position)
        assert parts.count() == Round.objects.filter(game=game).count()
        assert change.score == sum(p.score for p in parts)


def test_a_deleted_players_seats_keep_their_history(finish_game, tied_game, alice, bob, carol):
    from accounts.actions import delete_account

    tied_game(alice, bob, carol)
    finish_game(bob, seed=4)
    delete_account(User.objects.get(pk=alice.pk))

    gone = RatingChange.objects.get(user__isnull=True)
    assert gone.position == 0 and gone.rank == 1
    assert_recomputed_from_the_records()


def test_a_rating_is_shown_on_the_familiar_scale_from_the_openskill_figures():
    new = shown(*DEFAULT)
    assert (new.value, new.spread, new.provisional, str(new)) == (1500, 350, True, "1500?")
    settled = shown(DEFAULT[0] + 2.0, 6.0)
    assert (settled.value, settled.spread, settled.provisional, str(settled)) == (
        1584,
        252,
        False,
        "1584",
    )
    # A player's shown rating moves as their mu moves: a win raises it, a loss lowers it.
    after = rate([DEFAULT] * 3, ranks([10, 5, 3], [False] * 3))
    values = [shown(mu, sigma).value for mu, sigma in after]
    assert values[0] > 1500 > values[2]
