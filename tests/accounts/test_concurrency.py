"""Two games that end at the same moment with the same player: both are rated, one after the
other, and neither update is lost (PostgreSQL: real row locks between two connections)."""

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from accounts.models import Rating, RatingChange
from games import engine, ratings
from games.actions import create_game, join_game, submit_move
from games.models import Game
from games.ratings import DEFAULT

from .conftest import play_out, state_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def one_move_from_the_end(state) -> bool:
    return any(
        engine.apply(state, engine.move_from_json(move)).phase == engine.OVER
        for seat in engine.to_act(state)
        for move in engine.view(state, seat)["legal"]
    )


def last_move(game):
    """(person, move) that ends the game."""
    state = state_of(game)
    for seat in engine.to_act(state):
        for move in engine.view(state, seat)["legal"]:
            if engine.apply(state, engine.move_from_json(move)).phase == engine.OVER:
                del move["seat"]
                return game.seats.get(position=seat).user, move
    raise AssertionError("not one move from the end")


def run(action, *args, **kwargs):
    return action(*args, **kwargs)


def test_two_games_ending_at_once_rate_the_shared_player_twice(
    on_postgres, alice, bob, carol, monkeypatch
):
    games = []
    for first, seed in ((alice, 1), (carol, 2)):
        game = create_game(first, players=2, target=1)
        join_game(bob, game.pk)
        games.append(
            play_out(run, game, [first, bob], random.Random(seed), until=one_move_from_the_end)
        )
    finals = [(game, *last_move(game)) for game in games]
    # His rating row exists already: the two games contend for it, not for creating it.
    Rating.objects.create(user=bob, mu=DEFAULT[0], sigma=DEFAULT[1])
    barrier = threading.Barrier(len(finals))
    # Rating takes a while, so the two games' transactions surely overlap.
    slow_rate = ratings.rate

    def rate(*args):
        time.sleep(0.5)
        return slow_rate(*args)

    monkeypatch.setattr(ratings, "rate", rate)

    def finish(final):
        game, person, move = final
        barrier.wait()
        try:
            submit_move(person, game.pk, game.version, move)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(finals)) as pool:
        list(pool.map(finish, finals))

    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    rating = Rating.objects.get(user=bob)
    assert rating.games == 2
    starts = [(c.mu_before, c.sigma_before) for c in RatingChange.objects.filter(user=bob)]
    ends = [(c.mu_after, c.sigma_after) for c in RatingChange.objects.filter(user=bob)]
    # One game started from where the other left him, and he ended where the later one did.
    assert DEFAULT in starts and any(start in ends for start in starts)
    assert (rating.mu, rating.sigma) in ends and (rating.mu, rating.sigma) not in starts
