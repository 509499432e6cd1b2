"""Live play (issue 14): a live turn's timeout comes from the live tick (the sweep is the safety
net), choices made at the same time do not collide, and a player who leaves on autopilot
does not win by it."""

import random
import re
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Rating, RatingChange
from games import engine
from games.actions import StaleVersion, create_game, join_game, resign, submit_move
from games.actions.deadlines import due, tick
from games.models import Game, MoveRecord
from games.player_record import profile_page

from .conftest import form_data, seat_of, state_of

pytestmark = pytest.mark.django_db


def person_first(alice, **options):
    for _ in range(50):
        game = create_game(alice, players=2, bots=["easy"], **options)
        if engine.to_act(state_of(game)) == (0,):
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no deal with the person first")


# --- clocks on time -----------------------------------------------------------------------------


def test_a_live_turn_times_out_at_the_tick_after_its_deadline(act, alice, clock):
    game = act(person_first, alice, move_seconds=60)
    deadline = game.seats.get(user=alice).deadline
    clock.current = deadline - timedelta(seconds=1)
    assert act(tick)["timeouts"] == 0, "early: nothing"
    clock.current = deadline
    assert act(tick)["timeouts"] == 1
    assert MoveRecord.objects.filter(game=game, seat=0, timeout=True).count() == 1
    assert act(tick)["timeouts"] == 0, "once"


def test_the_sweep_still_times_out_a_live_turn_the_tick_missed(
    act, alice, clock, django_capture_on_commit_callbacks
):
    game = act(person_first, alice, move_seconds=60)
    clock.advance(seconds=61)  # no tick ran
    with django_capture_on_commit_callbacks(execute=True):
        assert due()["timeouts"] == 1
    assert MoveRecord.objects.filter(game=game, seat=0, timeout=True).count() == 1


def test_the_tick_leaves_correspondence_turns_to_the_sweep(act, alice, clock):
    game = act(person_first, alice, time_control="correspondence", move_seconds=86400)
    clock.advance(days=2)
    assert act(tick)["timeouts"] == 0
    assert not MoveRecord.objects.filter(game=game, timeout=True).exists()


def test_a_live_clock_gives_back_the_time_the_page_takes_to_show_the_bots_moves(
    act, alice, settings
):
    settings.BOT_PAUSE_SECONDS = 0.5
    for _ in range(50):
        game = act(create_game, alice, players=3, bots=["easy", "easy"], move_seconds=60)
        run = list(game.moves.order_by("number").values_list("by_bot", flat=True))
        if run and all(run):  # the bots moved first, then it was alice's turn
            break
        Game.objects.filter(pk=game.pk).delete()
    else:
        raise AssertionError("no deal with the bots first")
    seat = game.seats.get(user=alice)
    assert seat.deadline - seat.acting_since == timedelta(seconds=60 + 0.5 * len(run))
    settings.BOT_PAUSE_SECONDS = 0
    game = act(person_first, alice, move_seconds=60)
    seat = game.seats.get(user=alice)
    assert seat.deadline - seat.acting_since == timedelta(seconds=60), "nothing to show first"


def test_a_live_turn_s_reminder_comes_at_the_tick_at_three_quarters_once_if_away(act, alice, clock):
    alice.email_turn = "never"  # only the reminder, then
    alice.save()
    game = act(person_first, alice, move_seconds=60)
    clock.advance(seconds=44)
    assert act(tick)["reminders"] == 0
    clock.advance(seconds=1)  # 75% of a minute
    assert act(tick)["reminders"] == 1
    clock.advance(seconds=1)
    assert act(tick)["reminders"] == 0, "once"
    assert [m.subject for m in mail.outbox if f"game {game.pk}" in m.subject]


def test_no_live_reminder_for_a_player_on_the_site(act, alice, clock):
    game = act(person_first, alice, move_seconds=60)
    alice.last_seen = clock.current
    alice.save()
    clock.advance(seconds=50)
    assert act(tick)["reminders"] == 0
    assert not [m for m in mail.outbox if f"game {game.pk}" in m.subject]


