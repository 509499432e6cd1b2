"""The arena plays the levels against each other and reports the paired differences."""

import json
import re
from pathlib import Path

import pytest

from games.bots import arena, make_bot, record
from games.bots.arena import main, seatings
from games.bots.hard import EXPERT_SEARCHES
from games.bots.record import Record


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


def test_at_3_players_expert_and_hard_play_the_same_games(capsys):
    """Expert plays Hard's choice at 3 players, Hard's as the arena sets it: both games of a
    duplicate pair are one game, so every pair's margin is 0."""
    args = ["--players", "3", "--games", "2", "--levels", "hard,expert"]
    assert main([*args, "--hard-samples", "2", "--hard-team-samples", "3"]) == 0
    out = capsys.readouterr().out
    assert "| 3 | expert vs hard | 2 | +0.00 [+0.00, +0.00] |" in out


def test_expert_runs_the_searches_it_is_told_at_every_size(capsys, monkeypatch):
    made = []

    def recording(level, seed, **options):
        made.append(options.get("searches"))
        return make_bot(level, seed, **options)

    monkeypatch.setattr(arena, "make_bot", recording)
    args = ["--players", "2", "--games", "2", "--levels", "hard,expert"]
    budgets = ["--hard-samples", "1", "--expert-samples", "2", "--expert-board-samples", "2"]
    assert main([*args, *budgets, "--expert-searches", "board,teams"]) == 0
    capsys.readouterr()
    assert next(m for m in made if m) == {2: frozenset({"board", "teams"})}, "at this size"
    with pytest.raises(SystemExit):
        main([*args, "--expert-searches", "cards,luck"])


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


def test_games_played_on_two_processes_give_the_same_report(capsys):
    """Each game depends on its seeds alone, so the processes change nothing but the time."""
    args = ["--players", "3,4", "--games", "4", "--levels", "random,easy"]
    reports = []
    for jobs in ("1", "2"):
        assert main([*args, "--jobs", jobs]) == 0
        out = capsys.readouterr().out
        reports.append(
            [line for line in out.splitlines() if "moves:" not in line and "wall" not in line]
        )
    assert reports[0] == reports[1]


def test_the_table_gives_each_size_the_margins_and_win_rates_with_intervals(capsys):
    assert main(["--players", "3,5", "--games", "4", "--levels", "random,easy"]) == 0
    out = capsys.readouterr().out
    assert arena.SUMMARY in out
    rows = [
        line for line in out.splitlines() if line.startswith("| 3 |") or line.startswith("| 5 |")
    ]
    assert len(rows) == 2
    interval = r"[+-]\d+\.\d\d \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]"
    rate = r"\d+\.\d% \[-?\d+\.\d%, \d+\.\d%\]"
    for size, row in zip((3, 5), rows, strict=True):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[:3] == [str(size), "easy vs random", "4"]
        assert re.fullmatch(interval, cells[3]) and re.fullmatch(interval, cells[4])
        assert re.fullmatch(rate, cells[5]) and re.fullmatch(rate, cells[6])


def test_the_summary_is_the_pairs_margins_and_win_rates():
    first = arena.Game(
        levels=["hard", "medium", "medium"],
        per_round=[10.0, 4.0, 6.0],
        won=[True, False, False],
        rounds=[(((0,), (1, 2)), (10, 5, 5)), (((1,), (0, 2)), (-2, 2, -2))],
    )
    second = arena.Game(
        levels=["medium", "hard", "hard"],
        per_round=[8.0, 6.0, 4.0],
        won=[True, False, False],
        rounds=[(((0,), (1, 2)), (8, 4, 4))],
    )
    result = arena.Result(3, "medium", "hard", [first, second])
    assert result.margin() == [(10 - 5 + 5 - 8) / 2]
    assert result.facing() == [(10 - 5 + 4 - 8) / 2]  # first's second round holds both levels
    assert result.wins("hard") == [(1 + 0) / 2] and result.wins("medium") == [(0 + 1) / 2]
    assert result.summary().startswith(
        "| 3 | hard vs medium | 2 | +1.00 [+1.00, +1.00] | +0.50 [+0.50, +0.50] |"
    )


def test_the_players_option_takes_sizes_from_2_to_5(capsys):
    for wrong in ("6", "3,x", ""):
        with pytest.raises(SystemExit):
            main(["--players", wrong, "--games", "2", "--levels", "random,easy"])
    capsys.readouterr()


