"""One definition of a game's result (games.results, issue 31): a seat that left is ranked last
whatever its points, and every page, email and API answer says the same, with the reason beside
the winner when a seat that left outscored them.

The game: three people to 1 point, with moves a random.Random picks, found by replaying the
engine so that the seat with the most points does not make the last move. That seat resigns
just before it, so it ends on autopilot with the most points and the stand-in never moves."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import RatingChange
from games import results
from games.models import Seat
from games.player_record import profile_page
from games.stats import place
from tests.steering import finish_with_top_resigned

pytestmark = pytest.mark.django_db


@pytest.fixture
def left_on_top(act, alice, bob, carol):
    return finish_with_top_resigned(act, alice, bob, carol)


def test_the_seat_that_left_is_last_and_the_winner_line_says_why(client, left_on_top):
    game, gone = left_on_top
    seats = {s.user_id: s for s in game.seats.all()}
    totals = {s.position: s.score for s in seats.values()}
    top = seats[gone.pk]
    assert totals[top.position] == max(totals.values())  # the most points...
    winner = max((s for s in seats.values() if s != top), key=lambda s: s.score)

    client.force_login(winner.user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()

    line = html[html.index('class="winner-line"') : html.index("</p>", html.index("winner-line"))]
    assert f"Winner:\n      <strong>{winner.user.name}</strong>" in line
    assert gone.name not in line.split("<span")[0]  # ...never called the winner
    assert f"{gone.name} scored more, but resigned: ranked last." in line
    ranking = html[html.index('<ol class="ranking">') :]
    assert ranking.index(winner.user.name) < ranking.index(gone.name)
    last = ranking[ranking.index(f'data-rank-seat="{top.position}"') :]
    assert 'value="3"' in html and "resigned: ranked last" in last.split("</li>")[0]


def test_the_emails_the_api_the_ratings_and_the_profile_agree(act, client, left_on_top):
    game, gone = left_on_top
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.position)
    result = results.of_seats([s.score for s in seats], seats)
    top = next(s for s in seats if s.user_id == gone.pk)
    assert result.place_of(top.position).rank == 3 and result.outscored_by == [
        result.place_of(top.position)
    ]

    # The game-over email: the winner first, and the reason beside the higher score.
    over = [m for m in mail.outbox if f"game {game.pk}" in m.subject.lower()]
    assert len(over) == 3
    for message in over:
        listed = message.body.split("The final standings:")[1]
        assert listed.index(result.winners[0].name) < listed.index(gone.name)
        assert f"3. {gone.name}: {top.score} (resigned: ranked last)" in listed
    told = {m.to[0]: m.subject for m in over}
    assert told[gone.email] == f"Game {game.pk} is over"  # never "You won"

    # The ratings rank the seats as the result does.
    ranks = dict(RatingChange.objects.filter(game=game).values_list("position", "rank"))
    assert ranks == {p.seat: p.rank for p in result.places}
    # The profile's places come from SQL with the same rule.
    places = dict(Seat.objects.filter(game=game).annotate(at=place()).values_list("position", "at"))
    assert places == ranks
    winner = next(s for s in seats if s.position == result.winners[0].seat)
    recent = profile_page(winner.user.username)["recent"]
    assert [item.won for item in recent if item.game == game] == [True]

    # The API: the same winners and places, with the reason.
    client.force_login(winner.user)
    answer = client.get(f"/api/v1/games/{game.pk}").json()
    assert answer["result"] == result.as_json()
    assert answer["result"]["winners"] == [winner.position]
    assert answer["result"]["places"][-1]["reason"] == "resigned: ranked last"
    assert "winners" not in answer["view"]  # no second, points-only definition


def test_ranks_put_a_seat_that_left_after_every_seat_played_and_share_ties():
    assert results.ranks([10, 10, 3], [False] * 3) == [1, 1, 3]
    assert results.ranks([90, 40, 40], [True, False, False]) == [3, 1, 1]
    assert results.ranks([90, 40, 50], [True, False, True]) == [2, 1, 3]
    result = results.result([90, 40, 50], ["ann", "bob", "cid"], [True, False, True], [True] * 3)
    assert [p.name for p in result.places] == ["bob", "ann", "cid"]
    assert [p.name for p in result.winners] == ["bob"]
    assert [p.name for p in result.outscored_by] == ["ann", "cid"]
    assert result.places[1].reason == "resigned: ranked last"
    timed_out = results.result([9, 1], ["ann", "bob"], [True, False])
    assert timed_out.place_of(0).reason == "left the game: ranked last"
    assert results.result([5, 5], ["a", "b"], [False, False]).outscored_by == []


def test_the_replay_ends_on_the_same_result(client, left_on_top):
    game, gone = left_on_top
    client.force_login(gone)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    last = game.moves.count()
    end = client.get(reverse("game_replay", args=[game.pk]) + f"?step={last}").content.decode()

    def said(html: str) -> tuple[str, list[str]]:
        line = html[html.index('class="winner-line"') : html.index("</p>", html.index("winner"))]
        return line, re.findall(r'data-rank-seat="(\d)"', html)

    assert said(end) == said(page)
    assert f"{gone.name} scored more, but resigned: ranked last." in said(end)[0]
    start = client.get(reverse("game_replay", args=[game.pk]) + "?step=3").content.decode()
    assert "winner-line" not in start