def test_the_tick_queues_again_a_live_bot_turn_whose_task_was_lost(act, alice, clock, monkeypatch):
    from games import queue

    for _ in range(50):
        game = create_game(alice, players=2, bots=["easy"], move_seconds=60)  # nothing queued
        if engine.to_act(state_of(game)) == (1,):
            break
        Game.objects.filter(pk=game.pk).delete()
    queued = []
    monkeypatch.setattr(queue, "publish", lambda *task, **options: queued.append(task) or True)
    clock.advance(seconds=2)
    assert tick()["stalled"] == 0, "not lost yet"
    clock.advance(seconds=2)
    assert tick()["stalled"] == 1
    assert queued == [("games.tasks.play_bots", game.pk, game.version)]
    assert tick()["stalled"] == 0, "queued a moment ago"
    clock.advance(seconds=4)
    assert tick()["stalled"] == 1, "still lost: again"
    game.refresh_from_db()
    assert game.catchup_attempts == 0 and game.catchup_queued_at is None, "the sweep's own"
    clock.advance(minutes=2)
    assert tick()["stalled"] == 0, "lost for minutes: the sweep's to queue, with its retries"
    assert due()["stalled"] == 1


def test_the_tick_waits_longer_for_a_table_with_no_person_left(act, alice, clock, monkeypatch):
    """Its slices stand in the catch-up queue behind other such tables'."""
    from games import queue

    game = create_game(alice, players=3, bots=["easy", "easy"], move_seconds=60)
    resign(alice, game.pk)  # its bot turns queued (the test's transaction: not sent)
    queued = []
    monkeypatch.setattr(queue, "publish", lambda *task, **options: queued.append(task) or True)
    clock.advance(seconds=10)
    assert tick()["stalled"] == 0
    clock.advance(seconds=6)
    assert tick()["stalled"] == 1
    assert queued == [("games.tasks.play_bots", game.pk, Game.objects.get(pk=game.pk).version)]


def test_the_tick_leaves_the_broker_alone_while_it_is_held_off(act, alice, clock, monkeypatch):
    from games import queue

    game = create_game(alice, players=3, bots=["easy", "easy"], move_seconds=60)
    resign(alice, game.pk)
    clock.advance(minutes=1)
    monkeypatch.setattr(queue, "held_off", lambda: True)
    monkeypatch.setattr(queue, "publish", lambda *task, **options: pytest.fail("published"))
    assert tick()["stalled"] == 0


# --- simultaneous choices -----------------------------------------------------------------------


def discard_phase(act, people, rng):
    """A game of ``people`` (3) at the start of a discard (or pass) phase: everyone to choose."""
    for _ in range(20):
        game = act(create_game, people[0], players=3)
        for person in people[1:]:
            act(join_game, person, game.pk)
        for _ in range(200):
            state = state_of(game)
            if state.phase == engine.DISCARD and len(engine.to_act(state)) == 3:
                return game
            if state.phase not in (engine.BOARD, engine.TEAMS):
                break
            seat = engine.to_act(state)[0]
            move = rng.choice(engine.view(state, seat)["legal"])
            del move["seat"]
            person = next(p for p in people if seat_of(game, p) == seat)
            act(submit_move, person, game.pk, game.version, move)
    raise AssertionError("no round with discards")


def choice_of(game, person):
    move = engine.view(state_of(game), seat_of(game, person))["legal"][0]
    del move["seat"]
    return move


def test_a_choice_made_while_others_chose_is_taken_and_nothing_else_stale_is(
    act, alice, bob, carol
):
    game = discard_phase(act, [alice, bob, carol], random.Random(1))
    version, round_number = game.version, state_of(game).round
    act(submit_move, alice, game.pk, version, choice_of(game, alice), round_number=round_number)
    # bob's page still says `version`: his choice is his to make in that round, so it is taken
    act(submit_move, bob, game.pk, version, choice_of(game, bob), round_number=round_number)
    assert state_of(game).choices[seat_of(game, bob)] is not None
    # but not twice, nor as another round's
    with pytest.raises(StaleVersion):
        submit_move(bob, game.pk, version, {"discard": []}, round_number=round_number)
    with pytest.raises(StaleVersion):
        submit_move(carol, game.pk, version, choice_of(game, carol), round_number=round_number - 1)
    # without its round, the version tells: one of this discard phase's (the API's clients)
    act(submit_move, carol, game.pk, version, choice_of(game, carol))
    assert state_of(game).phase != engine.DISCARD and state_of(game).round == round_number


