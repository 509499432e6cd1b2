"""Stats read from the records (games.stats): each figure checked against the same games'
results worked out here from the engine's replay of their move logs, a fixed number of queries
however many games, and the pages in both languages."""

import random
import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from games import engine, stats
from games.actions import create_game, resign
from games.models import Game, MoveRecord
from games.player_record import profile_page
from games.table import box_label

from .conftest import play_out

pytestmark = pytest.mark.django_db


def replayed(game: Game):
    """(final state, moves) of a finished game, from its move log."""
    moves = [engine.move_from_json(r.move) for r in MoveRecord.objects.filter(game=game)]
    return engine.replay(game.players, game.seed, game.target, moves), moves


def expected_rounds(games, user):
    """Per player count: rounds, points, tricks, loot, bonus rounds, on the bonus team, first."""
    figures = {}
    for game in games:
        seat = game.seats.get(user=user).position
        state, _ = replayed(game)
        row = figures.setdefault(game.players, Counter())
        for result in state.results:
            mine = next(team for team in result.teams if seat in team)
            row["rounds"] += 1
            row["points"] += result.scores[seat]
            row["tricks"] += result.tricks[seat]
            row["loot"] += result.loot[seat]
            row["first"] += result.terms.first == seat
            if result.bonus is not None:
                row["bonus_rounds"] += 1
                row["bonus_team"] += result.bonus in mine
    return figures


@pytest.fixture
def games(finish_game, alice):
    """Three finished games of alice's, at 3 and 5 players (bonus cards) and at 2."""
    return [
        finish_game(alice, bots=("easy", "medium"), seed=1),
        finish_game(alice, bots=("easy", "easy", "medium", "easy"), seed=2),
        finish_game(alice, bots=("easy",), seed=3),
    ]


def test_a_players_rounds_are_counted_from_the_records(games, alice, django_assert_num_queries):
    with django_assert_num_queries(1):
        total, by_players = stats.player_rounds(alice)
    expected = expected_rounds(games, alice)
    assert [f.players for f in by_players] == sorted(expected)
    for figures in by_players:
        wanted = expected[figures.players]
        for name in ("rounds", "points", "tricks", "loot", "bonus_rounds", "bonus_team", "first"):
            assert getattr(figures, name) == wanted[name], (figures.players, name)
    assert total.rounds == sum(e["rounds"] for e in expected.values())
    assert total.points_per_round == pytest.approx(
        sum(e["points"] for e in expected.values()) / total.rounds
    )
    assert expected[5]["bonus_rounds"] and total.bonus_team_percent is not None


def test_vetoed_boxes_and_trump_colors(games, alice, django_assert_num_queries):
    """Over all games and by player count (alice played at 2, 3 and 5 players)."""
    vetoed = {None: Counter()}
    trumps = {None: Counter()}
    points = {None: Counter()}
    for game in games:
        seat = game.seats.get(user=alice).position
        state, moves = replayed(game)
        for players in (None, game.players):
            vetoed.setdefault(players, Counter()).update(
                (m.line, m.box)
                for m in moves
                if isinstance(m, engine.PlaceToken) and m.seat == seat
            )
            for result in state.results:
                trumps.setdefault(players, Counter())[result.terms.trump] += 1
                points.setdefault(players, Counter())[result.terms.trump] += result.scores[seat]
    with django_assert_num_queries(1):
        top = stats.vetoed_boxes(alice)
    assert sorted(top["by_players"]) == [2, 3, 5]
    for players, rows in [(None, top["all"]), *top["by_players"].items()]:
        wanted = sorted(vetoed[players].items(), key=lambda item: (-item[1], item[0]))
        wanted = wanted[: stats.TOP_BOXES]
        assert [row["count"] for row in rows] == [count for _, count in wanted], players
        assert [row["box"] for row in rows] == [box_label(line, box) for (line, box), _ in wanted]
    with django_assert_num_queries(1):
        trump_colors = stats.trump_colors(alice)
    assert [row["players"] for row in trump_colors["by_players"]] == [2, 3, 5]
    by_players = [(row["players"], row["colors"]) for row in trump_colors["by_players"]]
    for players, colors in [(None, trump_colors["colors"]), *by_players]:
        assert [c["color"] for c in colors] == list(engine.BOXES["trump"])
        for c in colors:
            rounds = trumps[players][c["color"]]
            assert c["rounds"] == rounds, (players, c["color"])
            if rounds:
                assert c["points"] == pytest.approx(points[players][c["color"]] / rounds)
            else:
                assert c["points"] is None
    tallest = max(trump_colors["colors"], key=lambda c: c["rounds"])
    assert tallest["height"] == stats.BAR_HEIGHT


