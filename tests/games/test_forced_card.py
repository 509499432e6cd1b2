""" "Play forced cards for me" (issue 32, part 7): the table marks the only card the rules allow
(``data-forced``, with the note that says it is being played) for a player who chose the
option, and only then; the page's script plays it (tests/browser/test_forced_card.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import engine, table
from games.actions import create_game
from games.engine import ChooseTeams, PlayCard, apply, view
from tests.engine.playing import board_done, random_states, tokens_for
from tests.steering import play_until

pytestmark = pytest.mark.django_db

FORCED = re.compile(r'<button type="submit" name="card" value="(\w+)"[^>]*\bdata-forced\b')


def legal_cards(seen: dict) -> set[str]:
    return {m["play"] for m in seen["legal"] if "play" in m}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_only_legal_card_is_marked_forced_and_no_other(players):
    forced_turns = 0
    for state in random_states(players, 400, seed=40 + players):
        for seat in range(players):
            seen = view(state, seat)
            cards = table.hand_cards(seen)
            marked = [c["card"] for c in cards if c["forced"]]
            legal = legal_cards(seen)
            if state.phase == engine.TRICKS and len(legal) == 1:
                assert marked == list(legal)
                forced_turns += 1
            else:
                assert marked == []
    assert forced_turns > 0, "the random games never had a forced card: the test saw nothing"


def test_a_card_held_twice_is_marked_once():
    # Alice (seat 0) holds two blue 1s; a trump (yellow) is led and the blue 1s are the
    # supertrumps: the blue 1 is the one card she may play, and she holds it twice.
    hands = [
        ["B1", "B1", "G5", "G6", "R2", "R3", "R5", "R6", "R7", "R8", "R9", "R10", "G2", "G3"]
        + ["G4", "G7"],
        ["Y4", "Y5", "Y6", "B2", "B3", "B5", "B6", "B7", "B8", "B9", "B10", "Y7", "Y8", "Y9"]
        + ["Y10", "Y2"],
        ["R1", "R1", "R1", "B4", "B1", "G1", "G1", "G1", "Y1", "Y1", "Y1", "G8", "G9", "G10"]
        + ["R4", "Y3"],
    ]
    state = board_done(3, dealer=0, hands=hands, tokens=tokens_for(3, first=1))
    state = apply(state, ChooseTeams(1, (1,), 1))
    state = apply(state, PlayCard(1, "Y4"))
    state = apply(state, PlayCard(2, "Y3"))
    with_english = table.hand_cards(view(state, 0))
    assert [c["card"] for c in with_english if c["playable"]] == ["B1", "B1"]
    assert [c["index"] for c in with_english if c["forced"]] == [0]
    assert with_english[0]["label"] == "blue 1"


@pytest.fixture
def alice_forced(act, alice):
    """alice against two Easy bots, on her turn with exactly one card she may play."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"])

    def forced(state) -> bool:
        seen = view(state, 0)
        return state.phase == engine.TRICKS and state.turn == 0 and len(legal_cards(seen)) == 1

    state = play_until(game, alice, forced, act=act)
    assert forced(state), "the game ended before alice had a forced card"
    return game, next(iter(legal_cards(view(state, 0))))


def table_html(client, game) -> str:
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_forced_card_is_marked_with_the_option_on(client, alice, alice_forced):
    game, card = alice_forced
    alice.play_forced_cards = True
    alice.save(update_fields=["play_forced_cards"])
    client.force_login(alice)

    html = table_html(client, game)

    assert FORCED.findall(html) == [card]
    assert 'data-forced-note data-delay="1500" hidden' in html
    label = table.card_label(card)
    assert f"Playing the {label} for you" in html
    assert 'data-forced-cancel aria-keyshortcuts="Escape"' in html
    # The htmx fragment (a move's answer, a poll) carries it too.
    fragment = client.get(reverse("game", args=[game.pk]), headers={"HX-Request": "true"})
    assert FORCED.findall(fragment.content.decode()) == [card]


def test_nothing_is_marked_with_the_option_off(client, alice, alice_forced):
    game, _ = alice_forced
    assert not alice.play_forced_cards  # off by default
    client.force_login(alice)

    html = table_html(client, game)

    assert FORCED.findall(html) == []
    assert "data-forced-note" not in html


def test_nothing_is_marked_with_a_choice_of_cards(client, act, alice):
    alice.play_forced_cards = True
    alice.save(update_fields=["play_forced_cards"])
    game = act(create_game, alice, players=3, bots=["easy", "easy"])

    def choice(state) -> bool:
        seen = view(state, 0)
        return state.phase == engine.TRICKS and state.turn == 0 and len(legal_cards(seen)) > 1

    play_until(game, alice, choice, act=act)
    client.force_login(alice)

    html = table_html(client, game)

    assert 'class="card-button playable"' in html
    assert FORCED.findall(html) == []
    assert "data-forced-note" not in html