def hidden_inputs(page: str) -> dict:
    """The hidden fields of the page's discard or pass form, as the browser would post them."""
    form = re.search(r'<form [^>]*class="choice-form"[^>]*>(.*?)</form>', page, re.S).group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))


def test_a_choice_posted_from_a_page_loaded_before_another_seat_chose_is_taken(
    act, client, alice, bob, carol
):
    game = discard_phase(act, [alice, bob, carol], random.Random(1))
    client.force_login(bob)
    fields = hidden_inputs(client.get(reverse("game", args=[game.pk])).content.decode())
    assert fields["version"] == str(game.version)
    round_number = state_of(game).round
    assert fields["round"] == str(round_number)
    alices = choice_of(game, alice)
    act(submit_move, alice, game.pk, game.version, alices, round_number=round_number)
    choice = form_data({"seat": seat_of(game, bob), **choice_of(game, bob)})
    post = {**fields, **choice}
    page = client.post(reverse("game_move", args=[game.pk]), post, follow=True)
    assert state_of(game).choices[seat_of(game, bob)] is not None, "his choice is taken"
    assert "The game has moved on" not in page.content.decode()
    moves = game.moves.count()
    page = client.post(reverse("game_move", args=[game.pk]), post, follow=True)
    assert page.status_code == 200
    assert "The game has moved on" in page.content.decode(), "not twice"
    assert game.moves.count() == moves


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_seats_choosing_in_the_same_instant_are_both_taken(on_postgres, alice, bob, carol):
    from django.db import connection

    game = discard_phase(lambda f, *a, **k: f(*a, **k), [alice, bob, carol], random.Random(2))
    version, round_number = game.version, state_of(game).round
    moves = {p.pk: choice_of(game, p) for p in (alice, bob)}
    start = threading.Barrier(2)
    errors = []

    def choose(person):
        try:
            start.wait()
            submit_move(person, game.pk, version, moves[person.pk], round_number=round_number)
        except Exception as error:  # the test reports it
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=choose, args=(p,)) for p in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    state = state_of(game)
    assert [state.choices[seat_of(game, p)] is not None for p in (alice, bob, carol)] == [
        True,
        True,
        False,
    ]
    assert game.moves.count() == MoveRecord.objects.filter(game=game).count()
    assert game.version == version + 2, "each taken once"


# --- fair autopilot -----------------------------------------------------------------------------


def absent_until_over(
    act, game, present, clock, rng, django_capture_on_commit_callbacks, until=None
):
    """``present`` plays random moves; whoever else must act times out (the sweep's stand-in),
    then plays on autopilot; until the game is over, or ``until(game)``."""
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED or (until and until(game)):
            return game
        state = state_of(game)
        seat = seat_of(game, present)
        if seat in engine.to_act(state):
            move = rng.choice(engine.view(state, seat)["legal"])
            del move["seat"]
            act(submit_move, present, game.pk, game.version, move)
        else:
            clock.advance(minutes=2)
            with django_capture_on_commit_callbacks(execute=True):
                due()
    raise AssertionError("the game did not end")