def test_a_game_left_to_the_stand_in_counts_in_neither_the_profile_nor_the_stats(
    act, finish_game, alice
):
    """A game alice resigned (the stand-in played her seat to the end) is abandoned for her: its
    rounds, place and boxes are not hers, on the profile as in games.stats."""
    finished = finish_game(alice, bots=("easy",), seed=3)
    left = act(create_game, alice, players=3, bots=["easy", "easy"], target=1)
    play_out(act, left, [alice], random.Random(5), until=lambda s: len(s.tricks) >= 1)
    act(resign, alice, left.pk)
    left.refresh_from_db()
    assert left.status == Game.Status.FINISHED and left.seats.get(user=alice).autopilot
    assert left.rounds.filter(seats__isnull=False).exists()

    # By hand, from the one game she finished.
    state, _ = replayed(finished)
    seat = finished.seats.get(user=alice).position
    scores = [result.scores[seat] for result in state.results]
    totals = engine.game_standings(state).totals
    won = totals[seat] == max(totals)

    page = profile_page("alice")
    total = page["total"]
    assert (total.played, total.finished, total.abandoned) == (2, 1, 1)
    assert total.points_per_round == pytest.approx(sum(scores) / len(scores))
    assert total.points_per_round == stats.player_rounds(alice)[0].points_per_round
    assert total.wins == int(won) == stats.wins(stats.places(alice)["all"])
    assert page["places"] == stats.places(alice)["all"]
    assert sum(row["games"] for row in page["places"]) == 1
    two, three = page["by_players"]
    assert (two.players, two.finished, two.wins) == (2, 1, int(won))
    assert two.points_per_round == total.points_per_round
    assert (three.players, three.played, three.finished, three.abandoned) == (3, 1, 0, 1)
    assert (three.wins, three.places, three.points_per_round) == (0, [], None)
    assert sum(c["rounds"] for c in stats.trump_colors(alice)["colors"]) == len(scores)
    assert list(stats.vetoed_boxes(alice)["by_players"]) == [2]


def test_places(tied_game, finish_game, alice, bob, carol, django_assert_num_queries):
    tied_game(alice, bob, carol)  # alice and bob tie on 28, carol 24: 1st, 1st, 3rd
    game = finish_game(carol, bots=("easy", "easy"), seed=4)
    totals = sorted((s.score for s in game.seats.all()), reverse=True)
    carol_place = 1 + totals.index(game.seats.get(user=carol).score)
    name = {1: "1st", 2: "2nd", 3: "3rd"}
    with django_assert_num_queries(1):
        assert stats.places(alice) == {
            "all": [{"rank": 1, "place": "1st", "games": 1}],
            "by_players": {3: [{"rank": 1, "place": "1st", "games": 1}]},
        }
    assert stats.places(bob)["all"] == [{"rank": 1, "place": "1st", "games": 1}]
    assert stats.wins(stats.places(bob)["all"]) == 1
    wanted = Counter([3, carol_place])
    carols = stats.places(carol)
    assert carols["all"] == [
        {"rank": p, "place": name[p], "games": wanted[p]} for p in sorted(wanted)
    ]
    assert stats.wins(carols["all"]) == wanted[1]
    # Both of carol's games are at 3 players; a game at 2 players is counted apart.
    assert carols["by_players"] == {3: carols["all"]}
    finish_game(carol, bots=("easy",), seed=5)
    assert sorted(stats.places(carol)["by_players"]) == [2, 3]
    assert sum(row["games"] for row in stats.places(carol)["all"]) == 3


def test_head_to_head(tied_game, alice, bob, carol, django_assert_num_queries):
    tied_game(alice, bob, carol)  # alice and bob tie on 28, carol 24
    with django_assert_num_queries(1):
        assert stats.head_to_head(alice, bob) == {"games": 1, "ahead": 0, "behind": 0, "level": 1}
    assert stats.head_to_head(carol, alice) == {"games": 1, "ahead": 0, "behind": 1, "level": 0}
    assert stats.head_to_head(alice, carol) == {"games": 1, "ahead": 1, "behind": 0, "level": 0}
    with django_assert_num_queries(0):
        assert stats.head_to_head(alice, alice) is None


def test_a_players_page_shows_the_viewers_record_against_them(client, tied_game, alice, bob, carol):
    tied_game(alice, bob, carol)  # alice and bob tie on 28, carol 24

    def sentence(viewer, username: str) -> str | None:
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        html = client.get(reverse("profile", args=[username])).content.decode()
        found = re.search(r'<p class="head-to-head">\s*(.*?)\s*</p>', html, re.S)
        assert (found is None) == ("Against you" not in html)
        return found and found.group(1)

    assert sentence(carol, "alice") == (
        "1 finished game together: this player finished ahead of you 1 time, behind you 0, level 0."
    )
    assert sentence(alice, "carol") == (
        "1 finished game together: this player finished ahead of you 0 time, behind you 1, level 0."
    )
    assert sentence(bob, "alice").endswith("ahead of you 0 time, behind you 0, level 1.")
    assert sentence(None, "alice") is None  # an anonymous viewer has no record
    assert sentence(alice, "alice") is None  # nor anyone against themselves