def test_a_recorded_match_goes_on_where_it_stopped(capsys, monkeypatch, tmp_path):
    """Games on record are read, not played: a match stopped after 2 games and run again for
    4 plays 2 more and reports what one run of 4 reports."""
    played = []
    plays = arena.play

    def counting(*args, **kwargs):
        played.append(args[:3])
        return plays(*args, **kwargs)

    monkeypatch.setattr(arena, "play", counting)
    args = ["--players", "4", "--levels", "random,easy"]
    record = ["--record", str(tmp_path / "games.jsonl")]

    def table(out):
        return [line for line in out.splitlines() if line.startswith("| 4 |")]

    assert main([*args, "--games", "4"]) == 0
    whole = table(capsys.readouterr().out)
    assert main([*args, "--games", "2", *record]) == 0
    capsys.readouterr()
    played.clear()
    assert main([*args, "--games", "4", *record]) == 0
    assert table(capsys.readouterr().out) == whole and len(whole) == 1
    assert len(played) == 2, "the two games on record were not played again"
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 4
    played.clear()
    monkeypatch.setattr(arena, "code_version", lambda: "other code")
    assert main([*args, "--games", "2", *record]) == 0
    capsys.readouterr()
    assert len(played) == 2, "games played by other code are played again"
    with pytest.raises(SystemExit):
        main([*args, "--games", "2", *record, "--hard-seconds", "0.1"])


def test_the_code_version_keeps_to_the_code_not_its_words():
    code = 'def f(x):\n    """Doubles."""\n    return 2 * x  # twice\n'
    reworded = 'def f(x):\n    """Twice x."""\n    return 2 * x\n'
    changed = 'def f(x):\n    """Doubles."""\n    return 3 * x\n'
    assert record.digest({"m.py": code}) == record.digest({"m.py": reworded})
    assert record.digest({"m.py": code}) != record.digest({"m.py": changed})
    assert record.digest({"a/m.py": code, "b/m.py": changed}) != record.digest({"a/m.py": code})


def test_experts_searches_by_size_are_in_the_key_not_the_digest():
    """A change of hard.EXPERT_SEARCHES at one table size keeps the games of the others: the
    table is left out of the digest and each game's key names its entry for the game's size."""
    hard = Path(record.__file__).with_name("hard.py").read_text()
    table = "EXPERT_SEARCHES: dict[int, frozenset[str]] = {"
    assert table in hard
    at_4 = hard.replace(table, table + "\n    4: frozenset(),")  # a later key wins
    assert at_4 != hard and record.digest({"hard.py": at_4}) == record.digest({"hard.py": hard})
    other = hard.replace("EXPERT_SAMPLES = 500", "EXPERT_SAMPLES = 501")
    assert other != hard and record.digest({"hard.py": other}) != record.digest({"hard.py": hard})

    options = {"expert": {}, "hard": {}}
    four, five = (arena.at_size(options, n, ("hard", "expert")) for n in (4, 5))
    assert four["expert"]["searches"] == {4: EXPERT_SEARCHES[4]}
    assert five["expert"]["searches"] == {5: EXPERT_SEARCHES[5]}
    assert arena.at_size(options, 4, ("medium", "hard")) == options, "no Expert, nothing named"
    chosen = {"expert": {"searches": dict.fromkeys((2, 3, 4, 5), frozenset({"board"}))}}
    assert arena.at_size(chosen, 3, ("hard", "expert"))["expert"]["searches"] == {
        3: frozenset({"board"})
    }
    keys = Record(Path("-"), "code")
    task = arena.Task(4, 1, ["hard", "expert"] * 2, four)
    assert f'"searches": {{"4": {json.dumps(sorted(EXPERT_SEARCHES[4]))}}}' in keys.key(task)


def test_games_recorded_on_two_processes_are_those_of_one(capsys, tmp_path):
    """The record holds the games in the order of their tasks, whatever the processes."""
    args = ["--players", "4", "--games", "4", "--levels", "random,easy"]
    for jobs in ("1", "2"):
        assert main([*args, "--jobs", jobs, "--record", str(tmp_path / f"{jobs}.jsonl")]) == 0
    capsys.readouterr()
    one, two = ((tmp_path / f"{jobs}.jsonl").read_text() for jobs in ("1", "2"))
    assert one == two and len(one.splitlines()) == 4