def test_a_player_who_leaves_on_autopilot_ranks_last_and_is_not_told_they_won(
    act, client, alice, bob, clock, django_capture_on_commit_callbacks
):
    for attempt in range(6):
        mail.outbox.clear()
        game = act(create_game, alice, players=2, move_seconds=60)
        act(join_game, bob, game.pk)
        game = absent_until_over(
            act, game, alice, clock, random.Random(attempt), django_capture_on_commit_callbacks
        )
        alice_seat, bob_seat = seat_of(game, alice), seat_of(game, bob)
        totals = engine.game_standings(state_of(game)).totals
        if totals[bob_seat] > totals[alice_seat]:
            break  # the autopilot (Medium) outscored alice's random play: the case to prove
    else:
        raise AssertionError("the autopilot never outscored random play")
    assert game.seats.get(user=bob).autopilot
    ranks = dict(RatingChange.objects.filter(game=game).values_list("user__username", "rank"))
    assert ranks == {"alice": 1, "bob": 2}, "bob scored more, but left: last"
    bob_rating = Rating.objects.get(user=bob)
    assert bob_rating.mu < 25, "he lost rating"
    subjects = {
        m.to[0]: m.subject for m in mail.outbox if "over" in m.subject or "won" in m.subject
    }
    assert subjects["bob@example.com"] == f"Game {game.pk} is over"
    assert subjects["alice@example.com"] == f"You won game {game.pk}!", "she played it"
    total = profile_page("bob", clock.current)["total"]
    assert (total.finished, total.wins, total.abandoned) == (0, 0, 1)
    assert total.points_per_round is None  # the autopilot's rounds are not his
    assert MoveRecord.objects.filter(game=game, seat=bob_seat, autopilot=True).exists()
    client.force_login(alice)
    log = client.get(reverse("game_log", args=[game.pk])).content.decode()
    assert AUTOPILOT in log
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert re.findall(r'data-rank-seat="(\d)"', page) == [str(alice_seat), str(bob_seat)]
    assert "left the game: ranked last" in page
    replay = reverse("game_replay", args=[game.pk])
    moves = MoveRecord.objects.filter(game=game).order_by("number")
    for step, mark in (
        (moves.filter(autopilot=True).first().number, AUTOPILOT),
        (moves.filter(timeout=True).first().number, TIMED_OUT),
        (moves.filter(seat=alice_seat).first().number, None),
    ):
        shown = replay_move(client.get(f"{replay}?step={step}").content.decode())
        assert (mark and mark in shown) or (not mark and "a bot moved" not in shown), step


AUTOPILOT, TIMED_OUT = "(autopilot: a bot moved)", "(timed out: a bot moved)"


def replay_move(page: str) -> str:
    """The replay's line saying which move this step is."""
    return re.search(r'<p class="replay-move"[^>]*>(.*?)</p>', page, re.S).group(1)


def test_the_side_log_marks_a_move_made_on_autopilot(
    act, client, alice, bob, clock, django_capture_on_commit_callbacks
):
    game = act(create_game, alice, players=2, move_seconds=60)
    act(join_game, bob, game.pk)

    def autopilot_this_round(game):
        this_round = state_of(game).round
        return MoveRecord.objects.filter(game=game, autopilot=True, round=this_round).exists()

    game = absent_until_over(
        act,
        game,
        alice,
        clock,
        random.Random(0),
        django_capture_on_commit_callbacks,
        until=autopilot_this_round,
    )
    assert game.status != Game.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    log = re.search(r'<ol class="log-list".*?</ol>', page, re.S).group(0)
    assert AUTOPILOT in log


def test_a_game_nobody_played_after_its_first_round_is_unrated(
    act, alice, clock, django_capture_on_commit_callbacks
):
    game = act(create_game, alice, players=3, bots=["easy", "easy"], move_seconds=60)
    seat, rng = seat_of(game, alice), random.Random(3)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = state_of(game)
        if state.round == 1 and seat in engine.to_act(state):  # she plays round 1 herself
            move = rng.choice(engine.view(state, seat)["legal"])
            del move["seat"]
            act(submit_move, alice, game.pk, game.version, move)
            continue
        clock.advance(minutes=2)  # then she is gone: timeouts, then autopilot
        with django_capture_on_commit_callbacks(execute=True):
            due()
    assert game.status == Game.Status.FINISHED and game.seats.get(user=alice).autopilot
    hers = MoveRecord.objects.filter(game=game, seat=seat, by_bot=False)
    assert hers.filter(round=1).exists() and not hers.filter(round__gt=1).exists()
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user=alice).exists()