def test_site_stats(games, tied_game, alice, bob, carol, django_assert_num_queries):
    tied_game(alice, bob, carol)
    finished = list(Game.objects.filter(status=Game.Status.FINISHED))
    by_players = Counter(g.players for g in finished)
    vetoed = Counter()
    scores = {}
    for game in finished:
        state, moves = replayed(game)
        vetoed.update((m.line, m.box) for m in moves if isinstance(m, engine.PlaceToken))
        for result in state.results:
            scores.setdefault(result.terms.points, []).extend(result.scores)
    with django_assert_num_queries(3):
        site = stats.site_stats()
    assert site["games_by_players"] == [
        {"players": n, "games": by_players[n]} for n in sorted(by_players)
    ]
    assert site["games_total"] == len(finished)
    wanted = sorted(vetoed.items(), key=lambda item: (-item[1], item[0]))[: stats.SITE_TOP_BOXES]
    assert [row["count"] for row in site["vetoed"]] == [count for _, count in wanted]
    assert [row["points"] for row in site["by_points"]] == sorted(scores, reverse=True)
    for row in site["by_points"]:
        assert row["score"] == pytest.approx(
            sum(scores[row["points"]]) / len(scores[row["points"]])
        )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Stats", "Boxes vetoed most", "Average score by points line"]),
        (
            "fr",
            ["Statistiques", "Cases les plus refusées", "Score moyen selon la ligne des points"],
        ),
    ],
)
def test_the_stats_page_in_both_languages(client, games, language, words):
    html = client.get(reverse("stats"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Rounds", "Tricks per round", "Trump colors played under", "Against you"]),
        ("fr", ["Manches", "Plis par manche", "Atouts joués", "Contre vous"]),
    ],
)
def test_a_players_page_shows_their_rounds_in_both_languages(
    client, games, alice, bob, tied_game, carol, language, words
):
    tied_game(alice, bob, carol)
    client.force_login(bob)
    html = client.get(
        reverse("profile", args=["alice"]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word in html
    assert '<svg class="trump-chart"' in html
    assert 'class="places"' in html
    # Each player count's row has its places (alice played at 2, 3 and 5 players).
    assert html.count('<td data-label="Places">') == 3  # the same word in French
    # alice's 3-player games: the tied game (a shared first place) and one against bots, whose
    # result depends on the game's random seed.
    with translation.override(language):
        at_three = stats.places(alice)["by_players"][3]
    assert at_three[0]["place"] == {"en": "1st", "fr": "1er"}[language]
    assert ", ".join(f"{row['place']} × {row['games']}" for row in at_three) in html
    # Each trump color comes with its symbol, for players who cannot tell the colors apart.
    for symbol in ("●", "▲", "★", "■"):
        assert symbol in html


def number(value: float, language: str) -> str:
    """``value|floatformat:1`` as each language writes it."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if language == "fr" else text


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            {
                "games": "1 finished game on the site.",
                "wins": "<dt>Wins</dt><dd>1</dd>",
                "places": "Places: 1st × 1",
                "points": "<dt>Points per round</dt><dd>{}</dd>",
            },
        ),
        (
            "fr",
            {
                "games": "1 partie terminée sur le site.",
                "wins": "<dt>Victoires</dt><dd>1</dd>",
                "places": "Places : 1er × 1",
                "points": "<dt>Points par manche</dt><dd>{}</dd>",
            },
        ),
    ],
)
def test_the_stats_page_and_a_profile_show_known_figures_in_a_fixed_number_of_queries(
    client, tied_game, alice, bob, carol, language, words, django_assert_num_queries
):
    """The tied game (alice and bob 28, carol 24): its figures as the pages print them, worked
    out here from the engine's replay, and the pages' queries counted."""
    game = tied_game(alice, bob, carol)
    state, _ = replayed(game)
    rounds = len(state.results)
    with django_assert_num_queries(3):
        html = client.get(reverse("stats"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words["games"] in html
    assert '<tr><th scope="row">3</th><td class="num">1</td></tr>' in html  # 1 game at 3 players
    by_points = {}
    for result in state.results:
        by_points.setdefault(result.terms.points, []).extend(result.scores)
    for points, scores in by_points.items():
        row = f'<th scope="row">{points}</th><td class="num">{len(scores) // 3}</td>'
        assert f'{row}<td class="num">{number(sum(scores) / len(scores), language)}</td>' in html

    with django_assert_num_queries(9):
        html = client.get(
            reverse("profile", args=["alice"]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
    assert words["wins"] in html
    assert words["places"] in html
    assert words["points"].format(number(28 / rounds, language)) in html
    alice_seat = game.seats.get(user=alice).position
    assert sum(result.scores[alice_seat] for result in state.results) == 28
