"""The first-game guide (games.tutorial): a private, clockless round on a fixed deal whose hints,
followed, play it to its end; unrated and left out of records, stats, the lobby and emails."""

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import RatingChange
from games import engine, player_record, selectors, stats, tutorial
from games.actions import abort_game, submit_move
from games.actions.tutorial import start
from games.models import Game, PendingEmail, Seat

pytestmark = pytest.mark.django_db


def hint_of(game, user):
    return selectors.game_page(game.pk, user)["tutorial"]


def follow_hints(act, game, user, until=None) -> list[dict]:
    """Make the hint's suggested move whenever it is the user's turn, until the tutorial ends
    (or ``until(state)``); every hint shown on the way."""
    hints = []
    for _ in range(200):
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if until and until(state):
            return hints
        hint = hint_of(game, user)
        hints.append(hint)
        if game.status != Game.Status.ACTIVE:
            return hints
        move = dict(hint["move"])
        del move["seat"]
        act(submit_move, user, game.pk, game.version, move, round_number=state.round)
    raise AssertionError("the tutorial did not end")


@pytest.fixture
def game(act, alice):
    return act(start, alice)


def test_a_tutorial_is_a_private_clockless_table_against_bots_on_the_fixed_deal(act, alice, game):
    assert game.tutorial and game.seed == tutorial.SEED and game.players == tutorial.PLAYERS
    assert game.visibility == Game.Visibility.PRIVATE and game.status == Game.Status.ACTIVE
    seats = list(game.seats.select_related("user"))
    assert seats[0].user == alice and all(s.user.is_site_bot for s in seats[1:])
    state = engine.state_from_json(game.state)
    assert state == engine.new_game(4, tutorial.SEED, 1)  # the same deal for everyone
    assert state.dealer == 0  # the newcomer places the first Token
    mine = Seat.objects.get(game=game, position=0)
    assert mine.acting_since is not None and mine.deadline is None  # no clock
    assert act(start, alice).pk == game.pk  # resumed, not a second one
    assert tutorial.unfinished(alice) == game and not tutorial.finished(alice)


