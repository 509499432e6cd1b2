"""The arena plays the levels against each other and reports the paired differences."""

from games.bots import arena, make_bot
from games.bots.arena import main, seatings


def test_seatings_swap_the_levels_and_balance_the_extra_seat():
    import random

    rng = random.Random(1)
    counts = []
    for pair in range(4):
        first, second = seatings(5, pair, rng, "easy", "hard")
        assert [{"easy": "hard", "hard": "easy"}[lv] for lv in first] == second
        counts.append(first.count("easy"))
    assert counts == [2, 3, 2, 3]


def test_a_short_run_reports_each_level_and_the_difference(capsys):
    args = ["--players", "3", "--games", "2", "--levels", "random,easy,medium,hard"]
    assert main([*args, "--hard-samples", "1", "--hard-team-samples", "2"]) == 0
    out = capsys.readouterr().out
    for matchup in ("easy vs random", "medium vs easy", "hard vs medium"):
        assert f"{matchup}: 3 players, 2 games" in out
    assert (
        out.count("points/round") == 9 + out.count("face each other")
        and "medium - easy (per duplicate pair" in out
    )
    assert "hard   " in out and "p95" in out


def test_expert_has_its_own_budget_options(capsys, monkeypatch):
    made = []

    def recording(level, seed, **options):
        bot = make_bot(level, seed, **options)
        made.append((level, bot.samples, bot.board_samples, bot.team_samples))
        return bot

    monkeypatch.setattr(arena, "make_bot", recording)
    args = ["--players", "2", "--games", "2", "--levels", "hard,expert"]
    budgets = [
        *("--hard-samples", "1", "--hard-team-samples", "0"),
        *("--expert-samples", "2", "--expert-board-samples", "3", "--expert-team-samples", "4"),
    ]
    assert main([*args, *budgets]) == 0
    out = capsys.readouterr().out
    assert "expert vs hard: 2 players, 2 games" in out and "expert " in out
    assert set(made) == {("hard", 1, 0, 0), ("expert", 2, 3, 4)}


def test_a_round_counts_as_facing_only_when_each_team_is_one_level():
    game = arena.Game(
        levels=["hard", "medium", "hard", "medium"],
        per_round=[0.0] * 4,
        won=[False] * 4,
        rounds=[
            (((0, 2), (1, 3)), (6, -2, 6, -2)),  # the levels face each other
            (((0, 1), (2, 3)), (4, 4, 9, 9)),  # each team holds both levels
            (((1, 3), (0, 2)), (3, 3, 1, 3)),
        ],
    )
    assert game.facing("hard", "medium") == [8.0, -1.0]
    assert game.facing("medium", "hard") == [-8.0, 1.0]


def test_at_4_players_the_margin_is_the_facing_rounds_over_all_rounds():
    timings = arena.Timings()
    levels = ["easy", "random", "random", "easy"]
    for seed in range(3):
        game = arena.play(4, seed, levels, {}, timings)
        margin = game.mean("easy", game.per_round) - game.mean("random", game.per_round)
        facing = game.facing("easy", "random")
        assert 0 < len(facing) < len(game.rounds)
        assert abs(sum(facing) / len(game.rounds) - margin) < 1e-9


def test_the_report_gives_the_facing_rounds(capsys):
    assert main(["--players", "4", "--games", "4", "--levels", "random,easy"]) == 0
    out = capsys.readouterr().out
    assert "rounds in which the levels face each other (each team one level):" in out