def test_following_the_hints_plays_one_round_through_every_step_to_the_end(act, alice, game):
    hints = follow_hints(act, game, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    state = engine.state_from_json(game.state)
    assert len(state.results) == 1  # one round
    result = state.results[0]
    # The deal teaches every step: the newcomer forms the teams, passes a card, and wins.
    assert result.terms.first == 0 and result.terms.discard == "pass_left"
    assert result.scores[0] == max(result.scores) > 0
    steps = [h["step"] for h in hints]
    assert steps[0] == "board" and steps[-1] == "done"
    assert {"board", "teams", "discard", "tricks", "done"} == set(steps)
    for hint in hints[:-1]:  # each of the player's moves had a hint and a suggestion
        assert hint["title"] and hint["lines"] and hint["try"].startswith("Try: ")
    assert hints[-1]["done"] and hints[-1]["title"] == "You finished the tutorial"
    kinds = {next(k for k in h["move"] if k != "seat") for h in hints[:-1]}
    assert kinds == {"token", "teams", "pass", "play"}
    assert tutorial.finished(alice) and tutorial.offer(alice) is None


def test_a_finished_tutorial_is_unrated_and_left_out_of_records_stats_lobby_and_emails(
    act, alice, game
):
    follow_hints(act, game, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()
    assert not PendingEmail.objects.filter(args__0=game.pk).exists()
    site = stats.site_stats()
    assert site["games_total"] == 0 and site["vetoed"] == [] and site["by_points"] == []
    total, by_players = stats.player_rounds(alice)
    assert total.rounds == 0 and by_players == []
    assert stats.vetoed_boxes(alice)["all"] == []
    assert stats.places(alice)["all"] == []
    assert stats.trump_colors(alice)["chart"] is None
    assert not player_record.started_seats(alice, game.finished_at).exists()
    assert selectors.lobby(alice)["my_games"]["ended"] == []
    assert game not in selectors.lobby(alice)["open_games"]


def test_the_hint_follows_any_legal_move_not_only_the_suggested_one(act, alice, game):
    state = engine.state_from_json(game.state)
    hint = hint_of(game, alice)
    other = next(
        m for m in engine.view(state, 0)["legal"] if m != hint["move"]
    )  # not the suggestion
    del other["seat"]
    act(submit_move, alice, game.pk, game.version, other)
    game.refresh_from_db()
    assert game.moves_made >= 1
    later = hint_of(game, alice)
    assert later["step"] == "board" and later["title"] and later["lines"]


def test_a_round_at_minus_two_points_still_ends_the_tutorial(act, alice, game):
    """Nobody reaches the target of 1 then: the tutorial still ends after its round."""
    # The newcomer says "nyet!" to every positive points box while one is open, and to the
    # suggested box otherwise; the bots' tokens then leave -2 on line 5 (fixed seed and moves).
    for _ in range(30):
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if state.phase != engine.BOARD:
            break
        positive = [b for b in state.open["points"] if b != "-2"]
        legal = engine.view(state, 0)["legal"]
        wanted = [m for m in legal if m["token"][0] == "points" and m["token"][1] in positive]
        move = dict((wanted or [hint_of(game, alice)["move"]])[0])
        del move["seat"]
        act(submit_move, alice, game.pk, game.version, move)
    assert state.terms.points == -2
    hints = follow_hints(act, game, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert engine.state_from_json(game.state).round == 2  # dealt, never played
    assert hints[-1]["done"]
    page = selectors.game_page(game.pk, alice)
    assert page["seen"]["legal"] == [] and not page["my_turn"]
    assert not RatingChange.objects.filter(game=game).exists()


def test_every_phase_has_its_hint_in_french(act, alice, game):
    """The hints are fully translated: each step reads differently in French."""
    english, french = {}, {}
    for _ in range(200):
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        hint = hint_of(game, alice)
        with translation.override("fr"):
            french_hint = hint_of(game, alice)
        english.setdefault(hint["step"], hint)
        french.setdefault(hint["step"], french_hint)
        if game.status != Game.Status.ACTIVE:
            break
        move = dict(hint["move"])
        del move["seat"]
        act(submit_move, alice, game.pk, game.version, move, round_number=state.round)
    assert set(french) == {"board", "teams", "discard", "tricks", "done"}
    for step, hint in english.items():
        theirs = french[step]
        assert theirs["title"] != hint["title"], step
        assert all(a != b for a, b in zip(hint["lines"], theirs["lines"], strict=True)), step
        if "try" in hint:
            assert theirs["try"].startswith("Essayez"), theirs["try"]


def test_an_aborted_tutorial_shows_no_hint_and_a_new_one_can_start(act, alice, game):
    act(abort_game, alice, game.pk)
    assert "tutorial" not in selectors.game_page(game.pk, alice)
    again = act(start, alice)
    assert again.pk != game.pk and again.tutorial


# --- pages ---------------------------------------------------------------------------------------


def test_the_rules_page_links_to_the_tutorial_and_a_visitor_signs_up_first(client):
    rules = client.get(reverse("rules"))
    assert reverse("tutorial") in rules.content.decode()
    answer = client.get(reverse("tutorial"))
    assert answer.status_code == 302
    assert answer.url == f"{reverse('account_signup')}?next=%2Ftutorial%2F"


def test_the_tutorial_page_starts_then_resumes_the_same_game(client, alice):
    client.force_login(alice)
    page = client.get(reverse("tutorial"))
    assert page.status_code == 200 and "Start the tutorial" in page.content.decode()
    started = client.post(reverse("tutorial_start"))
    game = Game.objects.get(tutorial=True)
    assert started.status_code == 302 and started.url == reverse("game", args=[game.pk])
    again = client.post(reverse("tutorial_start"))
    assert again.url == started.url and Game.objects.filter(tutorial=True).count() == 1
    assert "Resume the tutorial" in client.get(reverse("tutorial")).content.decode()
    table = client.get(started.url).content.decode()
    assert 'id="tutorial-hint"' in table and "Try: " in table and " suggested" in table


def test_the_lobby_offers_the_tutorial_until_it_is_finished(act, client, alice):
    client.force_login(alice)
    assert "Learn to play" in client.get(reverse("lobby")).content.decode()
    game = act(start, alice)
    assert "Resume the tutorial" in client.get(reverse("lobby")).content.decode()
    follow_hints(act, game, alice)
    assert "tutorial-offer" not in client.get(reverse("lobby")).content.decode()
    done = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "You finished the tutorial" in done and reverse("rules") in done


def test_a_new_account_is_offered_the_tutorial_after_signing_up(client):
    answer = client.post(
        reverse("account_signup"),
        {
            "email": "newcomer@example.com",
            "username": "newcomer",
            "password1": "a-long-secret-pw",
            "password2": "a-long-secret-pw",
        },
    )
    assert answer.status_code == 302 and answer.url == reverse("tutorial")


def test_the_start_refuses_a_get_and_a_visitor(client):
    assert client.get(reverse("tutorial_start")).status_code == 405
    answer = client.post(reverse("tutorial_start"))
    assert answer.status_code == 302 and "login" in answer.url
    assert not Game.objects.exists()
